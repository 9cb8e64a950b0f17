//===- tensor.cc - Element types, sizes and tensor storage -----------------===//

#include "kiln/tensor.h"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace kiln {

namespace {

struct ElementTypeInfo {
  std::string_view name;
  size_t byte_size;
};

constexpr ElementTypeInfo kElementTypeInfos[kElementTypeCount] = {
    {"f32", 4},        {"f64", 8},       {"f16", 2},      {"bf16", 2},
    {"i1", 1},         {"i8", 1},        {"i16", 2},      {"i32", 4},
    {"i64", 8},        {"f8E5M2", 1},    {"f8E4M3FN", 1}, {"f8E5M2FNUZ", 1},
    {"f8E4M3FNUZ", 1}, {"f8E8M0FNU", 1}, {"f4E2M1FN", 1},
};

// Zero-byte tensors still need a valid, aligned, non-null pointer.
alignas(kTensorAlignment) const uint8_t kEmptyStorage[kTensorAlignment] = {};

}  // namespace

std::string_view ElementTypeName(ElementType type) {
  auto index = static_cast<uint32_t>(type);
  return IsValidElementType(index) ? kElementTypeInfos[index].name
                                   : std::string_view("<invalid>");
}

size_t ElementTypeByteSize(ElementType type) {
  auto index = static_cast<uint32_t>(type);
  return IsValidElementType(index) ? kElementTypeInfos[index].byte_size : 0;
}

bool ParseElementTypeName(std::string_view name, ElementType* out_type) {
  for (int i = 0; i < kElementTypeCount; ++i) {
    if (kElementTypeInfos[i].name == name) {
      *out_type = static_cast<ElementType>(i);
      return true;
    }
  }
  return false;
}

Status ComputeTensorSize(ElementType type, const Shape& shape,
                         int64_t* out_element_count, uint64_t* out_byte_size) {
  if (!IsValidElementType(static_cast<uint32_t>(type))) {
    return InvalidArgumentError("invalid element type ",
                                static_cast<uint32_t>(type));
  }
  if (shape.size() > kMaxTensorRank) {
    return InvalidArgumentError("rank ", shape.size(), " exceeds the limit of ",
                                kMaxTensorRank);
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return InvalidArgumentError("dimension ", i, " is negative (", shape[i],
                                  ")");
    }
  }
  const uint64_t element_size = ElementTypeByteSize(type);
  // A zero dimension makes the whole tensor empty, whatever the others are.
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim == 0) {
      count = 0;
      break;
    }
  }
  if (count != 0) {
    for (int64_t dim : shape) {
      uint64_t product;
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &product) ||
          product > kMaxTensorByteSize) {
        return InvalidArgumentError("size of ", FormatTensorType(type, shape),
                                    " exceeds the limit of ",
                                    kMaxTensorByteSize, " bytes");
      }
      count = product;
    }
  }
  const uint64_t byte_size =
      count * element_size;  // count <= 2^40: no overflow
  if (byte_size > kMaxTensorByteSize) {
    return InvalidArgumentError("size of ", FormatTensorType(type, shape),
                                " exceeds the limit of ", kMaxTensorByteSize,
                                " bytes");
  }
  if (out_element_count) *out_element_count = static_cast<int64_t>(count);
  if (out_byte_size) *out_byte_size = byte_size;
  return OkStatus();
}

std::string FormatTensorType(ElementType type, const Shape& shape) {
  std::string out;
  for (int64_t dim : shape) {
    // KILN_DYNAMIC_DIMENSION (a type's dimension fixed at run time).
    if (dim == -1) {
      out.push_back('?');
    } else {
      internal::AppendPiece(out, dim);
    }
    out.push_back('x');
  }
  out.append(ElementTypeName(type));
  return out;
}

StatusOr<Tensor> Tensor::Allocate(ElementType type, Shape shape,
                                  const std::shared_ptr<Allocator>& allocator) {
  Tensor tensor;
  KILN_RETURN_IF_ERROR(ComputeTensorSize(type, shape, &tensor.element_count_,
                                         &tensor.byte_size_));
  KILN_ASSIGN_OR_RETURN(tensor.owner_,
                        AllocateShared(allocator, tensor.byte_size_));
  tensor.element_type_ = type;
  tensor.shape_ = std::move(shape);
  tensor.data_ = tensor.owner_.get();
  return tensor;
}

StatusOr<Tensor> Tensor::AllocateZeroed(ElementType type, Shape shape) {
  KILN_ASSIGN_OR_RETURN(Tensor tensor, Allocate(type, std::move(shape)));
  std::memset(tensor.mutable_data(), 0, tensor.byte_size());
  return tensor;
}

StatusOr<Tensor> Tensor::Borrow(ElementType type, Shape shape, const void* data,
                                uint64_t byte_size) {
  Tensor tensor;
  KILN_RETURN_IF_ERROR(ComputeTensorSize(type, shape, &tensor.element_count_,
                                         &tensor.byte_size_));
  if (tensor.byte_size_ != byte_size) {
    return InvalidArgumentError("borrowed memory is ", byte_size,
                                " bytes, but ", FormatTensorType(type, shape),
                                " needs ", tensor.byte_size_);
  }
  if (!data) {
    if (byte_size != 0) return InvalidArgumentError("borrowed memory is null");
    data = kEmptyStorage;
  }
  tensor.element_type_ = type;
  tensor.shape_ = std::move(shape);
  tensor.data_ = data;
  return tensor;
}

StatusOr<Tensor> Tensor::Reshape(ElementType new_type, Shape new_shape) const {
  if (empty()) return InvalidArgumentError("cannot reshape an empty tensor");
  Tensor result;
  KILN_RETURN_IF_ERROR(ComputeTensorSize(
      new_type, new_shape, &result.element_count_, &result.byte_size_));
  if (result.byte_size_ != byte_size_) {
    return InvalidArgumentError("cannot reshape ", type().ToString(), " (",
                                byte_size_, " bytes) to ",
                                FormatTensorType(new_type, new_shape), " (",
                                result.byte_size_, " bytes)");
  }
  result.element_type_ = new_type;
  result.shape_ = std::move(new_shape);
  result.data_ = data_;
  result.owner_ = owner_;
  return result;
}

StatusOr<Tensor> Tensor::Share(ElementType type, Shape shape,
                               std::shared_ptr<void> storage) {
  if (!storage) return InvalidArgumentError("no storage to share");
  Tensor tensor;
  KILN_RETURN_IF_ERROR(ComputeTensorSize(type, shape, &tensor.element_count_,
                                         &tensor.byte_size_));
  tensor.element_type_ = type;
  tensor.shape_ = std::move(shape);
  tensor.data_ = storage.get();
  tensor.owner_ = std::move(storage);
  return tensor;
}

StatusOr<Tensor> Tensor::Clone(
    const std::shared_ptr<Allocator>& allocator) const {
  if (empty()) return InvalidArgumentError("cannot clone an empty tensor");
  KILN_ASSIGN_OR_RETURN(Tensor copy,
                        Allocate(element_type_, shape_, allocator));
  std::memcpy(copy.mutable_data(), data_, byte_size_);
  return copy;
}

bool Tensor::SharesStorageWith(const Tensor& other) const {
  if (empty() || other.empty()) return false;
  if (owner_ || other.owner_) return owner_ == other.owner_;
  auto begin = reinterpret_cast<uintptr_t>(data_);
  auto other_begin = reinterpret_cast<uintptr_t>(other.data_);
  if (begin == other_begin) return true;
  return begin < other_begin + other.byte_size_ &&
         other_begin < begin + byte_size_;
}

}  // namespace kiln
