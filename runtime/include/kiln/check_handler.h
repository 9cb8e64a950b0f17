//===- check_handler.h - Where check instructions go ---------------*- C++ -*-===//
//
// A module compiled from a test program carries check instructions (IREE's
// check.expect_*). The core runtime verifies them with the rest of the
// module but gives them no meaning: a Context hands each check it reaches
// to the CheckHandler set on it, as IREE's VM calls its check module's
// imports. kiln_check provides one (kiln/check.h) that evaluates checks and
// records failures; the deployed runtime does not link it. Calling a
// function that has checks on a Context without a handler is an error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CHECK_HANDLER_H_
#define KILN_CHECK_HANDLER_H_

#include <cstdint>
#include <string_view>

#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

/// What a check asserts; the values equal those of kiln::fb::CheckKind in
/// schema/module.fbs.
enum class CheckKind : uint8_t {
  kTrue = 0,         // a 0-d integer tensor is nonzero
  kFalse = 1,        // a 0-d integer tensor is zero
  kAllTrue = 2,      // every element of an integer tensor is nonzero
  kEqual = 3,        // lhs == rhs
  kAlmostEqual = 4,  // floats: lhs == rhs within atol and rtol
};
/// IREE's name of the check: "expect_true", "expect_false",
/// "expect_all_true", "expect_eq", "expect_almost_eq".
std::string_view CheckKindName(CheckKind kind);

/// Whether a check of `kind` compares two operands (lhs and rhs).
inline bool CheckKindHasRhs(CheckKind kind) {
  return kind == CheckKind::kEqual || kind == CheckKind::kAlmostEqual;
}

/// One check instruction as a function reaches it. The operands have the
/// types the verifier demands of `kind`: a 0-d integer for kTrue and
/// kFalse, an integer tensor for kAllTrue, two tensors of one type (floats
/// for kAlmostEqual) otherwise. Everything is borrowed for the call only.
struct CheckCall {
  CheckKind kind = CheckKind::kTrue;
  const Tensor* lhs = nullptr;
  /// The expected value of kEqual and kAlmostEqual; null for the others.
  const Tensor* rhs = nullptr;
  /// kAlmostEqual's tolerances (finite and >= 0).
  float atol = 0;
  float rtol = 0;
  /// "file:line:column" of the check in the input program; may be empty.
  std::string_view location;
  /// The function running the check and the check's instruction index.
  std::string_view function;
  uint32_t instruction = 0;
};

/// Gives check instructions their meaning. Called on the thread that runs
/// the function, one check at a time.
class CheckHandler {
 public:
  virtual ~CheckHandler();

  /// Runs one check. A check that does not hold is not an error (IREE's
  /// checks never stop a test): record it and return OK. An error stops
  /// the call, annotated with the check's instruction.
  virtual Status Check(const CheckCall& call) = 0;
};

}  // namespace kiln

#endif  // KILN_CHECK_HANDLER_H_
