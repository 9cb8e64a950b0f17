//===- LibraryBuilder.cpp - CPU variants to one shared object -------------===//

#include "Target/CPU/LibraryBuilder.h"

#include "Capture/Passes.h"
#include "Capture/StageLines.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "Target/CPU/CPUTarget.h"
#include "Target/CPU/LLVMIRPasses.h"
#include "Target/CPU/LibraryABI.h"
#include "Target/CPU/LibraryLines.h"
#include "Target/CPU/LinkerTool.h"
#include "kiln/executable_library.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"

namespace mlir::kiln {

namespace {

/// A file the library is built through: a temporary removed when it goes
/// out of scope, or one kept in the directory options name.
struct BuildFile {
  SmallString<128> path;
  bool keep = false;
  ~BuildFile() {
    if (!path.empty() && !keep)
      llvm::sys::fs::remove(path);
  }
};

/// `libraryName.extension` in `keepDir`, else a fresh temporary file.
LogicalResult createBuildFile(Location loc, StringRef keepDir,
                              StringRef libraryName, StringRef extension,
                              BuildFile &file) {
  if (keepDir.empty()) {
    if (llvm::sys::fs::createTemporaryFile("kiln", extension, file.path))
      return emitError(loc) << "cannot create a temporary ." << extension
                            << " file";
    return success();
  }
  if (std::error_code error = llvm::sys::fs::create_directories(keepDir))
    return emitError(loc) << "cannot create " << keepDir << ": "
                          << error.message();
  file.path = keepDir;
  llvm::sys::path::append(file.path, libraryName + "." + extension);
  file.keep = true;
  return success();
}

/// The one line an op's code maps to: its line in the text at `stagePath`
/// that the capture tagged it with, else the first file location in its own
/// outside the tags (an inlined op's own line, the first of fused ops' lines, never LLVM's
/// line 0 for merged ones), else null.
FileLineColLoc getLineTableLoc(Location loc, StringRef stagePath) {
  if (FileLineColLoc stageLine = findStageLine(loc, stagePath))
    return stageLine;
  return getStageLineOrigin(loc, /*previousPath=*/"").input;
}

/// A copy of `module` holding what LLVM's debug-info translation needs to
/// emit line tables: each op at its one line (see getLineTableLoc; an op
/// without one at its parent's), each function with a subprogram scope
/// (upstream `ensure-debug-info-scope-on-llvm-func`; full emission, so that
/// each is a named subprogram: backtraces by DWARF alone, such as Tracy's,
/// name kernel frames after their export). The
/// compiled IR keeps its locations. Null if the scopes cannot be added.
OwningOpRef<ModuleOp> cloneWithLineScopes(ModuleOp module,
                                          StringRef stagePath) {
  OwningOpRef<ModuleOp> copy = module.clone();
  copy->walk<WalkOrder::PreOrder>([&](Operation *op) {
    FileLineColLoc line = getLineTableLoc(op->getLoc(), stagePath);
    Operation *parent = op->getParentOp();
    op->setLoc(line ? Location(line)
                    : parent ? parent->getLoc()
                             : Location(UnknownLoc::get(op->getContext())));
  });
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  LLVM::DIScopeForLLVMFuncOpPassOptions scopeOptions;
  scopeOptions.emissionKind = LLVM::DIEmissionKind::Full;
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopeOptions));
  if (failed(pm.run(*copy)))
    return nullptr;
  return copy;
}

}  // namespace

FailureOr<CPULibrary> buildCPULibrary(ModuleOp moduleOp, StringRef libraryName,
                                      const CPULibraryOptions &options) {
  Location loc = moduleOp.getLoc();
  llvm::LLVMContext llvmContext;
  auto linked = std::make_unique<llvm::Module>(libraryName, llvmContext);
  llvm::Linker linker(*linked);
  CPULibrary library;
  // The library's triple, CPU and features: the first variant's (a module
  // without variants gets `options.targetCPU`). Each variant's functions
  // carry its own CPU and features; the code may use what any of them has.
  std::string triple, features;
  llvm::StringSet<> cpuFeatures;
  SmallVector<std::string> exportNames;
  SmallVector<ExportDescriptor> descriptors;

  for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
    for (auto variantOp :
         executableOp.getBlock().getOps<ExecutableVariantOp>()) {
      if (variantOp.getTarget() != kCPUTargetName)
        continue;
      if (triple.empty()) {
        triple = variantOp.getTriple().str();
        library.cpu = variantOp.getCpu().str();
        features = variantOp.getFeatures().str();
      }
      for (std::string &feature :
           getCPUFeatureSet(variantOp.getCpu(), variantOp.getFeatures()))
        cpuFeatures.insert(feature);
      ModuleOp innerModule = variantOp.getInnerModule();
      if (!innerModule)
        return variantOp.emitError("variant has no module");
      OwningOpRef<ModuleOp> withLineScopes;
      if (options.lineTables) {
        std::string stagePath =
            options.lineStage.empty()
                ? std::string()
                : getCapturedSourcePath(options.sourcePrefix, variantOp,
                                        options.lineStage);
        withLineScopes = cloneWithLineScopes(innerModule, stagePath);
        if (!withLineScopes)
          return variantOp.emitError("cannot add line-table scopes");
        innerModule = *withLineScopes;
      }
      std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
          innerModule, llvmContext, executableOp.getSymName());
      if (!llvmModule)
        return variantOp.emitError("cannot translate to LLVM IR");
      // Both always: a function without them would take the target
      // machine's, which are the first variant's.
      for (llvm::Function &fn : *llvmModule)
        if (!fn.isDeclaration()) {
          fn.addFnAttr("target-cpu", variantOp.getCpu());
          fn.addFnAttr("target-features", variantOp.getFeatures());
        }
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
  if (triple.empty()) {
    triple = llvm::sys::getDefaultTargetTriple();
    std::tie(library.cpu, features) = resolveTargetCPU(options.targetCPU);
    for (std::string &feature : getCPUFeatureSet(library.cpu, features))
      cpuFeatures.insert(feature);
  }
  for (const auto &feature : cpuFeatures)
    library.cpuFeatures.push_back(feature.getKey().str());
  llvm::sort(library.cpuFeatures);

  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(loc, triple, library.cpu, features);
  if (failed(machine))
    return failure();
  linked->setTargetTriple(llvm::Triple(triple));
  linked->setDataLayout((*machine)->createDataLayout());
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
  optimizeModule(*linked, **machine);

  BuildFile objectFile, libraryFile;
  if (failed(createBuildFile(loc, options.keepFilesDir, libraryName, "o",
                             objectFile)) ||
      failed(emitObjectFile(loc, *linked, **machine, objectFile.path)) ||
      failed(createBuildFile(loc, options.keepFilesDir, libraryName, "so",
                             libraryFile)) ||
      failed(linkSharedLibrary(loc, objectFile.path, libraryFile.path)))
    return failure();
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
