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
  ModuleSerializer(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries,
                   const SerializeOptions &options, EmbeddedSources &sources)
      : moduleOp(moduleOp), libraries(libraries), options(options),
        builder(estimateModuleBytes(moduleOp, libraries)), tables(builder),
        debugInfo(moduleOp, libraries, options.debugLevel,
                  options.captureStages, sources, builder) {}

  LogicalResult serialize(llvm::raw_ostream &os) {
    if (failed(tables.indexExecutables(moduleOp, libraries, debugInfo)))
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
    // Variants without executables have no code to hold.
    std::vector<flatbuffers::Offset<fb::Library>> libraryTables;
    for (const CPULibrary &library : libraries) {
      if (moduleOp.getOps<ExecutableOp>().empty())
        break;
      FailureOr<flatbuffers::Offset<fb::Library>> table =
          serializeLibrary(library);
      if (failed(table))
        return failure();
      libraryTables.push_back(*table);
    }
    auto [sourceFiles, sourceContents] = debugInfo.serializeSourceTable();
    auto sourceDictionary = debugInfo.serializeSourceDictionary();
    std::vector<flatbuffers::Offset<flatbuffers::String>> stageNames =
        debugInfo.serializeStageNames();
    auto root = fb::CreateModule(
        builder, KILN_MODULE_VERSION, builder.CreateString(options.moduleName),
        builder.CreateVector(functions), builder.CreateVector(libraryTables),
        builder.CreateVector(tables.getConstants()), options.debugLevel,
        builder.CreateVector(stageNames), sourceFiles, sourceContents,
        builder.CreateVectorOfStrings(debugInfo.getInputFiles()),
        sourceDictionary, builder.CreateVector(tables.getVariants()));
    builder.Finish(root, KILN_MODULE_IDENTIFIER);
    if (failed(tables.checkRoomFor(moduleOp.getLoc(), 0, "its tables")))
      return failure();
    os.write(reinterpret_cast<const char *>(builder.GetBufferPointer()),
             builder.GetSize());
    return success();
  }

private:
  FailureOr<flatbuffers::Offset<fb::Library>>
  serializeLibrary(const CPULibrary &library) {
    if (failed(tables.checkRoomFor(moduleOp.getLoc(), library.bytes.size(),
                                   "its code library")))
      return failure();
    auto data = builder.CreateVector(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size());
    const uint64_t hash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size()));
    auto lines = debugInfo.serializeLibraryLines(library);
    return fb::CreateLibrary(
        builder, builder.CreateString(KILN_LIBRARY_FORMAT_ELF_X86_64),
        builder.CreateString(library.cpu), data, hash,
        builder.CreateVectorOfStrings(library.cpuFeatures), lines);
  }

  ModuleOp moduleOp;
  ArrayRef<CPULibrary> libraries;
  const SerializeOptions &options;
  flatbuffers::FlatBufferBuilder builder;
  ModuleTables tables;
  DebugInfoWriter debugInfo;
};

} // namespace

LogicalResult serializeModule(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries,
                              const SerializeOptions &options,
                              EmbeddedSources &sources, llvm::raw_ostream &os) {
  return ModuleSerializer(moduleOp, libraries, options, sources).serialize(os);
}

} // namespace mlir::kiln
