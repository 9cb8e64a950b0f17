//===- SerializeModule.cpp - compiled IR to a kiln module file ------------===//
//
// Writes what the IR says: host functions (host ops, with their buffers
// planned) instruction by instruction as slot programs (schema/module.fbs),
// constants once each, executables and their debug information, the
// library, and the source table.
//
//===----------------------------------------------------------------------===//

#include "Module/SerializeModule.h"

#include "Module/DebugInfoWriter.h"
#include "Module/FunctionWriter.h"
#include "Module/ModuleTables.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/xxhash.h"

namespace mlir::kiln {

namespace {

namespace fb = ::kiln::fb;

class ModuleSerializer {
public:
  ModuleSerializer(ModuleOp moduleOp, const CPULibrary &library,
                   const SerializeOptions &options, EmbeddedSources &sources)
      : moduleOp(moduleOp), library(library), options(options),
        builder(estimateModuleBytes(moduleOp, library)), tables(builder),
        debugInfo(moduleOp, library, options.debugLevel, options.captureStages,
                  sources, builder) {}

  LogicalResult serialize(llvm::raw_ostream &os) {
    if (failed(tables.indexExecutables(moduleOp, library, debugInfo)))
      return failure();
    std::vector<flatbuffers::Offset<fb::Function>> functions;
    for (auto funcOp : moduleOp.getOps<func::FuncOp>()) {
      if (!funcOp.isPublic())
        continue;
      FailureOr<flatbuffers::Offset<fb::Function>> function =
          writeFunction(funcOp, tables, builder);
      if (failed(function))
        return failure();
      functions.push_back(*function);
    }
    if (failed(tables.checkRoomFor(moduleOp.getLoc(), library.bytes.size(),
                                   "its code library")))
      return failure();
    auto libraryData = builder.CreateVector(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size());
    const uint64_t libraryHash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size()));
    auto libraryLines = debugInfo.serializeLibraryLines();
    std::vector<flatbuffers::Offset<fb::Library>> libraries = {
        fb::CreateLibrary(
            builder, builder.CreateString(KILN_LIBRARY_FORMAT_ELF_X86_64),
            builder.CreateString(library.cpu), libraryData, libraryHash,
            builder.CreateVectorOfStrings(library.cpuFeatures), libraryLines)};
    auto [sourceFiles, sourceContents] = debugInfo.serializeSourceTable();
    auto sourceDictionary = debugInfo.serializeSourceDictionary();
    std::vector<flatbuffers::Offset<flatbuffers::String>> stageNames =
        debugInfo.serializeStageNames();
    auto root = fb::CreateModule(
        builder, KILN_MODULE_VERSION, builder.CreateString(options.moduleName),
        builder.CreateVector(functions),
        builder.CreateVector(tables.getExecutables()),
        builder.CreateVector(libraries),
        builder.CreateVector(tables.getConstants()), options.debugLevel,
        builder.CreateVector(stageNames), sourceFiles, sourceContents,
        builder.CreateVectorOfStrings(debugInfo.getInputFiles()),
        sourceDictionary);
    builder.Finish(root, KILN_MODULE_IDENTIFIER);
    if (failed(tables.checkRoomFor(moduleOp.getLoc(), 0, "its tables")))
      return failure();
    os.write(reinterpret_cast<const char *>(builder.GetBufferPointer()),
             builder.GetSize());
    return success();
  }

private:
  ModuleOp moduleOp;
  const CPULibrary &library;
  const SerializeOptions &options;
  flatbuffers::FlatBufferBuilder builder;
  ModuleTables tables;
  DebugInfoWriter debugInfo;
};

} // namespace

LogicalResult serializeModule(ModuleOp moduleOp, const CPULibrary &library,
                              const SerializeOptions &options,
                              EmbeddedSources &sources, llvm::raw_ostream &os) {
  return ModuleSerializer(moduleOp, library, options, sources).serialize(os);
}

} // namespace mlir::kiln
