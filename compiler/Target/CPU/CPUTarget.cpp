//===- CPUTarget.cpp - What kiln knows of an x86-64 CPU -------------------===//

#include "Target/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
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
  if (cpu == llvm::sys::getHostCPUName()) {
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l1 > 0)
      info.l1DataBytes = l1;
    if (l2 > 0)
      info.l2Bytes = l2;
  }
  return info;
}

} // namespace mlir::kiln
