//===- CPUTarget.cpp - What kiln knows of an x86-64 CPU -------------------===//

#include "Target/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <unistd.h>

#include <mutex>

namespace mlir::kiln {

std::pair<std::string, std::string> resolveTargetCPU(StringRef cpu) {
  if (cpu != "host")
    return {cpu.str(), ""};
  std::string name = llvm::sys::getHostCPUName().str();
  SmallVector<StringRef> implied;
  llvm::X86::getFeaturesForCPU(name, implied);
  SmallVector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    bool isImplied = llvm::is_contained(implied, feature.first());
    if (feature.second && !isImplied)
      features.push_back("+" + feature.first().str());
    else if (!feature.second && isImplied)
      features.push_back("-" + feature.first().str());
  }
  llvm::sort(features);
  return {name, llvm::join(features, ",")};
}

const llvm::Target *lookupLLVMTarget(const llvm::Triple &triple,
                                     std::string &error) {
  static std::once_flag registered;
  std::call_once(registered, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  return llvm::TargetRegistry::lookupTarget(triple, error);
}

LogicalResult verifyTargetCPU(StringRef cpu) {
  if (cpu == "host")
    return success();
  std::string error;
  llvm::Triple triple(kCPUTriple);
  const llvm::Target *target = lookupLLVMTarget(triple, error);
  if (!target)
    return failure();
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  return success(info && info->isCPUStringValid(cpu));
}

SmallVector<std::string> getCodeVariantNames(ArrayRef<std::string> cpus) {
  if (cpus.size() == 1)
    return {"cpu"};
  return llvm::to_vector(cpus);
}

CPUTargetInfo::AccumulatorTile
getSharedPackedContractionTile(ArrayRef<CPUTargetInfo> targets,
                               int64_t bitWidth, int64_t rows, int64_t columns,
                               int64_t depth) {
  CPUTargetInfo::AccumulatorTile tile =
      targets.front().getPackedContractionTile(bitWidth, rows, columns, depth);
  for (const CPUTargetInfo &target : targets.drop_front())
    tile.rows = std::min(tile.rows, target.getContractionTile(bitWidth).rows);
  return tile;
}

std::vector<std::string> getCPUFeatureSet(StringRef cpu, StringRef features) {
  SmallVector<StringRef> implied;
  llvm::X86::getFeaturesForCPU(cpu, implied);
  llvm::StringSet<> set;
  for (StringRef feature : implied)
    set.insert(feature);
  SmallVector<StringRef> extra;
  features.split(extra, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef feature : extra) {
    if (feature.consume_front("+"))
      set.insert(feature);
    else if (feature.consume_front("-"))
      set.erase(feature);
  }
  std::vector<std::string> result;
  for (const auto &feature : set)
    result.push_back(feature.getKey().str());
  llvm::sort(result);
  return result;
}

/// The size of one instance of the host's outermost data cache, from
/// Linux's sysfs; 0 when unknown. (sysconf's level-3 size can be a whole
/// package's: 384 MiB on an AMD EPYC whose L3 is 32 MiB per CCD.)
static int64_t getHostLastLevelCacheBytes() {
  int64_t bytes = 0, deepest = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    auto read = [&](StringRef name) -> std::string {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFile(dir + "/" + name.str(),
                                      /*IsText=*/true);
      return file ? (*file)->getBuffer().trim().str() : std::string();
    };
    std::string type = read("type"), level = read("level"), size = read("size");
    if (type.empty())
      break;
    int64_t levelValue = 0, kib = 0;
    StringRef sizeKiB(size);
    if (type == "Instruction" || !llvm::to_integer(level, levelValue) ||
        !sizeKiB.consume_back("K") || !llvm::to_integer(sizeKiB, kib))
      continue;
    if (levelValue > deepest) {
      deepest = levelValue;
      bytes = kib * 1024;
    }
  }
  return bytes;
}

/// Per-core data caches of the CPUs LLVM names, as their vendors document
/// them (a performance core's where a CPU has two kinds; an efficiency
/// core's share of its cluster's L2). A generic level takes the least of the
/// servers that run its code: x86-64-v3 an AMD Zen 2 or 3 (512 KiB L2),
/// x86-64-v4 an Intel Skylake-SP or AMD Zen 4 (1 MiB). Anything else gets
/// the defaults of CPUTargetInfo, LLVM's x86 cost model's.
static void setNamedCPUCaches(StringRef cpu, CPUTargetInfo &info) {
  constexpr int64_t KiB = 1024, MiB = 1024 * 1024;
  struct Caches {
    int64_t l1Data, l2;
  };
  std::optional<Caches> caches =
      llvm::StringSwitch<std::optional<Caches>>(cpu)
          .Cases({"x86-64-v3", "znver1", "znver2", "znver3"},
                 Caches{32 * KiB, 512 * KiB})
          .Cases({"x86-64-v4", "skylake-avx512", "cascadelake", "cooperlake",
                  "znver4"},
                 Caches{32 * KiB, 1 * MiB})
          .Cases({"icelake-client", "rocketlake"}, Caches{48 * KiB, 512 * KiB})
          .Cases({"icelake-server", "tigerlake", "alderlake"},
                 Caches{48 * KiB, 1280 * KiB})
          .Case("znver5", Caches{48 * KiB, 1 * MiB})
          .Cases({"sierraforest", "grandridge", "clearwaterforest"},
                 Caches{32 * KiB, 1 * MiB})
          .Cases({"raptorlake", "meteorlake", "arrowlake", "arrowlake-s",
                  "lunarlake", "sapphirerapids", "emeraldrapids",
                  "graniterapids", "graniterapids-d"},
                 Caches{48 * KiB, 2 * MiB})
          .Default(std::nullopt);
  if (!caches)
    return;
  info.l1DataBytes = caches->l1Data;
  info.l2Bytes = caches->l2;
}

CPUTargetInfo getCPUTargetInfo(StringRef cpu, StringRef features) {
  SmallVector<StringRef> implied;
  llvm::X86::getFeaturesForCPU(cpu, implied);
  SmallVector<StringRef> extra;
  features.split(extra, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  auto has = [&](StringRef feature) {
    bool result = llvm::is_contained(implied, feature);
    for (StringRef change : extra)
      if (change.drop_front() == feature)
        result = change.front() == '+';
    return result;
  };
  CPUTargetInfo info;
  // x86-64-v4 lists only AVX-512 subsets; each implies avx512f.
  if (has("avx512f") || has("avx512vl") || has("avx512bw")) {
    info.vectorBytes = 64;
    info.vectorRegisters = 32;
  } else if (has("avx2") || has("avx")) {
    info.vectorBytes = 32;
  }
  setNamedCPUCaches(cpu, info);
  if (cpu == llvm::sys::getHostCPUName()) {
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l1 > 0)
      info.l1DataBytes = l1;
    if (l2 > 0)
      info.l2Bytes = l2;
    // Read once: every kernel of a module asks.
    static const int64_t lastLevel = getHostLastLevelCacheBytes();
    if (lastLevel > 0)
      info.lastLevelBytes = lastLevel;
  }
  return info;
}

} // namespace mlir::kiln
