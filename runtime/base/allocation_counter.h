//===- allocation_counter.h - Counting heap allocations in tests ---*- C++ -*-===//
//
// Test binaries that link allocation_counter.cc route every global operator
// new through a counter; an AllocationCounter arms it for its lifetime.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_
#define KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_

#include <cstddef>

namespace kiln::testing {

/// Counts the global operator new calls made (by any thread) while it
/// lives. Not reentrant: one at a time.
class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter();
  size_t count() const;
};

}  // namespace kiln::testing

#endif  // KILN_RUNTIME_BASE_ALLOCATION_COUNTER_H_
