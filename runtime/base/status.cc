//===- status.cc - Status implementation ----------------------------------===//

#include "kiln/status.h"

#include <cerrno>
#include <cstring>

namespace kiln {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::kUnimplemented:
      return "UNIMPLEMENTED";
    case StatusCode::kDataLoss:
      return "DATA_LOSS";
    case StatusCode::kInternal:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

Status& Status::Prepend(std::string_view context) {
  if (ok() || context.empty()) return *this;
  std::string message;
  message.reserve(context.size() + 2 + message_.size());
  message.append(context).append(": ").append(message_);
  message_ = std::move(message);
  return *this;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return StrCat(StatusCodeName(code_), ": ", message_);
}

Status ErrnoToStatus(int error_number, std::string_view what) {
  StatusCode code;
  switch (error_number) {
    case ENOENT:
      code = StatusCode::kNotFound;
      break;
    case ENOMEM:
      code = StatusCode::kResourceExhausted;
      break;
    default:
      code = StatusCode::kInvalidArgument;
      break;
  }
  // strerror is not thread-safe; strerror_r (GNU variant) is.
  char buffer[256];
  const char* text = strerror_r(error_number, buffer, sizeof(buffer));
  return Status(code, StrCat(what, ": ", text));
}

}  // namespace kiln
