//===- allocator.h - Where tensor data comes from ------------------*- C++ -*-===//
//
// An Allocator hands out the memory of tensors' data, as IREE's
// iree_allocator_t does for its runtime: an embedder passes one to a
// Context (kiln/context.h) to place, count or bound what calls allocate.
// Storage made through one keeps it alive (AllocateShared), so tensors may
// outlive whatever gave them the allocator.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_ALLOCATOR_H_
#define KILN_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "kiln/status.h"

namespace kiln {

/// Alignment of every tensor's data (what kernels may assume).
inline constexpr size_t kTensorAlignment = 64;

class Allocator {
 public:
  virtual ~Allocator();

  /// `byte_size` bytes (at least 1) aligned to kTensorAlignment, or null
  /// when it cannot. May be called from any thread.
  virtual void* Allocate(uint64_t byte_size) = 0;
  /// Gives back `data`, which Allocate returned for `byte_size` bytes.
  virtual void Free(void* data, uint64_t byte_size) = 0;

  /// The runtime's own (what Tensor::Allocate uses): the heap, and from 64
  /// KiB on page mappings kept for the next buffer of their length, since
  /// fresh pages cost a fault and the kernel's zeroing each. Never
  /// destroyed.
  static const std::shared_ptr<Allocator>& Default();
};

/// `byte_size` bytes (0 is made 1) from `allocator` (null: the default),
/// freed through it when the last owner goes; the owners keep `allocator`
/// alive. ResourceExhausted when it returns null.
StatusOr<std::shared_ptr<void>> AllocateShared(
    const std::shared_ptr<Allocator>& allocator, uint64_t byte_size);

}  // namespace kiln

#endif  // KILN_ALLOCATOR_H_
