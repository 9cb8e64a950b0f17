//===- tensor.h - Element types, shapes and tensors ----------------*- C++ -*-===//
//
// A Tensor is a dense, row-major, statically shaped array. Its storage is
// shared (reshapes and slot copies alias it) and is either an owned 64-byte
// aligned heap allocation or memory borrowed from someone else (typically the
// mapped module), which the tensor never frees.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TENSOR_H_
#define KILN_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/allocator.h"
#include "kiln/status.h"

namespace kiln {

/// Element types; the values equal those of kiln::fb::ElementType in
/// schema/module.fbs (checked where both are visible).
enum class ElementType : uint8_t {
  kF32 = 0,
  kF64 = 1,
  kF16 = 2,
  kBF16 = 3,
  kI1 = 4,  // one byte per element, 0 or 1
  kI8 = 5,
  kI16 = 6,
  kI32 = 7,
  kI64 = 8,
  // Float types of at most 8 bits, one byte per element (MLIR's names and
  // encodings; f4E2M1FN in the low four bits of its byte). Programs compute
  // with them in f32.
  kF8E5M2 = 9,
  kF8E4M3FN = 10,
  kF8E5M2FNUZ = 11,
  kF8E4M3FNUZ = 12,
  kF8E8M0FNU = 13,
  kF4E2M1FN = 14,
};
inline constexpr int kElementTypeCount = 15;

/// True when `value` names an ElementType (e.g. a byte read from a file).
constexpr bool IsValidElementType(uint32_t value) {
  return value < static_cast<uint32_t>(kElementTypeCount);
}
/// "f32", "f64", "f16", "bf16", "i1", "i8", "i16", "i32", "i64", "f8E5M2",
/// "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E8M0FNU", "f4E2M1FN".
std::string_view ElementTypeName(ElementType type);
/// Size of one element in bytes (i1 and f4E2M1FN take one byte).
size_t ElementTypeByteSize(ElementType type);
/// Parses a name as printed by ElementTypeName; false when unknown.
bool ParseElementTypeName(std::string_view name, ElementType* out_type);

using Shape = std::vector<int64_t>;

/// Largest tensor the runtime accepts (1 TiB): anything larger is certainly a
/// corrupted size, and the limit keeps every size computation far from
/// overflow.
inline constexpr uint64_t kMaxTensorByteSize = uint64_t{1} << 40;
/// Largest rank accepted from files and flags.
inline constexpr size_t kMaxTensorRank = 64;

/// Computes the number of elements of `shape` and its size in bytes with
/// `type`. Fails on negative dimensions, overflow, a rank above
/// kMaxTensorRank, or a size above kMaxTensorByteSize. Outputs may be null.
Status ComputeTensorSize(ElementType type, const Shape& shape,
                         int64_t* out_element_count, uint64_t* out_byte_size);

/// "2x3xf32"; a 0-d type prints as just "f32".
std::string FormatTensorType(ElementType type, const Shape& shape);

/// A statically shaped tensor type, e.g. of a function argument.
struct TensorType {
  ElementType element_type = ElementType::kF32;
  Shape shape;

  std::string ToString() const { return FormatTensorType(element_type, shape); }
  bool operator==(const TensorType& other) const {
    return element_type == other.element_type && shape == other.shape;
  }
  bool operator!=(const TensorType& other) const { return !(*this == other); }
};

/// A dense tensor with shared storage. Copying a Tensor copies a reference,
/// not the data; use Clone() for a deep copy. A default-constructed Tensor is
/// empty (no storage) and only useful as a placeholder.
class Tensor {
 public:
  Tensor() = default;

  /// Allocates uninitialized, 64-byte aligned storage for the type from
  /// `allocator` (null: Allocator::Default()).
  static StatusOr<Tensor> Allocate(
      ElementType type, Shape shape,
      const std::shared_ptr<Allocator>& allocator = nullptr);
  /// Like Allocate, with every byte zero.
  static StatusOr<Tensor> AllocateZeroed(ElementType type, Shape shape);
  /// Wraps `byte_size` bytes at `data` without taking ownership: the memory
  /// must outlive every tensor that refers to it and is never freed by them.
  /// Fails if `byte_size` is not the byte size of the type.
  static StatusOr<Tensor> Borrow(ElementType type, Shape shape,
                                 const void* data, uint64_t byte_size);
  /// A tensor over the storage `storage` points to, which it shares with
  /// every other owner (as AllocateShared makes it): at least the type's
  /// byte size, 64-byte aligned (neither can be checked). Fails when
  /// `storage` is null.
  static StatusOr<Tensor> Share(ElementType type, Shape shape,
                                std::shared_ptr<void> storage);

  /// A tensor of another shape over the same storage (no copy). Fails unless
  /// the byte size is unchanged.
  StatusOr<Tensor> Reshape(ElementType new_type, Shape new_shape) const;
  /// A deep copy into freshly owned storage from `allocator` (null:
  /// Allocator::Default()).
  StatusOr<Tensor> Clone(
      const std::shared_ptr<Allocator>& allocator = nullptr) const;

  bool empty() const { return data_ == nullptr; }
  ElementType element_type() const { return element_type_; }
  const Shape& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t element_count() const { return element_count_; }
  uint64_t byte_size() const { return byte_size_; }
  TensorType type() const { return TensorType{element_type_, shape_}; }

  const void* data() const { return data_; }
  /// Writable data. Writing through a borrowed read-only mapping faults, so
  /// only call this on tensors you allocated.
  void* mutable_data() const { return const_cast<void*>(data_); }
  template <typename T>
  const T* data_as() const {
    return static_cast<const T*>(data_);
  }
  template <typename T>
  T* mutable_data_as() const {
    return static_cast<T*>(mutable_data());
  }

  /// True when the storage is borrowed (not owned by any tensor).
  bool is_borrowed() const { return !empty() && owner_ == nullptr; }
  /// True when both tensors refer to the same owned storage, or to
  /// overlapping borrowed memory.
  bool SharesStorageWith(const Tensor& other) const;

 private:
  ElementType element_type_ = ElementType::kF32;
  Shape shape_;
  int64_t element_count_ = 0;
  uint64_t byte_size_ = 0;
  const void* data_ = nullptr;
  // Keeps owned storage alive; null for borrowed storage.
  std::shared_ptr<void> owner_;
};

}  // namespace kiln

#endif  // KILN_TENSOR_H_
