//===- host_cpu_features.cc - Instruction sets of this machine ------------===//
//
// CPUID, read once, against a table of where each feature's bit is. A
// feature that uses AVX, AVX-512 or AMX registers also needs the OS to save
// them (XCR0), as LLVM's own host detection requires.
//
//===----------------------------------------------------------------------===//

#include "cpu/host_cpu_features.h"

#include <cpuid.h>

#include <cstdint>

namespace kiln {
namespace {

// The CPUID leaves (and subleaves) the table reads.
enum Leaf : uint8_t {
  kLeaf1,
  kLeaf7,
  kLeaf7Sub1,
  kLeafDSub1,
  kLeaf14,
  kLeaf19,
  kLeaf1ESub1,
  kLeaf24,
  kExtLeaf1,
  kExtLeaf8,
  kLeafCount,
};
enum Register : uint8_t { kEax, kEbx, kEcx, kEdx };
// Register state the OS must save for the feature's instructions.
enum Save : uint8_t { kNoState, kAvxState, kAvx512State, kAmxState };

struct FeatureBit {
  std::string_view name;
  Leaf leaf;
  Register reg;
  uint8_t bit;
  Save save;
};

// From the Intel SDM and AMD APM CPUID tables, with LLVM's feature names.
constexpr FeatureBit kFeatureBits[] = {
    {"x87", kLeaf1, kEdx, 0, kNoState},
    {"cx8", kLeaf1, kEdx, 8, kNoState},
    {"cmov", kLeaf1, kEdx, 15, kNoState},
    {"mmx", kLeaf1, kEdx, 23, kNoState},
    {"fxsr", kLeaf1, kEdx, 24, kNoState},
    {"sse", kLeaf1, kEdx, 25, kNoState},
    {"sse2", kLeaf1, kEdx, 26, kNoState},
    {"sse3", kLeaf1, kEcx, 0, kNoState},
    {"pclmul", kLeaf1, kEcx, 1, kNoState},
    {"ssse3", kLeaf1, kEcx, 9, kNoState},
    {"fma", kLeaf1, kEcx, 12, kAvxState},
    {"cx16", kLeaf1, kEcx, 13, kNoState},
    {"sse4.1", kLeaf1, kEcx, 19, kNoState},
    {"sse4.2", kLeaf1, kEcx, 20, kNoState},
    {"crc32", kLeaf1, kEcx, 20, kNoState},
    {"movbe", kLeaf1, kEcx, 22, kNoState},
    {"popcnt", kLeaf1, kEcx, 23, kNoState},
    {"aes", kLeaf1, kEcx, 25, kNoState},
    {"xsave", kLeaf1, kEcx, 26, kAvxState},
    {"avx", kLeaf1, kEcx, 28, kAvxState},
    {"f16c", kLeaf1, kEcx, 29, kAvxState},
    {"rdrnd", kLeaf1, kEcx, 30, kNoState},

    {"sahf", kExtLeaf1, kEcx, 0, kNoState},
    {"lzcnt", kExtLeaf1, kEcx, 5, kNoState},
    {"sse4a", kExtLeaf1, kEcx, 6, kNoState},
    {"prfchw", kExtLeaf1, kEcx, 8, kNoState},
    {"xop", kExtLeaf1, kEcx, 11, kAvxState},
    {"lwp", kExtLeaf1, kEcx, 15, kNoState},
    {"fma4", kExtLeaf1, kEcx, 16, kAvxState},
    {"tbm", kExtLeaf1, kEcx, 21, kNoState},
    {"mwaitx", kExtLeaf1, kEcx, 29, kNoState},
    {"64bit", kExtLeaf1, kEdx, 29, kNoState},
    {"clzero", kExtLeaf8, kEbx, 0, kNoState},
    {"rdpru", kExtLeaf8, kEbx, 4, kNoState},
    {"wbnoinvd", kExtLeaf8, kEbx, 9, kNoState},

    {"fsgsbase", kLeaf7, kEbx, 0, kNoState},
    {"sgx", kLeaf7, kEbx, 2, kNoState},
    {"bmi", kLeaf7, kEbx, 3, kNoState},
    {"avx2", kLeaf7, kEbx, 5, kAvxState},
    {"bmi2", kLeaf7, kEbx, 8, kNoState},
    {"invpcid", kLeaf7, kEbx, 10, kNoState},
    {"rtm", kLeaf7, kEbx, 11, kNoState},
    {"avx512f", kLeaf7, kEbx, 16, kAvx512State},
    {"avx512dq", kLeaf7, kEbx, 17, kAvx512State},
    {"rdseed", kLeaf7, kEbx, 18, kNoState},
    {"adx", kLeaf7, kEbx, 19, kNoState},
    {"avx512ifma", kLeaf7, kEbx, 21, kAvx512State},
    {"clflushopt", kLeaf7, kEbx, 23, kNoState},
    {"clwb", kLeaf7, kEbx, 24, kNoState},
    {"avx512cd", kLeaf7, kEbx, 28, kAvx512State},
    {"sha", kLeaf7, kEbx, 29, kNoState},
    {"avx512bw", kLeaf7, kEbx, 30, kAvx512State},
    {"avx512vl", kLeaf7, kEbx, 31, kAvx512State},
    {"avx512vbmi", kLeaf7, kEcx, 1, kAvx512State},
    {"pku", kLeaf7, kEcx, 4, kNoState},
    {"waitpkg", kLeaf7, kEcx, 5, kNoState},
    {"avx512vbmi2", kLeaf7, kEcx, 6, kAvx512State},
    {"shstk", kLeaf7, kEcx, 7, kNoState},
    {"gfni", kLeaf7, kEcx, 8, kNoState},
    {"vaes", kLeaf7, kEcx, 9, kAvxState},
    {"vpclmulqdq", kLeaf7, kEcx, 10, kAvxState},
    {"avx512vnni", kLeaf7, kEcx, 11, kAvx512State},
    {"avx512bitalg", kLeaf7, kEcx, 12, kAvx512State},
    {"avx512vpopcntdq", kLeaf7, kEcx, 14, kAvx512State},
    {"rdpid", kLeaf7, kEcx, 22, kNoState},
    {"kl", kLeaf7, kEcx, 23, kNoState},
    {"cldemote", kLeaf7, kEcx, 25, kNoState},
    {"movdiri", kLeaf7, kEcx, 27, kNoState},
    {"movdir64b", kLeaf7, kEcx, 28, kNoState},
    {"enqcmd", kLeaf7, kEcx, 29, kNoState},
    {"uintr", kLeaf7, kEdx, 5, kNoState},
    {"avx512vp2intersect", kLeaf7, kEdx, 8, kAvx512State},
    {"serialize", kLeaf7, kEdx, 14, kNoState},
    {"tsxldtrk", kLeaf7, kEdx, 16, kNoState},
    {"pconfig", kLeaf7, kEdx, 18, kNoState},
    {"amx-bf16", kLeaf7, kEdx, 22, kAmxState},
    {"avx512fp16", kLeaf7, kEdx, 23, kAvx512State},
    {"amx-tile", kLeaf7, kEdx, 24, kAmxState},
    {"amx-int8", kLeaf7, kEdx, 25, kAmxState},

    {"sha512", kLeaf7Sub1, kEax, 0, kNoState},
    {"sm3", kLeaf7Sub1, kEax, 1, kNoState},
    {"sm4", kLeaf7Sub1, kEax, 2, kNoState},
    {"raoint", kLeaf7Sub1, kEax, 3, kNoState},
    {"avxvnni", kLeaf7Sub1, kEax, 4, kAvxState},
    {"avx512bf16", kLeaf7Sub1, kEax, 5, kAvx512State},
    {"cmpccxadd", kLeaf7Sub1, kEax, 7, kNoState},
    {"amx-fp16", kLeaf7Sub1, kEax, 21, kAmxState},
    {"hreset", kLeaf7Sub1, kEax, 22, kNoState},
    {"avxifma", kLeaf7Sub1, kEax, 23, kAvxState},
    {"movrs", kLeaf7Sub1, kEax, 31, kNoState},
    {"avxvnniint8", kLeaf7Sub1, kEdx, 4, kAvxState},
    {"avxneconvert", kLeaf7Sub1, kEdx, 5, kAvxState},
    {"amx-complex", kLeaf7Sub1, kEdx, 8, kAmxState},
    {"avxvnniint16", kLeaf7Sub1, kEdx, 10, kAvxState},
    {"prefetchi", kLeaf7Sub1, kEdx, 14, kNoState},
    {"usermsr", kLeaf7Sub1, kEdx, 15, kNoState},
    // APX: one bit for all of its parts.
    {"egpr", kLeaf7Sub1, kEdx, 21, kNoState},
    {"push2pop2", kLeaf7Sub1, kEdx, 21, kNoState},
    {"ppx", kLeaf7Sub1, kEdx, 21, kNoState},
    {"ndd", kLeaf7Sub1, kEdx, 21, kNoState},
    {"ccmp", kLeaf7Sub1, kEdx, 21, kNoState},
    {"nf", kLeaf7Sub1, kEdx, 21, kNoState},
    {"cf", kLeaf7Sub1, kEdx, 21, kNoState},
    {"zu", kLeaf7Sub1, kEdx, 21, kNoState},

    {"xsaveopt", kLeafDSub1, kEax, 0, kAvxState},
    {"xsavec", kLeafDSub1, kEax, 1, kAvxState},
    {"xsaves", kLeafDSub1, kEax, 3, kAvxState},
    {"ptwrite", kLeaf14, kEbx, 4, kNoState},
    {"widekl", kLeaf19, kEbx, 2, kNoState},
    {"amx-fp8", kLeaf1ESub1, kEax, 4, kAmxState},
    {"amx-transpose", kLeaf1ESub1, kEax, 5, kAmxState},
    {"amx-tf32", kLeaf1ESub1, kEax, 6, kAmxState},
    {"amx-avx512", kLeaf1ESub1, kEax, 7, kAmxState},
    {"amx-movrs", kLeaf1ESub1, kEax, 8, kAmxState},
};

struct HostCpu {
  uint32_t regs[kLeafCount][4] = {};
  bool saves[4] = {true, false, false, false};  // indexed by Save
  uint32_t avx10_version = 0;                   // 0: no AVX10

  HostCpu() {
    struct Query {
      Leaf leaf;
      unsigned eax, ecx;
    };
    constexpr Query kQueries[] = {
        {kLeaf1, 1, 0},
        {kLeaf7, 7, 0},
        {kLeaf7Sub1, 7, 1},
        {kLeafDSub1, 0xd, 1},
        {kLeaf14, 0x14, 0},
        {kLeaf19, 0x19, 0},
        {kLeaf1ESub1, 0x1e, 1},
        {kLeaf24, 0x24, 0},
        {kExtLeaf1, 0x80000001, 0},
        {kExtLeaf8, 0x80000008, 0},
    };
    // __get_cpuid_count answers 0 for a leaf above the maximum.
    for (const Query& query : kQueries) {
      uint32_t* r = regs[query.leaf];
      if (!__get_cpuid_count(query.eax, query.ecx, &r[0], &r[1], &r[2],
                             &r[3])) {
        r[0] = r[1] = r[2] = r[3] = 0;
      }
    }
    // Leaf 7's subleaf 1 exists only when subleaf 0 says so.
    if (regs[kLeaf7][kEax] < 1) {
      for (uint32_t& r : regs[kLeaf7Sub1]) r = 0;
    }
    const bool osxsave = (regs[kLeaf1][kEcx] >> 27) & 1;
    uint64_t xcr0 = 0;
    if (osxsave) {
      uint32_t low, high;
      __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
      xcr0 = (uint64_t{high} << 32) | low;
    }
    saves[kAvxState] = osxsave && (xcr0 & 0x6) == 0x6;
    saves[kAvx512State] = saves[kAvxState] && (xcr0 & 0xe0) == 0xe0;
    const uint64_t amx_state = (uint64_t{1} << 17) | (uint64_t{1} << 18);
    saves[kAmxState] = osxsave && (xcr0 & amx_state) == amx_state;
    if ((regs[kLeaf7Sub1][kEdx] >> 19) & 1) {
      avx10_version = regs[kLeaf24][kEbx] & 0xff;
    }
  }
};

const HostCpu& GetHostCpu() {
  static const HostCpu host;
  return host;
}

}  // namespace

std::optional<bool> HostHasCpuFeature(std::string_view name) {
  const HostCpu& host = GetHostCpu();
  for (const FeatureBit& feature : kFeatureBits) {
    if (feature.name != name) continue;
    return ((host.regs[feature.leaf][feature.reg] >> feature.bit) & 1) &&
           host.saves[feature.save];
  }
  // AVX10 comes in versions; AVX-512 registers for all of them.
  if (name.substr(0, 6) == "avx10.") {
    const std::string_view version = name.substr(6);
    if (version == "1" || version == "2") {
      return host.avx10_version >= static_cast<uint32_t>(version[0] - '0') &&
             host.saves[kAvx512State];
    }
  }
  return std::nullopt;
}

}  // namespace kiln
