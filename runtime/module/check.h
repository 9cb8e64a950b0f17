//===- check.h - Evaluating check instructions ---------------------*- C++ -*-===//
//
// The semantics of CheckOp (IREE's check.expect_*) and the messages that
// explain a failure. Internal to the runtime; the Context records failures.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_CHECK_H_
#define KILN_RUNTIME_MODULE_CHECK_H_

#include <cstdint>
#include <string>

#include "kiln/context.h"
#include "kiln/tensor.h"

namespace kiln {

/// Elements of a tensor a failure message prints before "...".
inline constexpr int64_t kCheckPrintedElements = 32;

/// Evaluates one check. The operands must have the types the verifier
/// demands of `kind` (`rhs` is unused by kTrue, kFalse and kAllTrue; `atol`
/// and `rtol` only by kAlmostEqual). Returns true when the check holds;
/// otherwise sets `*message` to what was expected and what was got (see
/// CheckFailure::message).
bool EvaluateCheck(CheckKind kind, const Tensor& lhs, const Tensor& rhs,
                   float atol, float rtol, std::string* message);

/// The multi-index of row-major element `linear` of `shape`: "[1, 0]" ("[]"
/// for a 0-d shape).
std::string FormatIndex(const Shape& shape, int64_t linear);

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_CHECK_H_
