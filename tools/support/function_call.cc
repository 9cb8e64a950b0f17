//===- function_call.cc - Calling a module's function from a tool ---------===//

#include "support/function_call.h"

#include <cstdio>
#include <utility>

#include "kiln/context.h"
#include "kiln/printable.h"
#include "kiln/tensor_io.h"

namespace kiln::tools {

StatusOr<size_t> SelectFunction(const Module& module,
                                std::optional<std::string_view> name) {
  if (name) return module.FindFunction(*name);
  const auto& functions = module.functions();
  if (functions.size() == 1) return size_t{0};
  if (functions.empty()) return NotFoundError("the module has no functions");
  std::string names;
  for (const auto& function : functions) {
    names.append(names.empty() ? "" : ", ").append(function.name);
  }
  return InvalidArgumentError(
      "the module has several functions; choose one with --function (",
      names, ")");
}

Status ParseTensors(const std::vector<std::string>& values,
                    std::string_view what, std::vector<Tensor>* tensors) {
  tensors->reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    StatusOr<Tensor> parsed = ParseTensor(values[i]);
    if (!parsed.ok()) {
      return std::move(parsed).status().Prepend(StrCat(what, " ", i));
    }
    tensors->push_back(std::move(parsed).value());
  }
  return OkStatus();
}

Status ParseInputs(const std::vector<std::string>& values,
                   const FunctionSignature& signature,
                   std::vector<Tensor>* inputs) {
  std::vector<TensorType> types;
  types.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    StatusOr<TensorType> type = ParseTensorValueType(values[i]);
    if (!type.ok()) return std::move(type).status().Prepend(StrCat("input ", i));
    types.push_back(std::move(type).value());
  }
  KILN_RETURN_IF_ERROR(CheckInputTypes(signature, types));
  return ParseTensors(values, "input", inputs);
}

Status ParseBindings(const std::vector<std::string>& values,
                     const ExportView& ex, std::vector<Tensor>* bindings) {
  const std::string context = StrCat("dispatch '", Printable(ex.name()), "'");
  if (values.size() != ex.binding_count()) {
    return InvalidArgumentError(context, ": expected ", ex.binding_count(),
                                " bindings, got ", values.size());
  }
  if (ex.has_binding_types()) {
    for (size_t i = 0; i < values.size(); ++i) {
      StatusOr<TensorType> type = ParseTensorValueType(values[i]);
      if (!type.ok()) {
        return std::move(type).status().Prepend(StrCat("binding ", i));
      }
      const TensorTypeView expected =
          ex.binding_type(static_cast<uint32_t>(i));
      if (expected != *type) {
        return InvalidArgumentError(context, ": binding ", i, ": expected ",
                                    expected.ToString(), ", got ",
                                    type->ToString());
      }
    }
  }
  return ParseTensors(values, "binding", bindings);
}

void PrintCheckFailures(std::string_view tool, const CheckRecorder& checks) {
  const std::string prefix(tool);
  for (const CheckFailure& failure : checks.failures()) {
    std::fprintf(stderr, "%s: %s\n", prefix.c_str(),
                 Printable(failure.ToString()).c_str());
  }
  const size_t hidden = checks.failure_count() - checks.failures().size();
  if (hidden != 0) {
    std::fprintf(stderr, "%s: %zu more check failures not shown\n",
                 prefix.c_str(), hidden);
  }
}

}  // namespace kiln::tools
