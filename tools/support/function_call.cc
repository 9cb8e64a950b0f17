//===- function_call.cc - Calling a module's function from a tool ---------===//

#include "support/function_call.h"

#include <cstdio>
#include <utility>

#include "kiln/context.h"
#include "kiln/printable.h"
#include "kiln/tensor_io.h"

namespace kiln::tools {

namespace {

/// How value `i` reads a .npy file: as the bits of its expected type where
/// NumPy lacks it (bf16, fp8, f4E2M1FN).
NpyReadOptions ReadOptions(const std::vector<ElementType>& expected, size_t i) {
  NpyReadOptions options;
  if (i < expected.size()) options.bits_of = expected[i];
  return options;
}

}  // namespace

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
      "the module has several functions; choose one with --function (", names,
      ")");
}

Status ParseTensors(const std::vector<std::string>& values,
                    std::string_view what,
                    const std::vector<ElementType>& expected,
                    std::vector<Tensor>* tensors) {
  tensors->reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    StatusOr<Tensor> parsed = ParseTensor(values[i], ReadOptions(expected, i));
    if (!parsed.ok()) {
      return std::move(parsed).status().Prepend(StrCat(what, " ", i));
    }
    tensors->push_back(std::move(parsed).value());
  }
  return OkStatus();
}

namespace {

// The argument `value` names ("NAME=VALUE", NAME an argument's name), if it
// names one.
std::optional<size_t> NamedArgument(const FunctionSignature& signature,
                                    std::string_view value) {
  const size_t equals = value.find('=');
  if (equals == std::string_view::npos) return std::nullopt;
  return signature.FindArgument(value.substr(0, equals));
}

// `values` in argument order: named ones ("NAME=VALUE") placed at their
// argument, positional ones kept in order. Either every value names its
// argument or none does.
StatusOr<std::vector<std::string>> OrderInputs(
    const std::vector<std::string>& values,
    const FunctionSignature& signature) {
  size_t named = 0;
  for (const std::string& value : values) {
    named += NamedArgument(signature, value).has_value();
  }
  if (named == 0) return values;
  if (named != values.size()) {
    return InvalidArgumentError(
        "either every --input names its argument (NAME=VALUE) or none does; ",
        signature.ToString());
  }
  std::vector<std::string> ordered(signature.arguments.size());
  std::vector<bool> given(signature.arguments.size(), false);
  for (const std::string& value : values) {
    const size_t index = *NamedArgument(signature, value);
    if (given[index]) {
      return InvalidArgumentError("input '",
                                  Printable(signature.argument_names[index]),
                                  "' given twice");
    }
    given[index] = true;
    ordered[index] = value.substr(value.find('=') + 1);
  }
  for (size_t i = 0; i < given.size(); ++i) {
    if (!given[i]) {
      return InvalidArgumentError("no --input for '",
                                  Printable(signature.argument_names[i]),
                                  "'; ", signature.ToString());
    }
  }
  return ordered;
}

}  // namespace

Status ParseInputs(const std::vector<std::string>& given,
                   const FunctionSignature& signature,
                   std::vector<Tensor>* inputs) {
  StatusOr<std::vector<std::string>> ordered = OrderInputs(given, signature);
  if (!ordered.ok()) return std::move(ordered).status();
  const std::vector<std::string>& values = *ordered;
  std::vector<ElementType> expected;
  for (const TensorType& type : signature.arguments) {
    expected.push_back(type.element_type);
  }
  std::vector<TensorType> types;
  types.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    StatusOr<TensorType> type =
        ParseTensorValueType(values[i], ReadOptions(expected, i));
    if (!type.ok())
      return std::move(type).status().Prepend(StrCat("input ", i));
    types.push_back(std::move(type).value());
  }
  KILN_RETURN_IF_ERROR(CheckInputTypes(signature, types));
  return ParseTensors(values, "input", expected, inputs);
}

Status ParseBindings(const std::vector<std::string>& values,
                     const ExportView& ex, std::vector<Tensor>* bindings) {
  const std::string context = StrCat("dispatch '", Printable(ex.name()), "'");
  if (values.size() != ex.binding_count()) {
    return InvalidArgumentError(context, ": expected ", ex.binding_count(),
                                " bindings, got ", values.size());
  }
  std::vector<ElementType> expected;
  if (ex.has_binding_types()) {
    for (size_t i = 0; i < values.size(); ++i) {
      expected.push_back(
          ex.binding_type(static_cast<uint32_t>(i)).element_type);
    }
    for (size_t i = 0; i < values.size(); ++i) {
      StatusOr<TensorType> type =
          ParseTensorValueType(values[i], ReadOptions(expected, i));
      if (!type.ok()) {
        return std::move(type).status().Prepend(StrCat("binding ", i));
      }
      const TensorTypeView expected_type =
          ex.binding_type(static_cast<uint32_t>(i));
      if (!expected_type.Admits(*type)) {
        return InvalidArgumentError(context, ": binding ", i, ": expected ",
                                    expected_type.ToString(), ", got ",
                                    type->ToString());
      }
    }
  }
  return ParseTensors(values, "binding", expected, bindings);
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
