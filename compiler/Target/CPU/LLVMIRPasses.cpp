//===- LLVMIRPasses.cpp - LLVM optimization and object emission ----------===//

#include "Target/CPU/LLVMIRPasses.h"

#include "Target/CPU/CPUTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetOptions.h"

namespace mlir::kiln {

FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(Location loc, StringRef triple, StringRef cpu,
                    StringRef features) {
  std::string error;
  llvm::Triple targetTriple(triple);
  const llvm::Target *target = lookupLLVMTarget(targetTriple, error);
  if (!target)
    return emitError(loc) << "no LLVM target for " << triple << ": " << error;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      targetTriple, cpu, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return emitError(loc) << "cannot create a target machine for CPU '" << cpu
                          << "'";
  return machine;
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder passBuilder(&machine, tuning);
  passBuilder.registerModuleAnalyses(mam);
  passBuilder.registerCGSCCAnalyses(cgam);
  passBuilder.registerFunctionAnalyses(fam);
  passBuilder.registerLoopAnalyses(lam);
  passBuilder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      passBuilder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

LogicalResult emitObjectFile(Location loc, llvm::Module &module,
                             llvm::TargetMachine &machine, StringRef path) {
  std::error_code error;
  llvm::raw_fd_ostream stream(path, error, llvm::sys::fs::OF_None);
  if (error)
    return emitError(loc) << "cannot write the object file " << path << ": "
                          << error.message();
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, stream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return emitError(loc) << "the target cannot emit object files";
  codegen.run(module);
  stream.close();
  if (stream.has_error())
    return emitError(loc) << "cannot write the object file " << path;
  return success();
}

} // namespace mlir::kiln
