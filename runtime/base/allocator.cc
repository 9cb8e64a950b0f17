//===- allocator.cc - The runtime's own allocator -------------------------===//

#include "kiln/allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

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

/// Whether buffers of `byte_size` are mapped, and the length mapped.
bool IsMapped(uint64_t byte_size, uint64_t* length) {
  // Under AddressSanitizer every buffer comes from its allocator, which
  // catches accesses past the end; a mapping's rounded-up tail would not.
  if (kAddressSanitizer || byte_size < kMappedThreshold) return false;
  const uint64_t granule =
      byte_size >= kHugePageThreshold ? kHugePageSize : kPageSize;
  *length = (byte_size + granule - 1) & ~(granule - 1);
  return true;
}

void* Map(uint64_t length) {
  if (void* cached = MappingCache::Get().Take(length)) return cached;
  // Huge buffers are mapped one huge page longer to place them on a
  // huge-page boundary.
  const bool huge = length >= kHugePageThreshold;
  const uint64_t granule = huge ? kHugePageSize : kPageSize;
  const uint64_t slack = huge ? kHugePageSize : 0;
  void* mapping = ::mmap(nullptr, length + slack, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  const auto base = reinterpret_cast<uintptr_t>(mapping);
  const uintptr_t aligned = (base + granule - 1) & ~uintptr_t{granule - 1};
  if (aligned > base) ::munmap(mapping, aligned - base);
  const uintptr_t tail = aligned + length;
  const uintptr_t mapping_end = base + length + slack;
  if (mapping_end > tail)
    ::munmap(reinterpret_cast<void*>(tail), mapping_end - tail);
  void* p = reinterpret_cast<void*>(aligned);
  if (huge) ::madvise(p, length, MADV_HUGEPAGE);  // advice only
  return p;
}

class DefaultAllocator final : public Allocator {
 public:
  void* Allocate(uint64_t byte_size) override {
    if (byte_size > (uint64_t{1} << 62)) return nullptr;
    uint64_t length;
    if (IsMapped(byte_size, &length)) return Map(length);
    // aligned_alloc wants a multiple of the alignment.
    uint64_t rounded =
        (byte_size + kTensorAlignment - 1) & ~uint64_t{kTensorAlignment - 1};
    if (rounded == 0) rounded = kTensorAlignment;
    return std::aligned_alloc(kTensorAlignment, rounded);
  }

  void Free(void* data, uint64_t byte_size) override {
    uint64_t length;
    if (IsMapped(byte_size, &length)) {
      MappingCache::Get().Give(data, length);
    } else {
      std::free(data);
    }
  }
};

}  // namespace

Allocator::~Allocator() = default;

const std::shared_ptr<Allocator>& Allocator::Default() {
  static auto* allocator =
      new std::shared_ptr<Allocator>(std::make_shared<DefaultAllocator>());
  return *allocator;  // never freed: tensors may outlive static destructors
}

StatusOr<std::shared_ptr<void>> AllocateShared(
    const std::shared_ptr<Allocator>& allocator, uint64_t byte_size) {
  const std::shared_ptr<Allocator>& from =
      allocator ? allocator : Allocator::Default();
  if (byte_size == 0) byte_size = 1;
  void* data = from->Allocate(byte_size);
  if (!data) {
    return ResourceExhaustedError("cannot allocate ", byte_size, " bytes");
  }
  return std::shared_ptr<void>(
      data, [from, byte_size](void* p) { from->Free(p, byte_size); });
}

}  // namespace kiln
