//===- tensor.cc - Element types, sizes and tensor storage -----------------===//

#include "kiln/tensor.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

constexpr size_t kStorageAlignment = 64;

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
alignas(kStorageAlignment) const uint8_t kEmptyStorage[kStorageAlignment] = {};

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

#ifdef KILN_SANITIZER_ADDRESS
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

/// Buffers from this size on are mapped on their own and, when freed, kept
/// for the next buffer of their length (see MappingCache): a model called
/// again allocates the same temporaries, and a fresh mapping (or a heap
/// block malloc maps or trims) costs a page fault and the kernel's zeroing
/// per page written. A 1 MiB packed weight written into fresh pages took
/// 290 us, four times its copy.
constexpr uint64_t kMappedThreshold = uint64_t{64} << 10;
constexpr uint64_t kPageSize = uint64_t{4} << 10;

/// From this size on, mappings are placed and rounded to transparent huge
/// pages where the kernel allows them (madvise mode): writing a fresh 64 MiB
/// result then takes 32 page faults instead of 16384. From 2 MiB on, the
/// rounding to whole huge pages wastes less than half.
constexpr uint64_t kHugePageSize = uint64_t{2} << 20;
constexpr uint64_t kHugePageThreshold = uint64_t{2} << 20;

/// Freed mappings kept for the next buffer of the same length. Bounded, so
/// that a burst of large buffers does not stay resident.
class MappingCache {
 public:
  static MappingCache& Get() {
    static MappingCache* cache = new MappingCache();  // never freed
    return *cache;
  }

  void* Take(uint64_t length) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = entries_.size(); i-- > 0;) {  // the newest is warmest
      if (entries_[i].length != length) continue;
      void* p = entries_[i].address;
      cached_bytes_ -= length;
      entries_.erase(entries_.begin() + i);
      return p;
    }
    return nullptr;
  }

  /// Keeps `p` for reuse, or unmaps it (the oldest mappings first) when the
  /// cache would exceed its bounds.
  void Give(void* p, uint64_t length) {
    std::vector<Entry> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      entries_.push_back({p, length});
      cached_bytes_ += length;
      while (!entries_.empty() && (cached_bytes_ > kMaxCachedBytes ||
                                   entries_.size() > kMaxCachedMappings)) {
        evicted.push_back(entries_.front());
        cached_bytes_ -= entries_.front().length;
        entries_.erase(entries_.begin());
      }
    }
    for (const Entry& entry : evicted) ::munmap(entry.address, entry.length);
  }

 private:
  static constexpr uint64_t kMaxCachedBytes = uint64_t{1} << 30;
  static constexpr size_t kMaxCachedMappings = 256;
  struct Entry {
    void* address;
    uint64_t length;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;  // oldest first
  uint64_t cached_bytes_ = 0;
};

struct CachedUnmap {
  uint64_t length;
  void operator()(void* p) const { MappingCache::Get().Give(p, length); }
};

StatusOr<std::shared_ptr<void>> AllocateMappedStorage(uint64_t byte_size) {
  if (byte_size > (uint64_t{1} << 62)) {
    return ResourceExhaustedError("cannot allocate ", byte_size, " bytes");
  }
  const bool huge = byte_size >= kHugePageThreshold;
  const uint64_t granule = huge ? kHugePageSize : kPageSize;
  const uint64_t length = (byte_size + granule - 1) & ~(granule - 1);
  if (void* cached = MappingCache::Get().Take(length)) {
    return std::shared_ptr<void>(cached, CachedUnmap{length});
  }
  // Huge buffers are mapped one huge page longer to place them on a
  // huge-page boundary.
  const uint64_t slack = huge ? kHugePageSize : 0;
  void* mapping = ::mmap(nullptr, length + slack, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    return ResourceExhaustedError("cannot allocate ", byte_size, " bytes");
  }
  const auto base = reinterpret_cast<uintptr_t>(mapping);
  const uintptr_t aligned = (base + granule - 1) & ~uintptr_t{granule - 1};
  if (aligned > base) ::munmap(mapping, aligned - base);
  const uintptr_t tail = aligned + length;
  const uintptr_t mapping_end = base + length + slack;
  if (mapping_end > tail)
    ::munmap(reinterpret_cast<void*>(tail), mapping_end - tail);
  void* p = reinterpret_cast<void*>(aligned);
  if (huge) ::madvise(p, length, MADV_HUGEPAGE);  // advice only
  return std::shared_ptr<void>(p, CachedUnmap{length});
}

StatusOr<std::shared_ptr<void>> AllocateStorage(uint64_t byte_size) {
  // Under AddressSanitizer every buffer comes from its allocator, which
  // catches accesses past the end; a mapping's rounded-up tail would not.
  if (!kAddressSanitizer && byte_size >= kMappedThreshold) {
    return AllocateMappedStorage(byte_size);
  }
  // aligned_alloc wants a multiple of the alignment; never allocate 0 bytes.
  uint64_t rounded =
      (byte_size + kStorageAlignment - 1) & ~uint64_t{kStorageAlignment - 1};
  if (rounded == 0) rounded = kStorageAlignment;
  void* p = std::aligned_alloc(kStorageAlignment, rounded);
  if (!p) {
    return ResourceExhaustedError("cannot allocate ", byte_size, " bytes");
  }
  return std::shared_ptr<void>(p, AlignedFree());
}

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
  const uint64_t byte_size = count * element_size;  // count <= 2^40: no overflow
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
    internal::AppendPiece(out, dim);
    out.push_back('x');
  }
  out.append(ElementTypeName(type));
  return out;
}

StatusOr<Tensor> Tensor::Allocate(ElementType type, Shape shape) {
  Tensor tensor;
  KILN_RETURN_IF_ERROR(ComputeTensorSize(type, shape, &tensor.element_count_,
                                         &tensor.byte_size_));
  KILN_ASSIGN_OR_RETURN(tensor.owner_, AllocateStorage(tensor.byte_size_));
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

StatusOr<Tensor> Tensor::Borrow(ElementType type, Shape shape,
                                const void* data, uint64_t byte_size) {
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
  KILN_RETURN_IF_ERROR(ComputeTensorSize(new_type, new_shape,
                                         &result.element_count_,
                                         &result.byte_size_));
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

StatusOr<Tensor> Tensor::Clone() const {
  if (empty()) return InvalidArgumentError("cannot clone an empty tensor");
  KILN_ASSIGN_OR_RETURN(Tensor copy, Allocate(element_type_, shape_));
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
