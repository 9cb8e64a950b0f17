//===- arrays.cc - NumPy arrays in, tensors out ---------------------------===//

#include "arrays.h"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <utility>

namespace nb = nanobind;

namespace kiln::python {

namespace {

// The element type of a buffer's struct-module format as NumPy exports
// native arrays of the types kiln and NumPy share; none for any other (a
// byte-swapped array, bf16 and the small floats of ml_dtypes, which NumPy
// cannot export).
std::optional<ElementType> ElementTypeOfFormat(const char* format) {
  if (format == nullptr || format[0] == '\0' || format[1] != '\0')
    return std::nullopt;
  switch (format[0]) {
    case 'f':
      return ElementType::kF32;
    case 'd':
      return ElementType::kF64;
    case 'e':
      return ElementType::kF16;
    case '?':
      return ElementType::kI1;
    case 'b':
      return ElementType::kI8;
    case 'h':
      return ElementType::kI16;
    case 'i':
      return ElementType::kI32;
    case 'l':
    case 'q':
      return ElementType::kI64;
    default:
      return std::nullopt;
  }
}

// The DLPack type NumPy makes an array of, for the types it has.
std::optional<nb::dlpack::dtype> NumPyType(ElementType type) {
  using Code = nb::dlpack::dtype_code;
  auto make = [](Code code, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  switch (type) {
    case ElementType::kF32:
      return make(Code::Float, 32);
    case ElementType::kF64:
      return make(Code::Float, 64);
    case ElementType::kF16:
      return make(Code::Float, 16);
    case ElementType::kI1:
      return make(Code::Bool, 8);
    case ElementType::kI8:
      return make(Code::Int, 8);
    case ElementType::kI16:
      return make(Code::Int, 16);
    case ElementType::kI32:
      return make(Code::Int, 32);
    case ElementType::kI64:
      return make(Code::Int, 64);
    default:
      return std::nullopt;
  }
}

}  // namespace

ArgumentBuffer::~ArgumentBuffer() {
  if (held_) PyBuffer_Release(&view_);
}

bool ArgumentBuffer::Get(PyObject* object) {
  if (PyObject_GetBuffer(object, &view_, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) !=
      0) {
    PyErr_Clear();
    return false;
  }
  held_ = true;
  type_ = ElementTypeOfFormat(view_.format);
  return type_ &&
         reinterpret_cast<uintptr_t>(view_.buf) % ElementTypeByteSize(*type_) ==
             0;
}

StatusOr<Tensor> ArgumentBuffer::Borrow() const {
  Shape shape(view_.shape, view_.shape + view_.ndim);
  return Tensor::Borrow(*type_, std::move(shape), view_.buf,
                        static_cast<uint64_t>(view_.len));
}

nb::tuple ShapeTuple(const Shape& shape) {
  nb::list dims;
  for (int64_t dim : shape) dims.append(dim);
  return nb::tuple(dims);
}

nb::list ResultArrays(std::vector<Tensor> outputs, bool typed) {
  nb::list results;
  for (Tensor& output : outputs) {
    auto* owner = new Tensor(std::move(output));
    nb::capsule keep(owner, [](void* tensor) noexcept {
      delete static_cast<Tensor*>(tensor);
    });
    std::optional<nb::dlpack::dtype> dtype =
        typed ? NumPyType(owner->element_type()) : std::nullopt;
    if (dtype) {
      std::vector<size_t> shape(owner->shape().begin(), owner->shape().end());
      results.append(nb::cast(nb::ndarray<nb::numpy>(
          owner->mutable_data(), shape.size(), shape.data(), keep,
          /*strides=*/nullptr, *dtype)));
      continue;
    }
    size_t byte_size = static_cast<size_t>(owner->byte_size());
    nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> bytes(
        owner->mutable_data_as<uint8_t>(), {byte_size}, keep);
    results.append(nb::make_tuple(static_cast<int>(owner->element_type()),
                                  ShapeTuple(owner->shape()), nb::cast(bytes)));
  }
  return results;
}

}  // namespace kiln::python
