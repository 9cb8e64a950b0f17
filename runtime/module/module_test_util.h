//===- module_test_util.h - Building modules in tests --------------*- C++ -*-===//
//
// Tests describe a module with the schema's object API (fb::ModuleT and the
// helpers below), break one field, and serialize it with BuildModule.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
#define KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_

#include <elf.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "kiln/packed_rows.h"
#include "kiln/tensor_io.h"

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

/// A tensor type.
inline fb::TensorTypeT Type(fb::ElementType element_type,
                            std::vector<int64_t> shape) {
  fb::TensorTypeT type;
  type.element_type = element_type;
  type.shape = std::move(shape);
  return type;
}

/// Each of `values` in storage of its own, as the object API holds tables.
template <typename T>
std::vector<std::unique_ptr<T>> Owned(const std::vector<T>& values) {
  std::vector<std::unique_ptr<T>> owned;
  for (const T& value : values) owned.push_back(std::make_unique<T>(value));
  return owned;
}
template <typename T>
std::vector<std::unique_ptr<T>> Owned(std::initializer_list<T> values) {
  return Owned(std::vector<T>(values));
}

/// An op of the function body.
template <typename T>
fb::OpUnion Op(T op) {
  fb::OpUnion u;
  u.Set(std::move(op));
  return u;
}
/// An op of a kind this runtime does not know (no table).
inline fb::OpUnion UnknownOp(uint8_t kind) {
  fb::OpUnion u;
  u.type = static_cast<fb::Op>(kind);
  return u;
}

inline fb::OpUnion Constant(uint32_t result, uint32_t constant) {
  fb::ConstantOpT op;
  op.result = result;
  op.constant = constant;
  return Op(op);
}
inline fb::OpUnion Dispatch(uint32_t executable, uint32_t export_index,
                            std::vector<uint32_t> operands,
                            std::vector<uint32_t> results) {
  fb::DispatchOpT op;
  op.executable = executable;
  op.export_index = export_index;
  op.operands = std::move(operands);
  op.results = std::move(results);
  return Op(op);
}
/// A dispatch writing result i into buffer `buffers[i]`.
inline fb::OpUnion DispatchInto(uint32_t executable, uint32_t export_index,
                                std::vector<uint32_t> operands,
                                std::vector<uint32_t> results,
                                std::vector<uint32_t> buffers) {
  fb::OpUnion op = Dispatch(executable, export_index, std::move(operands),
                            std::move(results));
  op.AsDispatchOp()->result_buffers = std::move(buffers);
  return op;
}
inline fb::OpUnion Reshape(uint32_t result, uint32_t source) {
  fb::ReshapeOpT op;
  op.result = result;
  op.source = source;
  return Op(op);
}
inline fb::OpUnion Release(std::vector<uint32_t> slots) {
  fb::ReleaseOpT op;
  op.slots = std::move(slots);
  return Op(op);
}
inline fb::OpUnion Return(std::vector<uint32_t> operands) {
  fb::ReturnOpT op;
  op.operands = std::move(operands);
  return Op(op);
}
inline fb::OpUnion Branch(uint32_t target) {
  fb::BranchOpT op;
  op.target = target;
  return Op(op);
}
inline fb::OpUnion CondBranch(uint32_t condition, uint32_t true_target,
                              uint32_t false_target) {
  fb::CondBranchOpT op;
  op.condition = condition;
  op.true_target = true_target;
  op.false_target = false_target;
  return Op(op);
}
/// A check; an empty `location` is written empty (BuildModule), not absent.
inline fb::OpUnion Check(fb::CheckKind kind, uint32_t lhs, uint32_t rhs,
                         std::string location) {
  fb::CheckOpT op;
  op.kind = kind;
  op.lhs = lhs;
  op.rhs = rhs;
  op.location = std::move(location);
  return Op(op);
}
inline fb::OpUnion ExpectTrue(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::True, lhs, 0, std::move(location));
}
inline fb::OpUnion ExpectFalse(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::False, lhs, 0, std::move(location));
}
inline fb::OpUnion ExpectAllTrue(uint32_t lhs, std::string location = "") {
  return Check(fb::CheckKind::AllTrue, lhs, 0, std::move(location));
}
inline fb::OpUnion ExpectEq(uint32_t lhs, uint32_t rhs,
                            std::string location = "") {
  return Check(fb::CheckKind::Equal, lhs, rhs, std::move(location));
}
inline fb::OpUnion ExpectAlmostEq(uint32_t lhs, uint32_t rhs,
                                  std::string location = "",
                                  float atol = 0.0001f, float rtol = 0.0f) {
  fb::OpUnion op =
      Check(fb::CheckKind::AlmostEqual, lhs, rhs, std::move(location));
  op.AsCheckOp()->atol = atol;
  op.AsCheckOp()->rtol = rtol;
  return op;
}

inline std::unique_ptr<fb::FunctionT> Function(
    std::string name, const std::vector<fb::TensorTypeT>& slots,
    std::vector<uint32_t> arguments,
    const std::vector<fb::TensorTypeT>& results, std::vector<fb::OpUnion> body,
    std::vector<uint64_t> buffer_sizes = {}) {
  auto function = std::make_unique<fb::FunctionT>();
  function->name = std::move(name);
  function->slot_types = Owned(slots);
  function->arguments = std::move(arguments);
  function->result_types = Owned(results);
  function->body = std::move(body);
  function->buffer_sizes = std::move(buffer_sizes);
  return function;
}

inline std::unique_ptr<fb::SourceLocationT> Location(std::string file,
                                                     uint32_t line,
                                                     uint32_t column) {
  auto location = std::make_unique<fb::SourceLocationT>();
  location->file = std::move(file);
  location->line = line;
  location->column = column;
  return location;
}

inline fb::FusedOpT FusedOp(std::string name,
                            std::unique_ptr<fb::SourceLocationT> location) {
  fb::FusedOpT op;
  op.name = std::move(name);
  op.location = std::move(location);
  return op;
}

inline fb::StageLocationT StageLocation(uint32_t stage, uint32_t source,
                                        uint32_t line) {
  fb::StageLocationT location;
  location.stage = stage;
  location.source = source;
  location.line = line;
  return location;
}

inline fb::ExportT Export(std::string name, uint32_t library_ordinal,
                          uint32_t binding_count,
                          std::vector<uint32_t> workgroup_count = {1, 1, 1}) {
  fb::ExportT ex;
  ex.name = std::move(name);
  ex.library_ordinal = library_ordinal;
  ex.binding_count = binding_count;
  ex.workgroup_count = std::move(workgroup_count);
  return ex;
}

inline std::unique_ptr<fb::ExecutableT> Executable(
    std::string name, uint32_t library,
    const std::vector<fb::ExportT>& exports) {
  auto executable = std::make_unique<fb::ExecutableT>();
  executable->name = std::move(name);
  executable->library = library;
  executable->exports = Owned(exports);
  return executable;
}

/// An x86-64 library holding `data`; BuildModule stores its hash.
inline std::unique_ptr<fb::LibraryT> Library(std::vector<uint8_t> data) {
  auto library = std::make_unique<fb::LibraryT>();
  library->format = KILN_LIBRARY_FORMAT_ELF_X86_64;
  library->cpu = "x86-64";
  library->data = std::move(data);
  return library;
}

inline std::unique_ptr<fb::ConstantT> ConstantData(fb::TensorTypeT type,
                                                   std::vector<uint8_t> data) {
  auto constant = std::make_unique<fb::ConstantT>();
  constant->type = std::make_unique<fb::TensorTypeT>(std::move(type));
  constant->data = std::move(data);
  return constant;
}

/// A code variant named `name` without executables.
inline std::unique_ptr<fb::CodeVariantT> Variant(std::string name) {
  auto variant = std::make_unique<fb::CodeVariantT>();
  variant->name = std::move(name);
  return variant;
}

/// An empty module of the current version, compiled for one CPU: one code
/// variant, "cpu".
inline fb::ModuleT NewModule(std::string name = "test") {
  fb::ModuleT module;
  module.version = KILN_MODULE_VERSION;
  module.name = std::move(name);
  module.variants.push_back(Variant("cpu"));
  return module;
}

/// The executables of `module`'s first code variant (its only one when
/// compiled for one CPU).
inline std::vector<std::unique_ptr<fb::ExecutableT>>& Executables(
    fb::ModuleT& module) {
  return module.variants[0]->executables;
}

/// Lines of `text` as the compiler counts them ('\n'-terminated, plus a
/// last unterminated one).
inline uint32_t CountLines(std::string_view text) {
  uint32_t count = 0;
  for (char c : text) count += c == '\n';
  return count + (!text.empty() && text.back() != '\n');
}

/// XXH3-64, the source table's content hash.
inline uint64_t HashText(std::string_view text) {
  return XXH3_64bits(text.data(), text.size());
}

inline std::unique_ptr<fb::SourceContentT> Content(fb::Compression compression,
                                                   std::string_view text,
                                                   std::vector<uint8_t> data) {
  auto content = std::make_unique<fb::SourceContentT>();
  content->compression = compression;
  content->uncompressed_size = text.size();
  content->hash = HashText(text);
  content->data = std::move(data);
  content->line_count = CountLines(text);
  return content;
}

/// A content stored as is.
inline std::unique_ptr<fb::SourceContentT> NoneContent(std::string_view text) {
  return Content(fb::Compression::None, text,
                 std::vector<uint8_t>(text.begin(), text.end()));
}

/// A content stored as one zstd frame (which declares its content size).
inline std::unique_ptr<fb::SourceContentT> ZstdContent(std::string_view text,
                                                       int level = 3) {
  std::vector<uint8_t> data(ZSTD_compressBound(text.size()));
  const size_t size =
      ZSTD_compress(data.data(), data.size(), text.data(), text.size(), level);
  data.resize(ZSTD_isError(size) ? 0 : size);
  return Content(fb::Compression::Zstd, text, std::move(data));
}

/// `size` copies of `byte` as one zstd frame, compressed in pieces: neither
/// the test nor the module holds the text, so a module of a few KB can
/// declare a text of up to kMaxSourceSize bytes.
inline std::unique_ptr<fb::SourceContentT> RepeatedContent(char byte,
                                                           uint64_t size) {
  const std::string piece(1 << 20, byte);
  auto content = std::make_unique<fb::SourceContentT>();
  content->compression = fb::Compression::Zstd;
  content->uncompressed_size = size;
  content->line_count = static_cast<uint32_t>(byte == '\n' ? size : size != 0);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setPledgedSrcSize(cctx, size);  // the frame declares its size
  XXH3_state_t* hash = XXH3_createState();
  XXH3_64bits_reset(hash);
  std::vector<uint8_t> out(ZSTD_CStreamOutSize());
  uint64_t done = 0;
  do {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(piece.size(), size - done));
    XXH3_64bits_update(hash, piece.data(), n);
    done += n;
    const ZSTD_EndDirective mode = done == size ? ZSTD_e_end : ZSTD_e_continue;
    ZSTD_inBuffer in{piece.data(), n, 0};
    for (;;) {
      ZSTD_outBuffer chunk{out.data(), out.size(), 0};
      const size_t left = ZSTD_compressStream2(cctx, &chunk, &in, mode);
      EXPECT_FALSE(ZSTD_isError(left)) << ZSTD_getErrorName(left);
      content->data.insert(content->data.end(), out.data(),
                           out.data() + chunk.pos);
      if (ZSTD_isError(left) ||
          (mode == ZSTD_e_end ? left == 0 : in.pos == n)) {
        break;
      }
    }
  } while (done < size);
  content->hash = XXH3_64bits_digest(hash);
  XXH3_freeState(hash);
  ZSTD_freeCCtx(cctx);
  return content;
}

/// `rows` packed as the compiler stores a table (PackedRows): packed
/// column by column, one zstd frame.
inline std::unique_ptr<fb::PackedRowsT> PackRows(
    const std::vector<std::array<uint64_t, 4>>& rows,
    const std::array<packed_rows::Column, 4>& columns) {
  auto table = std::make_unique<fb::PackedRowsT>();
  table->count = static_cast<uint32_t>(rows.size());
  if (rows.empty()) return table;
  const std::string packed = packed_rows::Pack(rows, columns);
  table->packed_size = static_cast<uint32_t>(packed.size());
  table->data.resize(ZSTD_compressBound(packed.size()));
  table->data.resize(ZSTD_compress(table->data.data(), table->data.size(),
                                   packed.data(), packed.size(), 3));
  return table;
}

/// Line origin rows {line, previous_line, input_file, input_line}.
inline std::unique_ptr<fb::PackedRowsT> Origins(
    const std::vector<std::array<uint64_t, 4>>& rows) {
  return PackRows(rows, packed_rows::kLineOriginColumns);
}

/// Address -> line rows {offset, export_ordinal, source, line}.
inline std::unique_ptr<fb::PackedRowsT> LibraryLines(
    const std::vector<std::array<uint64_t, 4>>& rows) {
  return PackRows(rows, packed_rows::kLibraryLineColumns);
}

inline std::unique_ptr<fb::SourceFileT> SourceFile(
    std::string path, uint32_t content, uint32_t previous = KILN_NO_SOURCE,
    const std::vector<std::array<uint64_t, 4>>& origins = {}) {
  auto file = std::make_unique<fb::SourceFileT>();
  file->path = std::move(path);
  file->content = content;
  file->previous = previous;
  if (!origins.empty()) file->origins = Origins(origins);
  return file;
}

/// Replaces the source table of `module` with `files` (path -> text),
/// sorted by path, equal texts stored once, as the compiler writes it.
inline void SetSources(fb::ModuleT* module,
                       const std::map<std::string, std::string>& files,
                       fb::Compression compression = fb::Compression::Zstd) {
  module->source_files.clear();
  module->source_contents.clear();
  std::map<std::string, uint32_t> contents;
  for (const auto& [path, text] : files) {
    auto [it, inserted] = contents.try_emplace(
        text, static_cast<uint32_t>(module->source_contents.size()));
    if (inserted) {
      module->source_contents.push_back(compression == fb::Compression::Zstd
                                            ? ZstdContent(text)
                                            : NoneContent(text));
    }
    module->source_files.push_back(SourceFile(path, it->second));
  }
}

/// Compresses every text of `module` with `dictionary` (a raw-content zstd
/// dictionary: any bytes serve) and stores it as the module's dictionary,
/// as the compiler writes a module whose texts it trained one on.
inline void SetDictionary(fb::ModuleT* module, std::string_view dictionary,
                          std::vector<std::string> texts) {
  module->source_dictionary = ZstdContent(dictionary);
  module->source_dictionary->line_count = 0;
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  for (size_t i = 0; i < module->source_contents.size(); ++i) {
    fb::SourceContentT& content = *module->source_contents[i];
    const std::string& text = texts[i];
    content.compression = fb::Compression::ZstdDictionary;
    content.data.resize(ZSTD_compressBound(text.size()));
    content.data.resize(ZSTD_compress_usingDict(
        cctx, content.data.data(), content.data.size(), text.data(),
        text.size(), dictionary.data(), dictionary.size(), 3));
  }
  ZSTD_freeCCtx(cctx);
}

inline std::vector<uint8_t> ReadBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

/// Serializes `module` into a finished module buffer with file identifier
/// `identifier`. A library whose hash is 0 gets the right one.
inline std::vector<uint8_t> BuildModule(
    fb::ModuleT module, const char* identifier = fb::ModuleIdentifier()) {
  for (const auto& library : module.libraries) {
    if (library->hash == 0) {
      library->hash = XXH3_64bits(library->data.data(), library->data.size());
    }
  }
  // Pack cannot write these two; they are packed as placeholders and patched
  // in the finished buffer: a check's empty location (Pack omits empty
  // strings, but the compiler writes it: absent is invalid) as "\0", and an
  // op of unknown kind (Pack writes no table) as an empty ReleaseOp.
  std::vector<std::pair<size_t, size_t>> empty_locations;
  std::vector<std::tuple<size_t, size_t, fb::Op>> unknown_ops;
  for (size_t f = 0; f < module.functions.size(); ++f) {
    std::vector<fb::OpUnion>& body = module.functions[f]->body;
    for (size_t i = 0; i < body.size(); ++i) {
      if (fb::CheckOpT* check = body[i].AsCheckOp()) {
        if (!check->location.empty()) continue;
        check->location.assign(1, '\0');
        empty_locations.emplace_back(f, i);
      } else if (body[i].value == nullptr) {
        unknown_ops.emplace_back(f, i, body[i].type);
        body[i].Set(fb::ReleaseOpT());
      }
    }
  }
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Module::Pack(fbb, &module), identifier);
  const fb::Module* root = fb::GetModule(fbb.GetBufferPointer());
  for (const auto& [f, i] : empty_locations) {
    const flatbuffers::String* location =
        root->functions()->Get(f)->body()->GetAs<fb::CheckOp>(i)->location();
    flatbuffers::WriteScalar<flatbuffers::uoffset_t>(
        const_cast<flatbuffers::String*>(location), 0);
  }
  for (const auto& [f, i, kind] : unknown_ops) {
    const_cast<flatbuffers::Vector<fb::Op>*>(
        root->functions()->Get(f)->body_type())
        ->Mutate(i, kind);
  }
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

/// Rewrites the first dynamic entry tagged `from` of an ELF image to `to`,
/// with value `value`; false when there is none.
inline bool RetagDynamicEntry(std::vector<uint8_t>* image, int64_t from,
                              int64_t to, uint64_t value) {
  Elf64_Ehdr header;
  std::memcpy(&header, image->data(), sizeof(header));
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, image->data() + header.e_phoff + i * sizeof(segment),
                sizeof(segment));
    if (segment.p_type != PT_DYNAMIC) continue;
    for (uint64_t at = segment.p_offset;
         at + sizeof(Elf64_Dyn) <= segment.p_offset + segment.p_filesz;
         at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry;
      std::memcpy(&entry, image->data() + at, sizeof(entry));
      if (entry.d_tag != from) continue;
      entry.d_tag = to;
      entry.d_un.d_val = value;
      std::memcpy(image->data() + at, &entry, sizeof(entry));
      return true;
    }
  }
  return false;
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

// The line origin rows DebugModuleSpec gives the stage text `file`.
inline std::vector<std::array<uint64_t, 4>> DebugOrigins(uint32_t file) {
  switch (file) {
    case kStage0File:
      return {{9, 0, 1, 2}, {10, 0, 0, 7}, {10, 0, 1, 2}};
    case kStage1File:
      return {{14, 9, 1, 2}, {15, 9, 1, 2}, {15, 10, 1, 2}};
    case kStage2File:
      return {
          {121, 14, 1, 2}, {121, 15, 1, 2}, {122, 15, 1, 2}, {130, 0, 0, 0}};
    default:
      return {};
  }
}

// add_f32 has a location, provenance and a line in every stage; fail has a
// location and a line in stage 0 only; workgroup_ids has no debug info.
//
// Cross-stage line maps (each stage text's previous is the stage before):
//   2.translated 121 <- 1.configured 14 and 15; 122 <- 15; 130 <- nothing
//   1.configured 14 <- 0.source 9; 15 <- 0.source 9 and 10
//   0.source 9 and 10 <- model.mlir 2; 0.source 10 also names input.mlir 7
//   input files: 0 input.mlir (not embedded), 1 model.mlir (embedded)
inline fb::ModuleT DebugModuleSpec(const std::string& library_path) {
  fb::ModuleT spec = NewModule("dbg");
  spec.debug_level = 3;
  spec.capture_stages = {"0.source", "1.configured", "2.translated"};
  spec.libraries.push_back(Library(ReadBinaryFile(library_path)));
  const fb::TensorTypeT v8 = Type(F32, {8});
  fb::ExportT add = Export("add_f32", 0, 3, {4, 1, 1});
  add.binding_types = Owned({v8, v8, v8});
  add.location = Location("model.mlir", 2, 8);
  add.provenance = Owned({FusedOp("linalg.add", Location("model.mlir", 2, 8)),
                          FusedOp("arith.addf", Location("model.mlir", 2, 3))});
  add.stage_locations =
      Owned({StageLocation(0, kStage0File, 4), StageLocation(1, kStage1File, 5),
             StageLocation(2, kStage2File, 120)});
  fb::ExportT fail = Export("fail", 1, 1, {1, 1, 1});
  fail.binding_types = Owned({v8});
  fail.location = Location("model.mlir", 3, 1);
  fail.stage_locations = Owned({StageLocation(0, kStage0File, 30)});
  fb::ExportT ids = Export("workgroup_ids", 2, 1, {4, 2, 3});
  Executables(spec).push_back(Executable("ex", 0, {add, fail, ids}));
  spec.functions.push_back(
      Function("main", {v8, v8, v8}, {0, 1}, {v8},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  SetSources(&spec, {{"dbg_ex_cpu.0.source.mlir", Stage0()},
                     {"dbg_ex_cpu.1.configured.mlir", Stage1()},
                     {"dbg_ex_cpu.2.translated.mlir", Stage2()},
                     {"model.mlir", Model()},
                     {"model.mlir.orig", Model()}});
  spec.source_contents[kStage1File] = NoneContent(Stage1());
  spec.input_files = {"input.mlir", "model.mlir"};
  spec.source_files[kStage0File]->origins = Origins(DebugOrigins(kStage0File));
  spec.source_files[kStage1File]->previous = kStage0File;
  spec.source_files[kStage1File]->origins = Origins(DebugOrigins(kStage1File));
  spec.source_files[kStage2File]->previous = kStage1File;
  spec.source_files[kStage2File]->origins = Origins(DebugOrigins(kStage2File));
  return spec;
}

/// Loads module `bytes` from memory (a copy), as a module file would be.
inline StatusOr<std::shared_ptr<const Module>> LoadBytes(
    const std::vector<uint8_t>& bytes, const ModuleLoadOptions& options = {}) {
  return Module::LoadFromMemory(bytes.data(), bytes.size(),
                                Module::MemoryMode::kCopy, options);
}

/// Loads `spec` from memory (a copy), as a module file would be.
inline StatusOr<std::shared_ptr<const Module>> LoadSpec(
    const fb::ModuleT& spec, const ModuleLoadOptions& options = {}) {
  return LoadBytes(BuildModule(spec), options);
}

/// The message with which loading module `bytes` fails; a test failure (and
/// "") when it loads.
inline std::string LoadError(const std::vector<uint8_t>& bytes) {
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(bytes);
  EXPECT_FALSE(module.ok()) << "module loaded unexpectedly";
  return module.ok() ? "" : module.status().message();
}

/// The message with which loading `spec` fails; a test failure (and "")
/// when it loads.
inline std::string LoadError(const fb::ModuleT& spec) {
  return LoadError(BuildModule(spec));
}

/// The message with which `spec` (which loads) fails to unpack the line
/// origins of `file`; a test failure (and "") when they unpack.
inline std::string OriginsError(const fb::ModuleT& spec, uint32_t file) {
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(BuildModule(spec));
  if (!module.ok()) return "load failed: " + module.status().message();
  const auto origins = (*module)->sources().origins(file);
  EXPECT_FALSE(origins.ok()) << "line origins unpacked unexpectedly";
  return origins.ok() ? "" : origins.status().message();
}

/// The message with which `spec` (which loads) fails to unpack its address
/// -> line tables; a test failure (and "") when they unpack.
inline std::string CodeLinesError(const fb::ModuleT& spec) {
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(BuildModule(spec));
  if (!module.ok()) return "load failed: " + module.status().message();
  const Status status = (*module)->UnpackCodeLines();
  EXPECT_FALSE(status.ok()) << "line rows unpacked unexpectedly";
  return status.ok() ? "" : status.message();
}

/// Calls `function` and returns its only result as text (FormatTensor), or
/// "error: " and the error.
inline std::string CallForText(Context& context, std::string_view function,
                               const std::vector<Tensor>& inputs) {
  std::vector<Tensor> outputs;
  Status status = context.Call(function, inputs, &outputs);
  if (!status.ok()) return "error: " + status.message();
  if (outputs.size() != 1) return "wrong result count";
  return FormatTensor(outputs[0]);
}

}  // namespace kiln::testing

#endif  // KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
