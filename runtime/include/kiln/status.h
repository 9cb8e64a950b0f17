//===- status.h - Error codes, messages and StatusOr ---------------*- C++ -*-===//
//
// Every fallible runtime call returns a Status (an error code plus a message)
// or a StatusOr<T>. Callers annotate errors on the way up by prefixing
// context ("function 'main' instruction 3: ..."), so the final message reads
// from the outermost context to the root cause. No exceptions are used.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_STATUS_H_
#define KILN_STATUS_H_

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace kiln {

/// Broad classes of errors, for callers that branch on the kind of failure.
enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument,     // malformed input, module or flag
  kNotFound,            // missing file or function
  kOutOfRange,          // an index or size beyond its bound
  kFailedPrecondition,  // the system is not in a state to do it (dlopen)
  kResourceExhausted,   // allocation failure
  kUnimplemented,       // valid but unsupported (a dtype, a CPU)
  kDataLoss,            // truncated or corrupted data
  kInternal,            // a dispatch reported failure
};

/// Returns the canonical upper-case name of `code`, e.g. "INVALID_ARGUMENT".
std::string_view StatusCodeName(StatusCode code);

/// An error code plus a human-readable message; `ok()` when the code is kOk.
/// Cheap when ok (an empty string holds no heap memory).
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  /// Prefixes `context` to the message: "context: message". No-op when ok.
  Status& Prepend(std::string_view context);

  /// "INVALID_ARGUMENT: message", or "OK".
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }

//===----------------------------------------------------------------------===//
// StrCat: builds messages from strings, characters and numbers.
//===----------------------------------------------------------------------===//

namespace internal {
inline void AppendPiece(std::string& out, std::string_view piece) {
  out.append(piece);
}
inline void AppendPiece(std::string& out, const char* piece) {
  out.append(piece ? piece : "(null)");
}
inline void AppendPiece(std::string& out, const std::string& piece) {
  out.append(piece);
}
inline void AppendPiece(std::string& out, char c) { out.push_back(c); }
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> &&
                                                  !std::is_same_v<T, char> &&
                                                  !std::is_same_v<T, bool>>>
void AppendPiece(std::string& out, T value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}
inline void AppendPiece(std::string& out, bool value) {
  out.append(value ? "true" : "false");
}
}  // namespace internal

/// Concatenates its arguments; numbers are printed in decimal (floats in the
/// shortest form that round-trips).
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::string out;
  (internal::AppendPiece(out, args), ...);
  return out;
}

//===----------------------------------------------------------------------===//
// Error constructors.
//===----------------------------------------------------------------------===//

template <typename... Args>
Status InvalidArgumentError(const Args&... args) {
  return Status(StatusCode::kInvalidArgument, StrCat(args...));
}
template <typename... Args>
Status NotFoundError(const Args&... args) {
  return Status(StatusCode::kNotFound, StrCat(args...));
}
template <typename... Args>
Status OutOfRangeError(const Args&... args) {
  return Status(StatusCode::kOutOfRange, StrCat(args...));
}
template <typename... Args>
Status FailedPreconditionError(const Args&... args) {
  return Status(StatusCode::kFailedPrecondition, StrCat(args...));
}
template <typename... Args>
Status ResourceExhaustedError(const Args&... args) {
  return Status(StatusCode::kResourceExhausted, StrCat(args...));
}
template <typename... Args>
Status UnimplementedError(const Args&... args) {
  return Status(StatusCode::kUnimplemented, StrCat(args...));
}
template <typename... Args>
Status DataLossError(const Args&... args) {
  return Status(StatusCode::kDataLoss, StrCat(args...));
}
template <typename... Args>
Status InternalError(const Args&... args) {
  return Status(StatusCode::kInternal, StrCat(args...));
}

/// Maps an errno value from a failed system call to a Status whose message is
/// "<what>: <strerror(errno)>", e.g. "cannot open 'x.npy': No such file or
/// directory".
Status ErrnoToStatus(int error_number, std::string_view what);

//===----------------------------------------------------------------------===//
// StatusOr<T>: a value or the error explaining why there is none.
//===----------------------------------------------------------------------===//

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  /// An error; `status` must not be ok (an ok status here is a bug and is
  /// turned into an internal error rather than a value-less success).
  StatusOr(Status status) : status_(std::move(status)) {
    if (status_.ok()) {
      status_ = Status(StatusCode::kInternal, "StatusOr built from ok status");
    }
  }
  StatusOr(T value) : value_(std::move(value)) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }

  /// The value; only valid when ok().
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

namespace internal {
inline Status Annotate(Status status) { return status; }
template <typename... Args>
Status Annotate(Status status, const Args&... context) {
  status.Prepend(StrCat(context...));
  return status;
}
}  // namespace internal

}  // namespace kiln

/// Returns the error of `expr` (a Status) from the current function, prefixed
/// with the optional context arguments (evaluated only on error):
///   KILN_RETURN_IF_ERROR(VerifyType(t), "slot ", i);
#define KILN_RETURN_IF_ERROR(expr, ...)                          \
  do {                                                           \
    ::kiln::Status kiln_status_ = (expr);                        \
    if (__builtin_expect(!kiln_status_.ok(), 0)) {               \
      return ::kiln::internal::Annotate(std::move(kiln_status_), \
                                        ##__VA_ARGS__);          \
    }                                                            \
  } while (0)

#define KILN_STATUS_CONCAT_INNER_(a, b) a##b
#define KILN_STATUS_CONCAT_(a, b) KILN_STATUS_CONCAT_INNER_(a, b)

/// Evaluates `expr` (a StatusOr<T>); on error returns its status, otherwise
/// moves the value into `lhs` (which may be a declaration: `auto x`).
#define KILN_ASSIGN_OR_RETURN(lhs, expr)                                      \
  KILN_ASSIGN_OR_RETURN_IMPL_(KILN_STATUS_CONCAT_(kiln_status_or_, __LINE__), \
                              lhs, expr)
#define KILN_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr)                   \
  auto tmp = (expr);                                                  \
  if (__builtin_expect(!tmp.ok(), 0)) return std::move(tmp).status(); \
  lhs = std::move(tmp).value()

#endif  // KILN_STATUS_H_
