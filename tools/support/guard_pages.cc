//===- guard_pages.cc - Tensors that end where memory ends ----------------===//

#include "support/guard_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace kiln::tools {
namespace {

uint64_t PageSize() { return static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)); }

uint64_t RoundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

class GuardPageAllocatorImpl final : public Allocator {
 public:
  void* Allocate(uint64_t byte_size) override {
    if (byte_size > (uint64_t{1} << 62)) return nullptr;
    const uint64_t page = PageSize(), aligned = Aligned(byte_size);
    const uint64_t length = RoundUp(aligned, page);
    void* mapping = ::mmap(nullptr, length + page, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return nullptr;
    char* guard = static_cast<char*>(mapping) + length;
    if (::mprotect(guard, page, PROT_NONE) != 0) {
      ::munmap(mapping, length + page);
      return nullptr;
    }
    return guard - aligned;
  }

  void Free(void* data, uint64_t byte_size) override {
    const uint64_t page = PageSize(), aligned = Aligned(byte_size);
    const uint64_t length = RoundUp(aligned, page);
    char* guard = static_cast<char*>(data) + aligned;
    ::munmap(guard - length, length + page);
  }

 private:
  // The data ends this far before the guard page, so that it starts aligned.
  static uint64_t Aligned(uint64_t byte_size) {
    return RoundUp(byte_size, kTensorAlignment);
  }
};

}  // namespace

std::shared_ptr<Allocator> GuardPageAllocator() {
  return std::make_shared<GuardPageAllocatorImpl>();
}

Status MoveTensorsInto(const std::shared_ptr<Allocator>& allocator,
                       std::vector<Tensor>* tensors) {
  for (Tensor& tensor : *tensors) {
    KILN_ASSIGN_OR_RETURN(tensor, tensor.Clone(allocator));
  }
  return OkStatus();
}

}  // namespace kiln::tools
