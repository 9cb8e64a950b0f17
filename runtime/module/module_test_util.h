//===- module_test_util.h - Building modules in tests --------------*- C++ -*-===//
//
// Plain structs mirroring schema/module.fbs, so tests can describe a module,
// break one field, and serialize it with FlatBufferBuilder.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
#define KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "gtest/gtest.h"
#include "kiln/module.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"

namespace kiln::testing {

/// The element types test modules use most, by their short names.
inline constexpr fb::ElementType F32 = fb::ElementType::F32;
inline constexpr fb::ElementType I32 = fb::ElementType::I32;
inline constexpr fb::ElementType I1 = fb::ElementType::I1;

/// The names in `dir`, sorted (without "." and "..").
inline std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct TypeSpec {
  fb::ElementType element_type = fb::ElementType::F32;
  std::vector<int64_t> shape;
};

struct OpSpec {
  fb::Op kind = fb::Op::NONE;
  // ConstantOp: result, constant. ReshapeOp: result, source.
  // DispatchOp: executable, export_index. BranchOp: target.
  // CondBranchOp: condition, true_target (false_target in c).
  // CheckOp: lhs, rhs.
  uint32_t a = 0, b = 0;
  // DispatchOp operands/results, ReleaseOp slots (operands), ReturnOp operands.
  std::vector<uint32_t> operands, results;
  // CondBranchOp: false_target.
  uint32_t c = 0;
  // CheckOp fields; location nullopt: no location string at all.
  fb::CheckKind check_kind = fb::CheckKind::True;
  float atol = 0.0001f, rtol = 0.0f;
  std::optional<std::string> location = std::string();
  // DispatchOp: the buffer of each result (KILN_NEW_BUFFER: new storage);
  // nullopt: not written (every result in new storage).
  std::optional<std::vector<uint32_t>> result_buffers = std::nullopt;
};

inline OpSpec Constant(uint32_t result, uint32_t constant) {
  return {fb::Op::ConstantOp, result, constant, {}, {}};
}
inline OpSpec Dispatch(uint32_t executable, uint32_t export_index,
                       std::vector<uint32_t> operands,
                       std::vector<uint32_t> results) {
  return {fb::Op::DispatchOp, executable, export_index, std::move(operands),
          std::move(results)};
}
/// A dispatch writing result i into buffer `buffers[i]`.
inline OpSpec DispatchInto(uint32_t executable, uint32_t export_index,
                           std::vector<uint32_t> operands,
                           std::vector<uint32_t> results,
                           std::vector<uint32_t> buffers) {
  OpSpec op = Dispatch(executable, export_index, std::move(operands),
                       std::move(results));
  op.result_buffers = std::move(buffers);
  return op;
}
inline OpSpec Reshape(uint32_t result, uint32_t source) {
  return {fb::Op::ReshapeOp, result, source, {}, {}};
}
inline OpSpec Release(std::vector<uint32_t> slots) {
  return {fb::Op::ReleaseOp, 0, 0, std::move(slots), {}};
}
inline OpSpec Return(std::vector<uint32_t> operands) {
  return {fb::Op::ReturnOp, 0, 0, std::move(operands), {}};
}
inline OpSpec Branch(uint32_t target) {
  return {fb::Op::BranchOp, target, 0, {}, {}};
}
inline OpSpec CondBranch(uint32_t condition, uint32_t true_target,
                         uint32_t false_target) {
  OpSpec op{fb::Op::CondBranchOp, condition, true_target, {}, {}};
  op.c = false_target;
  return op;
}
inline OpSpec Check(fb::CheckKind kind, uint32_t lhs, uint32_t rhs,
                    std::string location) {
  OpSpec op{fb::Op::CheckOp, lhs, rhs, {}, {}};
  op.check_kind = kind;
  op.location = std::move(location);
  return op;
}
inline OpSpec ExpectTrue(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::True, lhs, 0, std::move(location));
}
inline OpSpec ExpectFalse(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::False, lhs, 0, std::move(location));
}
inline OpSpec ExpectAllTrue(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::AllTrue, lhs, 0, std::move(location));
}
inline OpSpec ExpectEq(uint32_t lhs, uint32_t rhs, std::string location = "") {
  return Check(fb::CheckKind::Equal, lhs, rhs, std::move(location));
}
inline OpSpec ExpectAlmostEq(uint32_t lhs, uint32_t rhs,
                             std::string location = "", float atol = 0.0001f,
                             float rtol = 0.0f) {
  OpSpec op = Check(fb::CheckKind::AlmostEqual, lhs, rhs, std::move(location));
  op.atol = atol;
  op.rtol = rtol;
  return op;
}

struct FunctionSpec {
  std::string name;
  std::vector<TypeSpec> slots;
  std::vector<uint32_t> arguments;
  std::vector<TypeSpec> results;
  std::vector<OpSpec> body;
  // Byte size of each buffer (none: not written).
  std::vector<uint64_t> buffer_sizes = {};
};

struct LocationSpec {
  std::optional<std::string> file;  // nullopt: no file string at all
  uint32_t line = 0, column = 0;
};

struct FusedOpSpec {
  std::optional<std::string> name;  // nullopt: no name string at all
  std::optional<LocationSpec> location;
};

struct StageLocationSpec {
  uint32_t stage = 0, source = 0, line = 0;
};

struct ExportSpec {
  ExportSpec() = default;
  ExportSpec(std::string name, uint32_t library_ordinal, uint32_t binding_count,
             std::vector<uint32_t> workgroup_count = {1, 1, 1})
      : name(std::move(name)),
        library_ordinal(library_ordinal),
        binding_count(binding_count),
        workgroup_count(std::move(workgroup_count)) {}

  std::string name;
  uint32_t library_ordinal = 0;
  uint32_t binding_count = 0;
  std::vector<uint32_t> workgroup_count = {1, 1, 1};
  // Debug information (empty: not written).
  std::vector<TypeSpec> binding_types;
  std::optional<LocationSpec> location;
  std::vector<FusedOpSpec> provenance;
  std::vector<StageLocationSpec> stage_locations;
};

struct ExecutableSpec {
  std::string name;
  uint32_t library = 0;
  std::vector<ExportSpec> exports;
};

struct LibrarySpec {
  std::string format = KILN_LIBRARY_FORMAT_ELF_X86_64;
  std::string cpu = "x86-64";
  /// Instruction-set features the code may use (LLVM's names).
  std::vector<std::string> cpu_features;
  std::vector<uint8_t> data;
  /// Stored content hash; by default the right one.
  std::optional<uint64_t> hash;
  /// Address -> line rows (none: not written).
  std::vector<fb::LibraryLine> lines;
};

struct ConstantSpec {
  TypeSpec type;
  std::vector<uint8_t> data;
  bool force_align = true;  // as the schema's force_align: 64 demands
};

struct SourceContentSpec {
  fb::Compression compression = fb::Compression::None;
  uint64_t uncompressed_size = 0;
  uint64_t hash = 0;
  std::vector<uint8_t> data;
  uint32_t line_count = 0;
};

/// Lines of `text` as the compiler counts them ('\n'-terminated, plus a
/// last unterminated one).
inline uint32_t CountLines(std::string_view text) {
  uint32_t count = 0;
  for (char c : text) count += c == '\n';
  return count + (!text.empty() && text.back() != '\n');
}

struct SourceFileSpec {
  std::string path;
  uint32_t content = 0;
  uint32_t previous = KILN_NO_SOURCE;
  std::vector<fb::LineOrigin> origins;
};

struct ModuleSpec {
  uint32_t version = KILN_MODULE_VERSION;
  std::string identifier = KILN_MODULE_IDENTIFIER;
  std::string name = "test";
  std::vector<FunctionSpec> functions;
  std::vector<ExecutableSpec> executables;
  std::vector<LibrarySpec> libraries;
  std::vector<ConstantSpec> constants;
  uint32_t debug_level = 0;
  std::vector<std::string> capture_stages;
  // Written in this order (not sorted), so tests can break the order.
  std::vector<SourceFileSpec> source_files;
  std::vector<SourceContentSpec> source_contents;
  std::vector<std::string> input_files;
};

/// XXH3-64, the source table's content hash.
inline uint64_t HashText(std::string_view text) {
  return XXH3_64bits(text.data(), text.size());
}

/// A content stored as is.
inline SourceContentSpec NoneContent(std::string_view text) {
  return {fb::Compression::None, text.size(), HashText(text),
          std::vector<uint8_t>(text.begin(), text.end()), CountLines(text)};
}

/// A content stored as one zstd frame (which declares its content size).
inline SourceContentSpec ZstdContent(std::string_view text, int level = 3) {
  std::vector<uint8_t> data(ZSTD_compressBound(text.size()));
  const size_t size =
      ZSTD_compress(data.data(), data.size(), text.data(), text.size(), level);
  data.resize(ZSTD_isError(size) ? 0 : size);
  return {fb::Compression::Zstd, text.size(), HashText(text), std::move(data),
          CountLines(text)};
}

/// Replaces the source table of `spec` with `files` (path -> text), sorted
/// by path, equal texts stored once, as the compiler writes it.
inline void SetSources(ModuleSpec* spec,
                       const std::map<std::string, std::string>& files,
                       fb::Compression compression = fb::Compression::Zstd) {
  spec->source_files.clear();
  spec->source_contents.clear();
  std::map<std::string, uint32_t> contents;
  for (const auto& [path, text] : files) {
    auto [it, inserted] = contents.try_emplace(
        text, static_cast<uint32_t>(spec->source_contents.size()));
    if (inserted) {
      spec->source_contents.push_back(compression == fb::Compression::Zstd
                                          ? ZstdContent(text)
                                          : NoneContent(text));
    }
    spec->source_files.push_back({path, it->second, KILN_NO_SOURCE, {}});
  }
}

inline std::vector<uint8_t> ReadBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

inline flatbuffers::Offset<fb::TensorType> BuildType(
    flatbuffers::FlatBufferBuilder& fbb, const TypeSpec& type) {
  return fb::CreateTensorTypeDirect(fbb, type.element_type, &type.shape);
}

inline std::vector<flatbuffers::Offset<fb::TensorType>> BuildTypes(
    flatbuffers::FlatBufferBuilder& fbb, const std::vector<TypeSpec>& types) {
  std::vector<flatbuffers::Offset<fb::TensorType>> out;
  for (const TypeSpec& type : types) out.push_back(BuildType(fbb, type));
  return out;
}

/// Serializes `spec` into a finished module buffer.
inline std::vector<uint8_t> BuildModule(const ModuleSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Function>> functions;
  for (const FunctionSpec& f : spec.functions) {
    auto slots = BuildTypes(fbb, f.slots);
    auto results = BuildTypes(fbb, f.results);
    std::vector<fb::Op> body_types;
    std::vector<flatbuffers::Offset<void>> body;
    for (const OpSpec& op : f.body) {
      body_types.push_back(op.kind);
      switch (op.kind) {
        case fb::Op::ConstantOp:
          body.push_back(fb::CreateConstantOp(fbb, op.a, op.b).Union());
          break;
        case fb::Op::DispatchOp:
          body.push_back(fb::CreateDispatchOpDirect(
                             fbb, op.a, op.b, &op.operands, &op.results,
                             op.result_buffers ? &*op.result_buffers : nullptr)
                             .Union());
          break;
        case fb::Op::ReshapeOp:
          body.push_back(fb::CreateReshapeOp(fbb, op.a, op.b).Union());
          break;
        case fb::Op::ReleaseOp:
          body.push_back(fb::CreateReleaseOpDirect(fbb, &op.operands).Union());
          break;
        case fb::Op::ReturnOp:
          body.push_back(fb::CreateReturnOpDirect(fbb, &op.operands).Union());
          break;
        case fb::Op::BranchOp:
          body.push_back(fb::CreateBranchOp(fbb, op.a).Union());
          break;
        case fb::Op::CondBranchOp:
          body.push_back(fb::CreateCondBranchOp(fbb, op.a, op.b, op.c).Union());
          break;
        case fb::Op::CheckOp:
          body.push_back(fb::CreateCheckOpDirect(
                             fbb, op.check_kind, op.a, op.b, op.atol, op.rtol,
                             op.location ? op.location->c_str() : nullptr)
                             .Union());
          break;
        default:
          // Unknown kinds get an empty table, as a newer writer might emit.
          body.push_back(fb::CreateReleaseOp(fbb).Union());
          break;
      }
    }
    functions.push_back(fb::CreateFunctionDirect(
        fbb, f.name.c_str(), &slots, &f.arguments, &results, &body_types, &body,
        f.buffer_sizes.empty() ? nullptr : &f.buffer_sizes));
  }
  auto build_location = [&](const std::optional<LocationSpec>& location) {
    if (!location) return flatbuffers::Offset<fb::SourceLocation>();
    auto file = location->file ? fbb.CreateString(*location->file)
                               : flatbuffers::Offset<flatbuffers::String>();
    return fb::CreateSourceLocation(fbb, file, location->line,
                                    location->column);
  };
  std::vector<flatbuffers::Offset<fb::Executable>> executables;
  for (const ExecutableSpec& e : spec.executables) {
    std::vector<flatbuffers::Offset<fb::Export>> exports;
    for (const ExportSpec& x : e.exports) {
      auto binding_types = BuildTypes(fbb, x.binding_types);
      std::vector<flatbuffers::Offset<fb::FusedOp>> provenance;
      for (const FusedOpSpec& op : x.provenance) {
        auto name = op.name ? fbb.CreateString(*op.name)
                            : flatbuffers::Offset<flatbuffers::String>();
        provenance.push_back(
            fb::CreateFusedOp(fbb, name, build_location(op.location)));
      }
      std::vector<flatbuffers::Offset<fb::StageLocation>> stage_locations;
      for (const StageLocationSpec& l : x.stage_locations) {
        stage_locations.push_back(
            fb::CreateStageLocation(fbb, l.stage, l.source, l.line));
      }
      exports.push_back(fb::CreateExport(
          fbb, fbb.CreateString(x.name), x.library_ordinal, x.binding_count,
          fbb.CreateVector(x.workgroup_count),
          x.binding_types.empty() ? 0 : fbb.CreateVector(binding_types),
          build_location(x.location),
          x.provenance.empty() ? 0 : fbb.CreateVector(provenance),
          x.stage_locations.empty() ? 0 : fbb.CreateVector(stage_locations)));
    }
    executables.push_back(
        fb::CreateExecutableDirect(fbb, e.name.c_str(), e.library, &exports));
  }
  std::vector<flatbuffers::Offset<fb::Library>> libraries;
  for (const LibrarySpec& l : spec.libraries) {
    fbb.ForceVectorAlignment(l.data.size(), sizeof(uint8_t), 16);
    auto data = fbb.CreateVector(l.data);
    libraries.push_back(fb::CreateLibrary(
        fbb, fbb.CreateString(l.format), fbb.CreateString(l.cpu), data,
        l.hash ? *l.hash : XXH3_64bits(l.data.data(), l.data.size()),
        l.cpu_features.empty() ? 0 : fbb.CreateVectorOfStrings(l.cpu_features),
        l.lines.empty() ? 0 : fbb.CreateVectorOfStructs(l.lines)));
  }
  std::vector<flatbuffers::Offset<fb::Constant>> constants;
  for (const ConstantSpec& c : spec.constants) {
    auto type = BuildType(fbb, c.type);
    if (c.force_align) {
      fbb.ForceVectorAlignment(c.data.size(), sizeof(uint8_t), 64);
    }
    auto data = fbb.CreateVector(c.data);
    constants.push_back(fb::CreateConstant(fbb, type, data));
  }
  std::vector<flatbuffers::Offset<flatbuffers::String>> stages;
  for (const std::string& stage : spec.capture_stages) {
    stages.push_back(fbb.CreateString(stage));
  }
  // Built by hand: CreateModuleDirect would sort the files.
  std::vector<flatbuffers::Offset<fb::SourceFile>> files;
  for (const SourceFileSpec& f : spec.source_files) {
    files.push_back(fb::CreateSourceFile(
        fbb, fbb.CreateString(f.path), f.content, f.previous,
        f.origins.empty() ? 0 : fbb.CreateVectorOfStructs(f.origins)));
  }
  std::vector<flatbuffers::Offset<fb::SourceContent>> contents;
  for (const SourceContentSpec& c : spec.source_contents) {
    contents.push_back(
        fb::CreateSourceContent(fbb, c.compression, c.uncompressed_size, c.hash,
                                fbb.CreateVector(c.data), c.line_count));
  }
  auto root = fb::CreateModule(
      fbb, spec.version, fbb.CreateString(spec.name),
      fbb.CreateVector(functions), fbb.CreateVector(executables),
      fbb.CreateVector(libraries), fbb.CreateVector(constants),
      spec.debug_level, stages.empty() ? 0 : fbb.CreateVector(stages),
      files.empty() ? 0 : fbb.CreateVector(files),
      contents.empty() ? 0 : fbb.CreateVector(contents),
      spec.input_files.empty() ? 0
                               : fbb.CreateVectorOfStrings(spec.input_files));
  fbb.Finish(root, spec.identifier.c_str());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

//===----------------------------------------------------------------------===//
// A module with debug information: one executable "ex" (test library 1)
// whose exports have locations, provenance and lines in three stage texts
//===----------------------------------------------------------------------===//

inline std::string Lines(std::string_view prefix, int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) {
    text += std::string(prefix) + " line " + std::to_string(i) + ": %" +
            std::to_string(i) + " = arith.addf %a, %b : f32\n";
  }
  return text;
}

inline const std::string& Stage0() {
  static const std::string text = Lines("source", 40);
  return text;
}
inline const std::string& Stage1() {
  static const std::string text = Lines("configured", 50);
  return text;
}
inline const std::string& Stage2() {
  static const std::string text = Lines("translated", 300);
  return text;
}
inline const std::string& Model() {
  static const std::string text =
      "func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) {\n"
      "  %0 = linalg.add ins(%a, %b) outs(%e)\n"
      "}\n";
  return text;
}

// Source table, in path order:
//   0 dbg_ex_cpu.0.source.mlir        (zstd)
//   1 dbg_ex_cpu.1.configured.mlir    (stored as is)
//   2 dbg_ex_cpu.2.translated.mlir    (zstd)
//   3 model.mlir                      (zstd, content shared with 4)
//   4 model.mlir.orig
inline constexpr uint32_t kStage0File = 0, kStage1File = 1, kStage2File = 2,
                          kModelFile = 3, kModelCopyFile = 4;

// add_f32 has a location, provenance and a line in every stage; fail has a
// location and a line in stage 0 only; workgroup_ids has no debug info.
//
// Cross-stage line maps (each stage text's previous is the stage before):
//   2.translated 121 <- 1.configured 14 and 15; 122 <- 15; 130 <- nothing
//   1.configured 14 <- 0.source 9; 15 <- 0.source 9 and 10
//   0.source 9 and 10 <- model.mlir 2; 0.source 10 also names input.mlir 7
//   input files: 0 input.mlir (not embedded), 1 model.mlir (embedded)
inline ModuleSpec DebugModuleSpec(const std::string& library_path) {
  ModuleSpec spec;
  spec.name = "dbg";
  spec.debug_level = 3;
  spec.capture_stages = {"0.source", "1.configured", "2.translated"};
  spec.libraries.push_back({});
  spec.libraries[0].data = ReadBinaryFile(library_path);
  TypeSpec v8{fb::ElementType::F32, {8}};
  ExportSpec add{"add_f32", 0, 3, {4, 1, 1}};
  add.binding_types = {v8, v8, v8};
  add.location = LocationSpec{"model.mlir", 2, 8};
  add.provenance = {{"linalg.add", LocationSpec{"model.mlir", 2, 8}},
                    {"arith.addf", LocationSpec{"model.mlir", 2, 3}}};
  add.stage_locations = {
      {0, kStage0File, 4}, {1, kStage1File, 5}, {2, kStage2File, 120}};
  ExportSpec fail{"fail", 1, 1, {1, 1, 1}};
  fail.binding_types = {v8};
  fail.location = LocationSpec{"model.mlir", 3, 1};
  fail.stage_locations = {{0, kStage0File, 30}};
  ExportSpec ids{"workgroup_ids", 2, 1, {4, 2, 3}};
  spec.executables.push_back({"ex", 0, {add, fail, ids}});
  spec.functions.push_back({"main",
                            {v8, v8, v8},
                            {0, 1},
                            {v8},
                            {Dispatch(0, 0, {0, 1}, {2}), Return({2})}});
  SetSources(&spec, {{"dbg_ex_cpu.0.source.mlir", Stage0()},
                     {"dbg_ex_cpu.1.configured.mlir", Stage1()},
                     {"dbg_ex_cpu.2.translated.mlir", Stage2()},
                     {"model.mlir", Model()},
                     {"model.mlir.orig", Model()}});
  spec.source_contents[kStage1File] = NoneContent(Stage1());
  spec.input_files = {"input.mlir", "model.mlir"};
  spec.source_files[kStage0File].origins = {
      {9, 0, 1, 2}, {10, 0, 0, 7}, {10, 0, 1, 2}};
  spec.source_files[kStage1File].previous = kStage0File;
  spec.source_files[kStage1File].origins = {
      {14, 9, 1, 2}, {15, 9, 1, 2}, {15, 10, 1, 2}};
  spec.source_files[kStage2File].previous = kStage1File;
  spec.source_files[kStage2File].origins = {
      {121, 14, 1, 2}, {121, 15, 1, 2}, {122, 15, 1, 2}, {130, 0, 0, 0}};
  return spec;
}

/// Loads `spec` from memory (a copy), as a module file would be.
inline StatusOr<std::shared_ptr<const Module>> LoadSpec(
    const ModuleSpec& spec, const ModuleLoadOptions& options = {}) {
  std::vector<uint8_t> bytes = BuildModule(spec);
  return Module::LoadFromMemory(bytes.data(), bytes.size(),
                                Module::MemoryMode::kCopy, options);
}

/// The message with which loading `spec` fails; a test failure (and "")
/// when it loads.
inline std::string LoadError(const ModuleSpec& spec) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  EXPECT_FALSE(module.ok()) << "module loaded unexpectedly";
  return module.ok() ? "" : module.status().message();
}

}  // namespace kiln::testing

#endif  // KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
