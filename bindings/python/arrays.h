//===- arrays.h - NumPy arrays in, tensors out -------------------*- C++ -*-===//
//
// How tensors cross between Python and the runtime: an argument that
// exports a C-contiguous, aligned buffer of a type NumPy and kiln share is
// borrowed where it lies; a result becomes a NumPy array over the runtime's
// storage, which it keeps alive. The package converts everything else
// (kiln/__init__.py).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BINDINGS_PYTHON_ARRAYS_H_
#define KILN_BINDINGS_PYTHON_ARRAYS_H_

#include <Python.h>
#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln::python {

// A buffer an argument exports, released when done (with the GIL held).
class ArgumentBuffer {
 public:
  ArgumentBuffer() = default;
  ArgumentBuffer(const ArgumentBuffer&) = delete;
  ArgumentBuffer& operator=(const ArgumentBuffer&) = delete;
  ~ArgumentBuffer();

  // False (no Python error set) unless `object` exports a C-contiguous
  // buffer of a type NumPy and kiln share, aligned for it.
  bool Get(PyObject* object);
  // A tensor borrowing the buffer (after Get succeeded).
  StatusOr<Tensor> Borrow() const;

 private:
  Py_buffer view_{};
  bool held_ = false;
  std::optional<ElementType> type_;
};

// "(2, 3)" of a shape.
nanobind::tuple ShapeTuple(const Shape& shape);

// The results as NumPy arrays that own their tensors: arrays of their type
// where NumPy has it and `typed` is set, else (element type, shape, bytes)
// triples whose bytes are a uint8 array.
nanobind::list ResultArrays(std::vector<Tensor> outputs, bool typed);

}  // namespace kiln::python

#endif  // KILN_BINDINGS_PYTHON_ARRAYS_H_
