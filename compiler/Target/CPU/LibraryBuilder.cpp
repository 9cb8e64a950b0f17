//===- LibraryBuilder.cpp - CPU variants to one shared object -------------===//

#include "Target/CPU/LibraryBuilder.h"

#include "Capture/StageLines.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "Module/ElementType.h"
#include "Target/CPU/CPUTarget.h"
#include "Target/CPU/LibraryLines.h"
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
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"

#include <array>
#include <limits>

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

/// What the code of one export was built for (kiln_export_descriptor_v1_t).
struct ExportDescriptor {
  struct Binding {
    ::kiln::fb::ElementType elementType;
    uint8_t access;
    SmallVector<int64_t> shape;
  };
  std::array<uint32_t, 3> workgroupCount = {1, 1, 1};
  SmallVector<Binding> bindings;
};

/// The descriptor of `exportOp`: its workgroup count, binding types and
/// outputs, which strategy selection and `kiln-verify-export-interfaces`
/// derived from the kernel (or a stage text declares).
FailureOr<ExportDescriptor> getExportDescriptor(ExecutableExportOp exportOp) {
  ExportDescriptor descriptor;
  if (auto count = exportOp.getWorkgroupCountAttr()) {
    if (count.size() > 3)
      return exportOp.emitError("workgroup count has more than 3 entries");
    for (auto [i, value] : llvm::enumerate(count.asArrayRef())) {
      if (value < 1 || value > std::numeric_limits<uint32_t>::max())
        return exportOp.emitError("workgroup count ")
               << value << " is outside [1, 2^32)";
      descriptor.workgroupCount[i] = static_cast<uint32_t>(value);
    }
  }
  uint64_t bindingCount = exportOp.getBindings().getZExtValue();
  ArrayAttr types = exportOp.getBindingTypesAttr();
  if (!types || types.size() != bindingCount)
    return exportOp.emitError("export needs one binding type per binding (")
           << bindingCount << ") for the library to describe it";
  std::optional<uint64_t> outputs;
  if (auto attr = exportOp.getOutputsAttr())
    outputs = attr.getValue().getZExtValue();
  if (!outputs || *outputs > bindingCount)
    return exportOp.emitError("export needs `outputs` (at most ")
           << bindingCount << ", the bindings its code writes, last)";
  for (auto [i, attr] : llvm::enumerate(types)) {
    auto type = dyn_cast<RankedTensorType>(cast<TypeAttr>(attr).getValue());
    if (!type || !type.hasStaticShape())
      return exportOp.emitError("binding ")
             << i << " type is not a statically shaped tensor";
    FailureOr<::kiln::fb::ElementType> elementType =
        getModuleElementType(exportOp.getLoc(), type.getElementType());
    if (failed(elementType))
      return failure();
    uint8_t access = i + *outputs >= bindingCount ? KILN_BINDING_ACCESS_WRITE
                                                  : KILN_BINDING_ACCESS_READ;
    descriptor.bindings.push_back(
        {*elementType, access, llvm::to_vector(type.getShape())});
  }
  return descriptor;
}

/// Adds the export table (with each export's descriptor), library header
/// and query function.
void addLibraryTable(llvm::Module &module, ArrayRef<llvm::Function *> functions,
                     ArrayRef<std::string> names,
                     ArrayRef<ExportDescriptor> descriptors,
                     StringRef libraryName) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *ptrType = llvm::PointerType::get(context, 0);
  auto *i8 = builder.getInt8Ty();
  auto *i16 = builder.getInt16Ty();
  auto *i32 = builder.getInt32Ty();
  auto *i64 = builder.getInt64Ty();
  auto privateConstant = [&](llvm::Constant *init, StringRef name) {
    return new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    name);
  };
  auto stringConstant = [&](StringRef text, StringRef name) {
    return privateConstant(llvm::ConstantDataArray::getString(context, text),
                           name);
  };

  // kiln_binding_descriptor_v1_t and kiln_export_descriptor_v1_t.
  auto *bindingType = llvm::StructType::get(context, {i8, i8, i16, i32, ptrType});
  auto *descriptorType = llvm::StructType::get(
      context, {llvm::ArrayType::get(i32, 3), i32, ptrType, i64});
  auto *nullPtr = llvm::ConstantPointerNull::get(ptrType);
  SmallVector<llvm::Constant *> namePtrs, fnPtrs, descriptorValues;
  for (auto [i, fn] : llvm::enumerate(functions)) {
    namePtrs.push_back(stringConstant(names[i], "__kiln_export_name"));
    fnPtrs.push_back(fn);
    const ExportDescriptor &descriptor = descriptors[i];
    SmallVector<llvm::Constant *> bindings;
    for (const ExportDescriptor::Binding &binding : descriptor.bindings) {
      llvm::Constant *shape =
          binding.shape.empty()
              ? static_cast<llvm::Constant *>(nullPtr)
              : privateConstant(
                    llvm::ConstantDataArray::get(context, ArrayRef<uint64_t>(
                        reinterpret_cast<const uint64_t *>(
                            binding.shape.data()),
                        binding.shape.size())),
                    "__kiln_binding_shape");
      bindings.push_back(llvm::ConstantStruct::get(
          bindingType,
          {builder.getInt8(static_cast<uint8_t>(binding.elementType)),
           builder.getInt8(binding.access),
           builder.getInt16(binding.shape.size()), builder.getInt32(0),
           shape}));
    }
    llvm::Constant *bindingsPtr =
        bindings.empty()
            ? static_cast<llvm::Constant *>(nullPtr)
            : privateConstant(
                  llvm::ConstantArray::get(
                      llvm::ArrayType::get(bindingType, bindings.size()),
                      bindings),
                  "__kiln_export_bindings");
    descriptorValues.push_back(llvm::ConstantStruct::get(
        descriptorType,
        {llvm::ConstantDataArray::get(
             context, ArrayRef<uint32_t>(descriptor.workgroupCount)),
         builder.getInt32(bindings.size()), bindingsPtr, builder.getInt64(0)}));
  }
  auto ptrArray = llvm::ArrayType::get(ptrType, functions.size());
  auto *namesGlobal = privateConstant(
      llvm::ConstantArray::get(ptrArray, namePtrs), "__kiln_export_names");
  auto *ptrsGlobal = privateConstant(
      llvm::ConstantArray::get(ptrArray, fnPtrs), "__kiln_export_ptrs");
  auto *descriptorsGlobal = privateConstant(
      llvm::ConstantArray::get(
          llvm::ArrayType::get(descriptorType, functions.size()),
          descriptorValues),
      "__kiln_export_descriptors");

  // kiln_executable_library_header_t
  auto *headerType = llvm::StructType::get(context, {i32, i32, ptrType});
  auto *header = privateConstant(
      llvm::ConstantStruct::get(
          headerType,
          {builder.getInt32(KILN_EXECUTABLE_LIBRARY_VERSION_1),
           builder.getInt32(0),
           stringConstant(libraryName, "__kiln_library_name")}),
      "__kiln_library_header");
  // kiln_executable_library_v1_t { header*, kiln_export_table_v1_t }
  auto *tableType =
      llvm::StructType::get(context, {i32, i32, ptrType, ptrType, ptrType});
  auto *libraryType = llvm::StructType::get(context, {ptrType, tableType});
  auto *library = privateConstant(
      llvm::ConstantStruct::get(
          libraryType,
          {header, llvm::ConstantStruct::get(
                       tableType, {builder.getInt32(functions.size()),
                                   builder.getInt32(0), ptrsGlobal,
                                   namesGlobal, descriptorsGlobal})}),
      "__kiln_library");

  // const header_t **kiln_executable_library_query(uint32_t, const void *)
  auto *queryType = llvm::FunctionType::get(ptrType, {i32, ptrType}, false);
  auto *query = llvm::Function::Create(queryType,
                                       llvm::GlobalValue::ExternalLinkage,
                                       KILN_EXECUTABLE_LIBRARY_QUERY_NAME,
                                       module);
  query->setVisibility(llvm::GlobalValue::DefaultVisibility);
  auto *entry = llvm::BasicBlock::Create(context, "entry", query);
  auto *serve = llvm::BasicBlock::Create(context, "serve", query);
  auto *refuse = llvm::BasicBlock::Create(context, "refuse", query);
  builder.SetInsertPoint(entry);
  // Version 1 is the oldest this library serves.
  builder.CreateCondBr(
      builder.CreateICmpULT(query->getArg(0),
                            builder.getInt32(KILN_EXECUTABLE_LIBRARY_VERSION_1)),
      refuse, serve);
  builder.SetInsertPoint(serve);
  builder.CreateRet(library);
  builder.SetInsertPoint(refuse);
  builder.CreateRet(nullPtr);
}

/// The one line an op's code maps to: the stage line the capture tagged it
/// with, else the first file location in its own (an inlined op's own line,
/// the first of fused ops' lines, never LLVM's line 0 for merged ones), else
/// null.
FileLineColLoc getLineTableLoc(Location loc) {
  if (FileLineColLoc stageLine = findStageLine(loc))
    return stageLine;
  return loc->findInstanceOf<FileLineColLoc>();
}

/// A copy of `module` holding what LLVM's debug-info translation needs to
/// emit line tables: each op at its one line (see getLineTableLoc; an op
/// without one at its parent's), each function with a subprogram scope
/// (upstream `ensure-debug-info-scope-on-llvm-func`, line tables only). The
/// compiled IR keeps its locations. Null if the scopes cannot be added.
OwningOpRef<ModuleOp> cloneWithLineScopes(ModuleOp module) {
  OwningOpRef<ModuleOp> copy = module.clone();
  copy->walk<WalkOrder::PreOrder>([](Operation *op) {
    FileLineColLoc line = getLineTableLoc(op->getLoc());
    Operation *parent = op->getParentOp();
    op->setLoc(line ? Location(line)
                    : parent ? parent->getLoc()
                             : Location(UnknownLoc::get(op->getContext())));
  });
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  if (failed(pm.run(*copy)))
    return nullptr;
  return copy;
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
                                      const CPULibraryOptions &options) {
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
  SmallVector<ExportDescriptor> descriptors;

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
      OwningOpRef<ModuleOp> withLineScopes;
      if (options.lineTables) {
        withLineScopes = cloneWithLineScopes(innerModule);
        if (!withLineScopes)
          return variantOp.emitError("cannot add line-table scopes");
        innerModule = *withLineScopes;
      }
      std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
          innerModule, llvmContext, executableOp.getSymName());
      if (!llvmModule)
        return variantOp.emitError("cannot translate to LLVM IR");
      for (auto exportOp : variantOp.getExportOps()) {
        library.exports.push_back(
            {executableOp.getSymName().str(), exportOp.getSymName().str(),
             static_cast<uint32_t>(library.exports.size())});
        exportNames.push_back(exportOp.getSymName().str());
        FailureOr<ExportDescriptor> descriptor = getExportDescriptor(exportOp);
        if (failed(descriptor))
          return failure();
        descriptors.push_back(std::move(*descriptor));
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
    std::tie(library.cpu, features) = resolveTargetCPU(options.targetCPU);

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
  addLibraryTable(*linked, functions, exportNames, descriptors, libraryName);
  // Only the library table refers to kernels: everything but the query is
  // internal, so LLVM optimizes freely and the .so exports one symbol.
  for (llvm::Function &fn : *linked)
    if (!fn.isDeclaration() && fn.getName() != KILN_EXECUTABLE_LIBRARY_QUERY_NAME)
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  // Local symbols of the library: profilers and debuggers name each
  // export's code after it.
  for (auto [fn, name] : llvm::zip_equal(functions, exportNames))
    fn->setName(name);
  // The names LLVM gave them (an equal name gets a suffix).
  std::vector<std::string> exportSymbols;
  for (llvm::Function *fn : functions)
    exportSymbols.push_back(fn->getName().str());
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
  // What the runtime demands before it loads a library: nothing but the
  // object is linked in (no start files, no libraries: no initializers, no
  // DT_NEEDED), no text relocations, no executable stack.
  SmallVector<StringRef> args = {*linkerPath, "-shared", "--build-id=none",
                                 "-z",        "now",     "-z",
                                 "noexecstack", "-z",    "text",
                                 "-O2",       "-o",      libraryFile.path,
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
  FailureOr<LibraryLines> lines =
      readLibraryLines(loc, library.bytes, exportSymbols);
  if (failed(lines))
    return failure();
  library.lines = std::move(*lines);
  return library;
}

}  // namespace mlir::kiln
