//===- LibraryBuilder.cpp - CPU variants to one shared object -------------===//

#include "Target/CPU/LibraryBuilder.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "Target/CPU/CPUTarget.h"
#include "kiln/executable_library.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include "mlir/Target/LLVMIR/Export.h"

namespace mlir::kiln {

namespace {

/// Removes the file when it goes out of scope.
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

/// ld.lld from the LLVM 22 installation, else from PATH.
FailureOr<std::string> findLinker(Location loc) {
  for (StringRef name : {"ld.lld-22", "ld.lld"}) {
    auto path = llvm::sys::findProgramByName(name, {"/usr/lib/llvm-22/bin"});
    if (path)
      return *path;
    path = llvm::sys::findProgramByName(name);
    if (path)
      return *path;
  }
  return emitError(loc) << "cannot find ld.lld (install lld-22)";
}

/// Adds the export table, library header and query function.
void addLibraryTable(llvm::Module &module, ArrayRef<llvm::Function *> functions,
                     ArrayRef<std::string> names,
                     ArrayRef<uint32_t> bindingCounts, StringRef libraryName) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *ptrType = llvm::PointerType::get(context, 0);
  auto *i32 = builder.getInt32Ty();
  auto privateConstant = [&](llvm::Constant *init, StringRef name) {
    return new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    name);
  };
  auto stringConstant = [&](StringRef text, StringRef name) {
    return privateConstant(llvm::ConstantDataArray::getString(context, text),
                           name);
  };

  SmallVector<llvm::Constant *> namePtrs, fnPtrs, counts;
  for (auto [i, fn] : llvm::enumerate(functions)) {
    namePtrs.push_back(stringConstant(names[i], "__kiln_export_name"));
    fnPtrs.push_back(fn);
    counts.push_back(builder.getInt32(bindingCounts[i]));
  }
  auto ptrArray = llvm::ArrayType::get(ptrType, functions.size());
  auto *namesGlobal = privateConstant(
      llvm::ConstantArray::get(ptrArray, namePtrs), "__kiln_export_names");
  auto *ptrsGlobal = privateConstant(
      llvm::ConstantArray::get(ptrArray, fnPtrs), "__kiln_export_ptrs");
  auto *countsGlobal = privateConstant(
      llvm::ConstantArray::get(llvm::ArrayType::get(i32, functions.size()),
                               counts),
      "__kiln_export_binding_counts");

  // kiln_executable_library_header_t
  auto *headerType = llvm::StructType::get(context, {i32, i32, ptrType});
  auto *header = privateConstant(
      llvm::ConstantStruct::get(
          headerType,
          {builder.getInt32(KILN_EXECUTABLE_LIBRARY_VERSION_0),
           builder.getInt32(0),
           stringConstant(libraryName, "__kiln_library_name")}),
      "__kiln_library_header");
  // kiln_executable_library_v0_t { header*, kiln_export_table_v0_t }
  auto *tableType =
      llvm::StructType::get(context, {i32, i32, ptrType, ptrType, ptrType});
  auto *libraryType = llvm::StructType::get(context, {ptrType, tableType});
  auto *library = privateConstant(
      llvm::ConstantStruct::get(
          libraryType,
          {header, llvm::ConstantStruct::get(
                       tableType, {builder.getInt32(functions.size()),
                                   builder.getInt32(0), ptrsGlobal,
                                   namesGlobal, countsGlobal})}),
      "__kiln_library");

  // const header_t **kiln_executable_library_query(uint32_t, const void *)
  auto *queryType = llvm::FunctionType::get(ptrType, {i32, ptrType}, false);
  auto *query = llvm::Function::Create(queryType,
                                       llvm::GlobalValue::ExternalLinkage,
                                       KILN_EXECUTABLE_LIBRARY_QUERY_NAME,
                                       module);
  query->setVisibility(llvm::GlobalValue::DefaultVisibility);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", query));
  // Version 0 is the oldest: every max_version can be served.
  builder.CreateRet(library);
}

LogicalResult optimize(llvm::Module &module, llvm::TargetMachine &machine) {
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
  return success();
}

}  // namespace

FailureOr<CPULibrary> buildCPULibrary(ModuleOp moduleOp, StringRef libraryName,
                                      StringRef targetCPU) {
  Location loc = moduleOp.getLoc();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  llvm::LLVMContext llvmContext;
  auto linked = std::make_unique<llvm::Module>(libraryName, llvmContext);
  llvm::Linker linker(*linked);
  CPULibrary library;
  std::string triple;
  std::string features;
  SmallVector<std::string> exportNames;
  SmallVector<uint32_t> bindingCounts;

  for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
    for (auto variantOp :
         executableOp.getBlock().getOps<ExecutableVariantOp>()) {
      if (variantOp.getTarget() != kCPUTargetName)
        continue;
      triple = variantOp.getTriple().str();
      library.cpu = variantOp.getCpu().str();
      features = variantOp.getFeatures().str();
      ModuleOp innerModule = variantOp.getInnerModule();
      if (!innerModule)
        return variantOp.emitError("variant has no module");
      std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
          innerModule, llvmContext, executableOp.getSymName());
      if (!llvmModule)
        return variantOp.emitError("cannot translate to LLVM IR");
      for (auto exportOp : variantOp.getExportOps()) {
        library.exports.push_back(
            {executableOp.getSymName().str(), exportOp.getSymName().str(),
             static_cast<uint32_t>(library.exports.size())});
        exportNames.push_back(exportOp.getSymName().str());
        bindingCounts.push_back(exportOp.getBindings().getZExtValue());
        // The export table keeps the function alive under its own name.
        if (llvm::Function *fn = llvmModule->getFunction(exportOp.getSymName()))
          fn->setName("__kiln_export_" + Twine(library.exports.size() - 1));
        else
          return exportOp.emitError("export has no function");
      }
      if (linker.linkInModule(std::move(llvmModule)))
        return variantOp.emitError("cannot link variant into the library");
    }
  }

  SmallVector<llvm::Function *> functions;
  for (size_t i = 0; i < library.exports.size(); ++i)
    functions.push_back(linked->getFunction(("__kiln_export_" + Twine(i)).str()));
  if (triple.empty())
    triple = llvm::sys::getDefaultTargetTriple();
  if (library.cpu.empty())
    std::tie(library.cpu, features) = resolveTargetCPU(targetCPU);

  // What the code may use, for the runtime to check before loading it: the
  // CPU's own features, then the variants' "+f,-g" on top.
  llvm::SmallVector<StringRef> implied;
  llvm::X86::getFeaturesForCPU(library.cpu, implied);
  llvm::StringSet<> cpuFeatures;
  for (StringRef feature : implied)
    cpuFeatures.insert(feature);
  SmallVector<StringRef> extra;
  StringRef(features).split(extra, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef feature : extra) {
    if (feature.consume_front("+"))
      cpuFeatures.insert(feature);
    else if (feature.consume_front("-"))
      cpuFeatures.erase(feature);
  }
  for (const auto &feature : cpuFeatures)
    library.cpuFeatures.push_back(feature.getKey().str());
  llvm::sort(library.cpuFeatures);

  std::string error;
  llvm::Triple targetTriple(triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(targetTriple, error);
  if (!target)
    return emitError(loc) << "no LLVM target for " << triple << ": " << error;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      targetTriple, library.cpu, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return emitError(loc) << "cannot create a target machine for CPU '"
                          << library.cpu << "'";
  linked->setTargetTriple(targetTriple);
  linked->setDataLayout(machine->createDataLayout());
  for (llvm::Function &fn : *linked)
    if (!fn.isDeclaration()) {
      fn.addFnAttr("target-cpu", library.cpu);
      if (!features.empty())
        fn.addFnAttr("target-features", features);
    }
  for (auto [i, fn] : llvm::enumerate(functions))
    if (!fn)
      return emitError(loc) << "export " << exportNames[i]
                            << " was lost while linking";
  addLibraryTable(*linked, functions, exportNames, bindingCounts, libraryName);
  // Only the library table refers to kernels: everything but the query is
  // internal, so LLVM optimizes freely and the .so exports one symbol.
  for (llvm::Function &fn : *linked)
    if (!fn.isDeclaration() && fn.getName() != KILN_EXECUTABLE_LIBRARY_QUERY_NAME)
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  if (llvm::verifyModule(*linked, &llvm::errs()))
    return emitError(loc) << "generated LLVM IR does not verify";
  if (failed(optimize(*linked, *machine)))
    return failure();

  // Object file.
  TempFile objectFile, libraryFile;
  int objectFd;
  if (llvm::sys::fs::createTemporaryFile("kiln", "o", objectFd,
                                         objectFile.path))
    return emitError(loc) << "cannot create a temporary object file";
  {
    llvm::raw_fd_ostream objectStream(objectFd, /*shouldClose=*/true);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, objectStream, nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return emitError(loc) << "the target cannot emit object files";
    codegen.run(*linked);
  }

  // Shared object.
  FailureOr<std::string> linkerPath = findLinker(loc);
  if (failed(linkerPath))
    return failure();
  if (llvm::sys::fs::createTemporaryFile("kiln", "so", libraryFile.path))
    return emitError(loc) << "cannot create a temporary library file";
  SmallVector<StringRef> args = {*linkerPath,     "-shared",
                                 "--build-id=none", "-z",
                                 "now",           "-z",
                                 "noexecstack",   "-O2",
                                 "-o",            libraryFile.path,
                                 objectFile.path};
  std::string linkError;
  int status = llvm::sys::ExecuteAndWait(*linkerPath, args, std::nullopt, {},
                                         /*secondsToWait=*/0, 0, &linkError);
  if (status != 0)
    return emitError(loc) << "ld.lld failed (" << status << "): " << linkError;
  auto buffer = llvm::MemoryBuffer::getFile(libraryFile.path);
  if (!buffer)
    return emitError(loc) << "cannot read the linked library";
  library.bytes = (*buffer)->getBuffer().str();
  return library;
}

}  // namespace mlir::kiln
