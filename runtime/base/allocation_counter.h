//===- allocation_counter.h - Counting heap allocations in tests ---*- C++ -*-===//
//
// Test binaries that link allocation_counter.cc route every global operator
// new through a counter; an AllocationCounter arms it for its lifetime.
// HeapBytesInUse() sees what the counter does not: malloc and aligned_alloc
// (tensor storage) too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_
#define KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_

#include <cstddef>
#include <cstdint>

namespace kiln::testing {

/// Counts the global operator new calls made (by any thread) while it
/// lives. Not reentrant: one at a time.
class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter();
  size_t count() const;
};

/// Bytes glibc's heap has handed out and not had back (mallinfo2), mappings
/// included. Meaningless under a sanitizer, whose allocator glibc does not
/// see: check kHeapStatsAreReliable.
int64_t HeapBytesInUse();
#if defined(KILN_SANITIZER_ADDRESS) || defined(KILN_SANITIZER_THREAD)
inline constexpr bool kHeapStatsAreReliable = false;
#else
inline constexpr bool kHeapStatsAreReliable = true;
#endif

}  // namespace kiln::testing

#endif  // KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_
