//===- function_call.h - Calling a module's function from a tool --*- C++ -*-===//
//
// What kiln-run and kiln-benchmark share around Context::Call: choosing the
// function (--function), parsing its inputs (--input) or an export's
// bindings (--binding), and reporting the checks that failed.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_FUNCTION_CALL_H_
#define KILN_TOOLS_SUPPORT_FUNCTION_CALL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/check.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln::tools {

/// The function to run: `name` (--function) when given, else the module's
/// only function. With several and no name, the error lists them.
StatusOr<size_t> SelectFunction(const Module& module,
                                std::optional<std::string_view> name);

/// Parses each of `values` as a tensor (kiln/tensor_io.h: "2x3xf32=1,2,...",
/// "@file.npy", "2x3xf32" for zeros); errors name "<what> <index>". A
/// .npy file of bits is read as the type `expected` gives at its index,
/// where NumPy lacks that type (bf16, fp8, f4E2M1FN).
Status ParseTensors(const std::vector<std::string>& values,
                    std::string_view what,
                    const std::vector<ElementType>& expected,
                    std::vector<Tensor>* tensors);

/// Parses `values` as the inputs of `signature` (--input), in argument
/// order or each as NAME=VALUE for an argument the model names: their types,
/// read first without their values, must be the signature's, so that a
/// wrong or huge shape is an error before anything is allocated. An
/// argument of a type NumPy lacks takes a .npy file of its bits.
Status ParseInputs(const std::vector<std::string>& values,
                   const FunctionSignature& signature,
                   std::vector<Tensor>* inputs);

/// Parses `values` as the bindings of export `ex` (kiln-run --dispatch
/// --binding): their count and types, read first without their values,
/// must be the export's, as Context::Dispatch checks them, so that a wrong
/// or huge shape is an error before anything is allocated.
Status ParseBindings(const std::vector<std::string>& values,
                     const ExportView& ex, std::vector<Tensor>* bindings);

/// Prints each check failure `checks` recorded to stderr as
/// "<tool>: check failed at LOCATION: MESSAGE" (escaped: the location comes
/// from the module), then how many more failed than it kept.
void PrintCheckFailures(std::string_view tool, const CheckRecorder& checks);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_FUNCTION_CALL_H_
