//===- CPUTarget.h - What kiln knows of an x86-64 CPU -------------*- C++ -*-===//
//
// The one place that turns a `--cpu` choice into an LLVM CPU name and
// features, and those into the facts code generation plans with: vector
// width, vector register count and cache sizes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_CPUTARGET_H_
#define KILN_TARGET_CPU_CPUTARGET_H_

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Target;
class Triple;
} // namespace llvm

namespace mlir::kiln {

/// The LLVM target triple of every CPU library.
inline constexpr StringLiteral kCPUTriple = "x86_64-unknown-linux-gnu";
/// The target name of CPU executable variants.
inline constexpr StringLiteral kCPUTargetName = "llvm-cpu";

/// LLVM's target for `triple`, its registration done once for the process
/// (registering is not thread-safe, and libraries are built on several
/// threads); null with `error` set when LLVM has none.
const llvm::Target *lookupLLVMTarget(const llvm::Triple &triple,
                                     std::string &error);

/// Resolves a `--cpu` choice into an LLVM CPU name and feature string. For
/// "host", the features list only where the host differs from what its CPU
/// name implies (a virtual machine may hide some), usually nothing.
std::pair<std::string, std::string> resolveTargetCPU(StringRef cpu);

/// Succeeds when `cpu` ("host" or an x86-64 CPU name) names a CPU LLVM
/// can generate code for.
LogicalResult verifyTargetCPU(StringRef cpu);

/// The names of the code variants for `cpus` (the `--cpu` list), in its
/// order: `cpu` for a single CPU (whose texts' paths then do not change with
/// it), else each CPU as given.
SmallVector<std::string> getCodeVariantNames(ArrayRef<std::string> cpus);

/// The instruction-set features LLVM CPU `cpu` has, with `features`
/// ("+f,-g") applied, sorted: what code generated for them may use, and the
/// runtime checks before loading it.
std::vector<std::string> getCPUFeatureSet(StringRef cpu, StringRef features);

/// What tiling decisions depend on.
struct CPUTargetInfo {
  /// Bytes in one vector register: 16 (SSE), 32 (AVX2) or 64 (AVX-512).
  int64_t vectorBytes = 16;
  /// Architectural vector registers: 16, or 32 with AVX-512.
  int64_t vectorRegisters = 16;
  /// Per-core data caches, in bytes.
  int64_t l1DataBytes = 32 * 1024;
  int64_t l2Bytes = 256 * 1024;
  /// The last-level cache, shared by the cores: what a result larger than
  /// it has left before anything reads it.
  int64_t lastLevelBytes = 32 * 1024 * 1024;

  /// Elements of `bitWidth` bits in one vector register.
  int64_t getLanes(int64_t bitWidth) const {
    return std::max<int64_t>(1,
                             vectorBytes * 8 / std::max<int64_t>(8, bitWidth));
  }

  /// The accumulator block of a contraction or convolution kernel: `rows`
  /// broadcast LHS elements times `columns` RHS elements per step of K.
  struct AccumulatorTile {
    int64_t rows, columns;
  };
  /// A contraction's block: rows of two vectors, each broadcast element
  /// feeding two FMAs. With 16 registers, six rows, two RHS vectors and the
  /// broadcast element fill them. With 32, eight rows: every broadcast is a
  /// load, and sixteen one-vector rows (17 loads for 16 FMAs) bound the loop
  /// by its loads; eight two-vector rows (10 loads for 16 FMAs) run at the
  /// FMA units' peak (AMD Zen 5: 240 GFLOP/s per core against 180-200, and
  /// 8-20% faster matmuls and MLP layers than 12 or 14 rows).
  AccumulatorTile getContractionTile(int64_t bitWidth) const {
    return {vectorRegisters >= 32 ? 8 : 6, 2 * getLanes(bitWidth)};
  }
  /// The block of a packed contraction of `rows` x `columns` over `depth` (a
  /// dynamic size is negative). The default block, with 32 registers in
  /// eight, seven or six rows, those that pad the rows the least (49 rows of
  /// a 7 x 7 image take 7, not 56 in 8; AVX-512 code, 1 thread: ResNet50 2%
  /// faster, MobileNetV2 3%, EfficientNet-B0 1.4%). With 32 registers,
  /// 32-bit elements and an RHS panel of the default block that L1 would not
  /// hold (a deep K), six rows of four vectors: 24 accumulators, and 10
  /// loads feed 24 FMAs. Intel Xeon, AVX-512 code, 1 thread: matmul 1024 and
  /// 1000 5-6% faster (2 threads 2-8%), 256 rows of K = 1024 3-7%, ViT-B/16's
  /// 197 rows 2-3%; ResNet50's 196 rows, which seven divide, 2% slower than
  /// in 7 x 32, so below 256 rows only rows the default block pads take it.
  /// AMD Zen 4, AVX-512 code, whose 512-bit FMAs run as two halves and leave
  /// either block FMA-bound: 0.98-1.01x. Where L1 holds the panel (K = 256:
  /// 0.96-0.99x), or with fewer rows, whose tiles of six waste more and
  /// whose workgroups split the rows to share 64-column panels (the MLP's
  /// batch of 64 with constant weights: 0.91x), or few columns, the default
  /// block stays; so it does for narrower types, which widen to compute and
  /// would need more registers, and for f64 (unmeasured).
  AccumulatorTile getPackedContractionTile(int64_t bitWidth, int64_t rows,
                                           int64_t columns,
                                           int64_t depth) const {
    AccumulatorTile tile = getContractionTile(bitWidth);
    int64_t defaultColumns = tile.columns;
    if (tile.rows == 8 && rows > 0)
      for (int64_t fewer : {7, 6})
        if (llvm::alignTo(rows, fewer) < llvm::alignTo(rows, tile.rows))
          tile.rows = fewer;
    bool defaultPads = rows % tile.rows != 0;
    if (vectorRegisters >= 32 && bitWidth == 32 &&
        (rows >= kWideTileMinRows ||
         (rows >= kWideTileMinPaddedRows && defaultPads)) &&
        columns >= kWideTileMinColumns &&
        depth * defaultColumns * 4 > l1DataBytes)
      return {6, 4 * getLanes(bitWidth)};
    return tile;
  }
  /// The register block of a packed contraction whose accumulator tile is
  /// `rows` x `columns` (as a layout chose it, possibly for another CPU's
  /// registers: a module's first CPU chooses for every variant): the whole
  /// tile when this CPU's registers hold its accumulators, one RHS vector
  /// per column and the broadcast element; else the block of rows and
  /// columns dividing the tile that they hold with the most accumulators,
  /// and of those the fewest loads per FMA. An AVX-512 layout's 6 x 64
  /// tile becomes 6 x 16 blocks in AVX2 code, its 8 x 32 tile 4 x 16.
  AccumulatorTile getRegisterBlock(int64_t bitWidth, int64_t rows,
                                   int64_t columns) const {
    int64_t lanes = getLanes(bitWidth);
    auto registersFor = [&](int64_t r, int64_t c) {
      int64_t vectors = llvm::divideCeil(c, lanes);
      return r * vectors + vectors + 1;
    };
    if (registersFor(rows, columns) <= vectorRegisters || columns % lanes)
      return {rows, columns};
    AccumulatorTile best = {1, lanes};
    for (int64_t r = 1; r <= rows; ++r) {
      if (rows % r)
        continue;
      for (int64_t c = lanes; c <= columns; c += lanes) {
        if (columns % c || registersFor(r, c) > vectorRegisters)
          continue;
        int64_t accumulators = r * (c / lanes);
        int64_t bestAccumulators = best.rows * (best.columns / lanes);
        // Loads per FMA: (r + c / lanes) / accumulators, compared crosswise.
        if (accumulators > bestAccumulators ||
            (accumulators == bestAccumulators &&
             (r + c / lanes) * bestAccumulators <
                 (best.rows + best.columns / lanes) * accumulators))
          best = {r, c};
      }
    }
    return best;
  }
  /// The least rows and columns of a contraction taking the wide block, and
  /// the least rows when the default block would pad them.
  static constexpr int64_t kWideTileMinRows = 256;
  static constexpr int64_t kWideTileMinColumns = 256;
  static constexpr int64_t kWideTileMinPaddedRows = 192;
  /// A convolution's block spans output columns (rows) and output channels
  /// (columns), and each step of it takes one input channel at one filter
  /// tap, or at every tap of a filter row.
  struct ConvolutionTile : AccumulatorTile {
    /// Whether a step takes a whole filter row: its taps also read the
    /// input elements just past the block (its halo), which stay live in
    /// registers.
    bool wholeFilterRow;
  };
  /// With 32 registers a step takes a filter row on ten two-vector rows: a
  /// 3-wide filter's halo leaves 8 output columns, whose 16 accumulators,
  /// 6 filter vectors and the broadcast element fit, at 16 loads for 48
  /// FMAs where sixteen one-vector rows (14 columns) took 19 loads for 42
  /// (Intel Xeon, 1 thread: the ResNet block's two 3x3 convolutions 2.95 ->
  /// 2.82 ms; 2 threads 1.53 -> 1.41). Eight columns also divide the widths
  /// of ResNet's images (56, 28, 14 and 7 through selectTile). With 16
  /// registers a step takes one tap on the contraction's block: its twelve
  /// accumulators hide the FMA latency that the three taps of a row on the
  /// eight accumulators the halo leaves (4 x 16) expose (AMD Zen 5, AVX2: 7%
  /// faster 3x3 convolutions).
  ConvolutionTile getConvolutionTile(int64_t bitWidth) const {
    if (vectorRegisters >= 32)
      return {{10, 2 * getLanes(bitWidth)}, /*wholeFilterRow=*/true};
    return {getContractionTile(bitWidth), /*wholeFilterRow=*/false};
  }
};

/// The packed contraction tile of a layout that code for several CPUs
/// computes (a module's variants share its constants' layouts), `targets`
/// in order of preference: the first CPU's, in as many rows as the fewest of
/// any CPU's contraction block, so that each computes whole tiles in register
/// blocks of its own shape. AVX-512 code on 6 x 32 tiles beside AVX2 code
/// (Intel Xeon, 1 thread): 1.00-1.01x its 8 x 32 tiles' time at matmul 256
/// to 1024, where the AVX2 code took 1.15x its own layout's time at 256 in
/// 2 x 32 blocks of an 8 x 32 tile and takes 1.01x in 6 x 16 blocks.
CPUTargetInfo::AccumulatorTile
getSharedPackedContractionTile(ArrayRef<CPUTargetInfo> targets,
                               int64_t bitWidth, int64_t rows, int64_t columns,
                               int64_t depth);

/// Facts of a resolved CPU (LLVM name and "+f,-g" features). Cache sizes are
/// the host's when `cpu` is the host CPU, else the documented per-core L1d
/// and L2 of a CPU LLVM names (for x86-64-v3 and v4, the least of the
/// servers that run them), else those LLVM's x86 cost model assumes for any
/// CPU (32 KiB L1d, 256 KiB L2); the last level is 32 MiB (a server's; a
/// smaller one streams fewer results than it could).
CPUTargetInfo getCPUTargetInfo(StringRef cpu, StringRef features);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_CPUTARGET_H_
