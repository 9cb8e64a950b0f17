//===- check.h - IREE's check ops: evaluation and failures ---------*- C++ -*-===//
//
// The kiln_check library: the semantics of check instructions (IREE's
// check.expect_*, compiled from test programs) and the messages that
// explain a failure. Test tools (kiln-check, kiln-run, kiln-benchmark) set
// a CheckRecorder on their Context; the deployed kiln_runtime does not
// contain this library (see kiln/check_handler.h).
//
// Semantics follow IREE's check module:
//   expect_true / expect_false   a 0-d integer is nonzero / zero
//   expect_all_true              every element is nonzero
//   expect_eq                    same type, same bytes (so NaNs with equal
//                                bits are equal and 0 != -0)
//   expect_almost_eq             |lhs - rhs| <= atol + rtol * |rhs| per
//                                element, in double; NaN matches NaN only,
//                                an infinity matches only itself
// rhs is the expected value (`check.expect_eq(%got, %expected)`).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CHECK_H_
#define KILN_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kiln/check_handler.h"
#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

/// A check that failed while a function ran.
struct CheckFailure {
  /// The function that ran the check and the check's instruction index.
  std::string function;
  uint32_t instruction = 0;
  CheckKind kind = CheckKind::kTrue;
  /// "file:line:column" of the check in the input program, as the module
  /// records it; may be empty.
  std::string location;
  /// What was expected and what was got, e.g. for kEqual
  ///   expected 2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; first
  ///   difference at [1, 1]: expected 4, got 5
  /// (rhs is the expected value, lhs the one got). Tensors are printed as
  /// kiln-run prints them, cut after kCheckPrintedElements elements
  /// ("..."); kAlmostEqual adds the largest absolute difference and the
  /// tolerances, kAllTrue the index of the first zero.
  std::string message;

  /// "check failed at LOCATION: MESSAGE"; without a location, LOCATION is
  /// "function 'f' instruction N".
  std::string ToString() const;
};

/// Elements of a tensor a failure message prints before "...".
inline constexpr int64_t kCheckPrintedElements = 32;

/// Evaluates one check. Returns true when it holds; otherwise sets
/// `*message` to what was expected and what was got (CheckFailure::message).
bool EvaluateCheck(const CheckCall& call, std::string* message);

/// The multi-index of row-major element `linear` of `shape`: "[1, 0]" ("[]"
/// for a 0-d shape).
std::string FormatIndex(const Shape& shape, int64_t linear);

/// Evaluates every check and records those that fail, oldest first. The
/// failures accumulate across calls (a failing check does not make a call
/// fail) until Clear(). At most kMaxRecordedFailures are kept (a check
/// failing in every iteration of a long loop must not exhaust memory);
/// failure_count() counts every failure.
class CheckRecorder final : public CheckHandler {
 public:
  Status Check(const CheckCall& call) override;

  const std::vector<CheckFailure>& failures() const { return failures_; }
  size_t failure_count() const { return failure_count_; }
  void Clear() {
    failures_.clear();
    failure_count_ = 0;
  }
  static constexpr size_t kMaxRecordedFailures = 1000;

 private:
  std::vector<CheckFailure> failures_;
  size_t failure_count_ = 0;
};

}  // namespace kiln

#endif  // KILN_CHECK_H_
