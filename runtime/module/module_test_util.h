//===- module_test_util.h - Building modules in tests --------------*- C++ -*-===//
//
// Plain structs mirroring schema/module.fbs, so tests can describe a module,
// break one field, and serialize it with FlatBufferBuilder.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
#define KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"

namespace kiln::testing {

struct TypeSpec {
  fb::ElementType element_type = fb::ElementType::F32;
  std::vector<int64_t> shape;
};

struct OpSpec {
  fb::Op kind = fb::Op::NONE;
  // ConstantOp: result, constant. ReshapeOp: result, source.
  // DispatchOp: executable, export_index.
  uint32_t a = 0, b = 0;
  // DispatchOp operands/results, ReleaseOp slots (operands), ReturnOp operands.
  std::vector<uint32_t> operands, results;
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
inline OpSpec Reshape(uint32_t result, uint32_t source) {
  return {fb::Op::ReshapeOp, result, source, {}, {}};
}
inline OpSpec Release(std::vector<uint32_t> slots) {
  return {fb::Op::ReleaseOp, 0, 0, std::move(slots), {}};
}
inline OpSpec Return(std::vector<uint32_t> operands) {
  return {fb::Op::ReturnOp, 0, 0, std::move(operands), {}};
}

struct FunctionSpec {
  std::string name;
  std::vector<TypeSpec> slots;
  std::vector<uint32_t> arguments;
  std::vector<TypeSpec> results;
  std::vector<OpSpec> body;
};

struct ExportSpec {
  std::string name;
  uint32_t library_ordinal = 0;
  uint32_t binding_count = 0;
  std::vector<uint32_t> workgroup_count = {1, 1, 1};
};

struct ExecutableSpec {
  std::string name;
  uint32_t library = 0;
  std::vector<ExportSpec> exports;
};

struct LibrarySpec {
  std::string format = KILN_LIBRARY_FORMAT_ELF_X86_64;
  std::string cpu = "x86-64";
  std::vector<uint8_t> data;
};

struct ConstantSpec {
  TypeSpec type;
  std::vector<uint8_t> data;
  bool force_align = true;  // as the schema's force_align: 64 demands
};

struct ModuleSpec {
  uint32_t version = KILN_MODULE_VERSION;
  std::string identifier = KILN_MODULE_IDENTIFIER;
  std::string name = "test";
  std::vector<FunctionSpec> functions;
  std::vector<ExecutableSpec> executables;
  std::vector<LibrarySpec> libraries;
  std::vector<ConstantSpec> constants;
};

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
          body.push_back(fb::CreateDispatchOpDirect(fbb, op.a, op.b,
                                                    &op.operands, &op.results)
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
        default:
          // Unknown kinds get an empty table, as a newer writer might emit.
          body.push_back(fb::CreateReleaseOp(fbb).Union());
          break;
      }
    }
    functions.push_back(fb::CreateFunctionDirect(
        fbb, f.name.c_str(), &slots, &f.arguments, &results, &body_types,
        &body));
  }
  std::vector<flatbuffers::Offset<fb::Executable>> executables;
  for (const ExecutableSpec& e : spec.executables) {
    std::vector<flatbuffers::Offset<fb::Export>> exports;
    for (const ExportSpec& x : e.exports) {
      exports.push_back(fb::CreateExportDirect(fbb, x.name.c_str(),
                                               x.library_ordinal,
                                               x.binding_count,
                                               &x.workgroup_count));
    }
    executables.push_back(
        fb::CreateExecutableDirect(fbb, e.name.c_str(), e.library, &exports));
  }
  std::vector<flatbuffers::Offset<fb::Library>> libraries;
  for (const LibrarySpec& l : spec.libraries) {
    fbb.ForceVectorAlignment(l.data.size(), sizeof(uint8_t), 16);
    auto data = fbb.CreateVector(l.data);
    libraries.push_back(fb::CreateLibrary(fbb, fbb.CreateString(l.format),
                                          fbb.CreateString(l.cpu), data));
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
  auto root = fb::CreateModuleDirect(fbb, spec.version, spec.name.c_str(),
                                     &functions, &executables, &libraries,
                                     &constants);
  fbb.Finish(root, spec.identifier.c_str());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace kiln::testing

#endif  // KILN_RUNTIME_MODULE_MODULE_TEST_UTIL_H_
