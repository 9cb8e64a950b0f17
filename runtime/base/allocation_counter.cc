//===- allocation_counter.cc - Counting global operator new ---------------===//

#include "base/allocation_counter.h"

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

// The replacements pair malloc with free; GCC cannot tell once they inline.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<size_t> g_allocations{0};
}  // namespace

namespace {
void* CountedAllocate(size_t size, size_t alignment) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  if (size == 0) size = 1;
  if (alignment <= alignof(std::max_align_t)) return std::malloc(size);
  size = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, size);
}
}  // namespace

// Every form of global new and delete: they all pair with malloc/free here,
// so that sanitizers see matching calls whichever form the library picks.
void* operator new(size_t size) {
  if (void* p = CountedAllocate(size, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return CountedAllocate(size, 0);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return CountedAllocate(size, 0);
}
void* operator new(size_t size, std::align_val_t alignment) {
  if (void* p = CountedAllocate(size, static_cast<size_t>(alignment))) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size, std::align_val_t alignment) {
  return operator new(size, alignment);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace kiln::testing {

AllocationCounter::AllocationCounter() {
  g_allocations.store(0);
  g_counting.store(true);
}
AllocationCounter::~AllocationCounter() { g_counting.store(false); }
size_t AllocationCounter::count() const { return g_allocations.load(); }

int64_t HeapBytesInUse() {
  struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

}  // namespace kiln::testing
