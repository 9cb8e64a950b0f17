//===- errors.h - The runtime's failures as Python exceptions ------*- C++ -*-===//
//
// kiln.RuntimeError carries the message the tools print for the same
// failure (the Status's message).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BINDINGS_PYTHON_ERRORS_H_
#define KILN_BINDINGS_PYTHON_ERRORS_H_

#include <stdexcept>
#include <utility>

#include "kiln/status.h"

namespace kiln::python {

// Raised as kiln.RuntimeError (registered by the _runtime module).
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw Failure(status.message());
}

template <typename T>
T ValueOrThrow(StatusOr<T> value) {
  ThrowIfError(value.status());
  return std::move(value).value();
}

}  // namespace kiln::python

#endif  // KILN_BINDINGS_PYTHON_ERRORS_H_
