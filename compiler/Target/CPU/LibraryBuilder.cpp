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
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

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
      return emitError(loc)
             << "cannot create a temporary ." << extension << " file";
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
/// outside the tags (an inlined op's own line, the first of fused ops' lines,
/// never LLVM's line 0 for merged ones), else null.
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
    op->setLoc(line     ? Location(line)
               : parent ? parent->getLoc()
                        : Location(UnknownLoc::get(op->getContext())));
  });
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  // The copy of verified IR only gains debug scopes. Verifying it again
  // would wait for the context's threads from one of them, which then runs
  // the other shares of the library nested under this one, one by one.
  pm.enableVerifier(false);
  LLVM::DIScopeForLLVMFuncOpPassOptions scopeOptions;
  scopeOptions.emissionKind = LLVM::DIEmissionKind::Full;
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopeOptions));
  if (failed(pm.run(*copy)))
    return nullptr;
  return copy;
}

/// The shares a library's variants are dealt into, each compiled on its own
/// thread: a fixed count, so that the library is the same bytes whichever
/// machine (and thread count) builds it, and several per thread of a small
/// machine, so that variants of different cost keep every thread busy.
constexpr size_t kLibraryShares = 16;

/// A CPU variant of the module and the library ordinals of its exports.
struct LibraryVariant {
  ExecutableOp executable;
  ExecutableVariantOp variant;
  SmallVector<unsigned> ordinals;
};

/// What every share of the library is built with.
struct LibraryPlan {
  StringRef libraryName;
  const CPULibraryOptions *options;
  std::string triple, cpu, features;
  std::vector<LibraryVariant> variants;
  /// Per library ordinal: the export's name, the symbol its code gets (the
  /// name, with a suffix where another export has it) and its descriptor.
  SmallVector<std::string> exportNames, symbolNames;
  SmallVector<ExportDescriptor> descriptors;
};

/// Frees `name` in `module` for an export's symbol: a function that has it
/// is internal to its share and may be called anything.
void claimSymbolName(llvm::Module &module, StringRef name) {
  if (llvm::GlobalValue *other = module.getNamedValue(name))
    other->setName(name + ".local");
}

/// The name of an export's function until every share is linked.
std::string getExportFunctionName(unsigned ordinal) {
  return ("__kiln_export_" + Twine(ordinal)).str();
}

/// Translates the variants `variantIndices` of `plan` into one LLVM module,
/// optimizes it and emits it to `objectPath`; the share `withTable` also
/// holds the export table and the query. Each export's code becomes a symbol
/// named after it (`plan.symbolNames`), local to the library: hidden, or
/// internal when one share holds everything. Runs on a thread of its own:
/// it touches no state of other shares.
LogicalResult buildLibraryShare(Location loc, const LibraryPlan &plan,
                                ArrayRef<size_t> variantIndices, bool withTable,
                                bool onlyShare, StringRef objectPath) {
  const CPULibraryOptions &options = *plan.options;
  llvm::LLVMContext llvmContext;
  auto linked = std::make_unique<llvm::Module>(plan.libraryName, llvmContext);
  llvm::Linker linker(*linked);
  SmallVector<unsigned> ordinals;
  for (size_t index : variantIndices) {
    const LibraryVariant &entry = plan.variants[index];
    ExecutableVariantOp variantOp = entry.variant;
    ExecutableOp executableOp = entry.executable;
    ModuleOp innerModule = variantOp.getInnerModule();
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
        // Copies and fills stay loops of the kernel instead of becoming
        // calls to the C library's memcpy and memset: a profile finds
        // their time in the kernel, at their line.
        fn.addFnAttr("no-builtins");
      }
    for (auto [exportOp, ordinal] :
         llvm::zip_equal(variantOp.getExportOps(), entry.ordinals)) {
      // The export table keeps the function alive under its own name.
      llvm::Function *fn = llvmModule->getFunction(exportOp.getSymName());
      if (!fn)
        return exportOp.emitError("export has no function");
      fn->setName(getExportFunctionName(ordinal));
      ordinals.push_back(ordinal);
    }
    if (linker.linkInModule(std::move(llvmModule)))
      return variantOp.emitError("cannot link variant into the library");
  }

  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(loc, plan.triple, plan.cpu, plan.features);
  if (failed(machine))
    return failure();
  linked->setTargetTriple(llvm::Triple(plan.triple));
  linked->setDataLayout((*machine)->createDataLayout());
  SmallVector<llvm::Function *> functions;
  for (unsigned ordinal : ordinals) {
    functions.push_back(linked->getFunction(getExportFunctionName(ordinal)));
    if (!functions.back())
      return emitError(loc) << "export " << plan.exportNames[ordinal]
                            << " was lost while linking";
  }
  if (withTable) {
    // The table names every export; those of other shares are declared
    // here and resolved by the linker. All exports have the ABI's type.
    SmallVector<llvm::Function *> table(plan.exportNames.size());
    for (auto [ordinal, fn] : llvm::zip_equal(ordinals, functions))
      table[ordinal] = fn;
    for (auto [ordinal, fn] : llvm::enumerate(table)) {
      if (fn)
        continue;
      claimSymbolName(*linked, plan.symbolNames[ordinal]);
      fn = llvm::Function::Create(functions.front()->getFunctionType(),
                                  llvm::GlobalValue::ExternalLinkage,
                                  plan.symbolNames[ordinal], *linked);
      fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    addLibraryTable(*linked, table, plan.exportNames, plan.descriptors,
                    plan.libraryName);
  }
  // Only the library table refers to kernels: everything but the query is
  // internal to its share, so LLVM optimizes freely and the .so exports one
  // symbol; an export another share's table names is hidden instead.
  for (llvm::Function &fn : *linked) {
    if (fn.isDeclaration() ||
        fn.getName() == KILN_EXECUTABLE_LIBRARY_QUERY_NAME)
      continue;
    fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (llvm::Function *fn : functions)
    if (!onlyShare) {
      fn->setLinkage(llvm::GlobalValue::ExternalLinkage);
      fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
  // Local symbols of the library: profilers and debuggers name each
  // export's code after it.
  for (auto [ordinal, fn] : llvm::zip_equal(ordinals, functions)) {
    claimSymbolName(*linked, plan.symbolNames[ordinal]);
    fn->setName(plan.symbolNames[ordinal]);
  }
  if (llvm::verifyModule(*linked, &llvm::errs()))
    return emitError(loc) << "generated LLVM IR does not verify";
  optimizeModule(*linked, **machine);
  return emitObjectFile(loc, *linked, **machine, objectPath);
}

} // namespace

FailureOr<CPULibrary> buildCPULibrary(ModuleOp moduleOp, StringRef libraryName,
                                      const CPULibraryOptions &options) {
  Location loc = moduleOp.getLoc();
  MLIRContext *context = moduleOp.getContext();
  CPULibrary library;
  library.variantName = options.variantName;
  LibraryPlan plan;
  plan.libraryName = libraryName;
  plan.options = &options;
  // The library's triple, CPU and features: the first variant's (a module
  // without variants gets `options.targetCPU`). Each variant's functions
  // carry their own CPU and features; the code may use what any of them has.
  llvm::StringSet<> cpuFeatures, symbols;
  for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
    for (auto variantOp :
         executableOp.getBlock().getOps<ExecutableVariantOp>()) {
      if (variantOp.getTarget() != kCPUTargetName ||
          variantOp.getSymName() != options.variantName)
        continue;
      if (plan.triple.empty()) {
        plan.triple = variantOp.getTriple().str();
        library.cpu = plan.cpu = variantOp.getCpu().str();
        plan.features = variantOp.getFeatures().str();
      }
      for (std::string &feature :
           getCPUFeatureSet(variantOp.getCpu(), variantOp.getFeatures()))
        cpuFeatures.insert(feature);
      if (!variantOp.getInnerModule())
        return variantOp.emitError("variant has no module");
      LibraryVariant entry{executableOp, variantOp, {}};
      for (auto exportOp : variantOp.getExportOps()) {
        std::string symbol = exportOp.getSymName().str();
        for (unsigned suffix = 1; !symbols.insert(symbol).second; ++suffix)
          symbol = (exportOp.getSymName() + "." + Twine(suffix)).str();
        plan.symbolNames.push_back(symbol);
        entry.ordinals.push_back(library.exports.size());
        library.exports.push_back(
            {executableOp.getSymName().str(), exportOp.getSymName().str(),
             static_cast<uint32_t>(library.exports.size())});
        plan.exportNames.push_back(exportOp.getSymName().str());
        FailureOr<ExportDescriptor> descriptor = getExportDescriptor(exportOp);
        if (failed(descriptor))
          return failure();
        plan.descriptors.push_back(std::move(*descriptor));
      }
      plan.variants.push_back(std::move(entry));
    }
  }
  if (plan.triple.empty()) {
    plan.triple = llvm::sys::getDefaultTargetTriple();
    std::tie(library.cpu, plan.features) = resolveTargetCPU(options.targetCPU);
    plan.cpu = library.cpu;
    for (std::string &feature : getCPUFeatureSet(library.cpu, plan.features))
      cpuFeatures.insert(feature);
  }
  for (const auto &feature : cpuFeatures)
    library.cpuFeatures.push_back(feature.getKey().str());
  llvm::sort(library.cpuFeatures);

  // LLVM takes most of a compilation: the variants are dealt round robin
  // into shares, each optimized and emitted as an object of its own on the
  // context's threads, which the linker joins. The first share holds the
  // table.
  size_t shareCount =
      std::clamp<size_t>(plan.variants.size(), 1, kLibraryShares);
  SmallVector<SmallVector<size_t>> shares(shareCount);
  for (size_t i = 0; i < plan.variants.size(); ++i)
    shares[i % shareCount].push_back(i);
  std::vector<BuildFile> objects(shareCount);
  for (auto [i, object] : llvm::enumerate(objects)) {
    std::string name =
        i == 0 ? libraryName.str() : (libraryName + "." + Twine(i)).str();
    if (failed(createBuildFile(loc, options.keepFilesDir, name, "o", object)))
      return failure();
  }
  if (failed(failableParallelForEachN(context, 0, shareCount, [&](size_t i) {
        return buildLibraryShare(loc, plan, shares[i], /*withTable=*/i == 0,
                                 /*onlyShare=*/shareCount == 1,
                                 objects[i].path);
      })))
    return failure();

  BuildFile libraryFile;
  SmallVector<StringRef> objectPaths;
  for (BuildFile &object : objects)
    objectPaths.push_back(object.path);
  if (failed(createBuildFile(loc, options.keepFilesDir, libraryName, "so",
                             libraryFile)) ||
      failed(linkSharedLibrary(loc, objectPaths, libraryFile.path)))
    return failure();
  auto buffer = llvm::MemoryBuffer::getFile(libraryFile.path);
  if (!buffer)
    return emitError(loc) << "cannot read the linked library";
  library.bytes = (*buffer)->getBuffer().str();
  FailureOr<LibraryLines> lines =
      readLibraryLines(loc, library.bytes, plan.symbolNames);
  if (failed(lines))
    return failure();
  library.lines = std::move(*lines);
  return library;
}

} // namespace mlir::kiln
