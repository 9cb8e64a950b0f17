//===- module.cc - Module loading -----------------------------------------===//

#include "kiln/module.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "module/module_impl.h"

namespace kiln {

std::string FunctionSignature::ToString() const {
  std::string out = name;
  out.push_back('(');
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i) out.append(", ");
    out.append(arguments[i].ToString());
  }
  out.append(") -> (");
  for (size_t i = 0; i < results.size(); ++i) {
    if (i) out.append(", ");
    out.append(results[i].ToString());
  }
  out.push_back(')');
  return out;
}

Module::Impl::~Impl() {
  // Tear down in reverse order of loading: libraries, then the bytes.
  libraries.clear();
  if (mapping) ::munmap(mapping, mapping_size);
  std::free(owned_copy);
}

Module::Module(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Module::~Module() = default;

StatusOr<std::shared_ptr<const Module>> Module::Create(
    std::unique_ptr<Impl> impl) {
  KILN_RETURN_IF_ERROR(VerifyModule(impl.get()));
  KILN_RETURN_IF_ERROR(LoadLibraries(impl.get()));
  // TODO(tracing): publish the module's source table to the tracer here (by
  // pointer into the module; no copy, no allocation).
  return std::shared_ptr<const Module>(new Module(std::move(impl)));
}

StatusOr<std::shared_ptr<const Module>> Module::Load(const std::string& path) {
  const std::string context = StrCat("cannot load '", path, "'");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return ErrnoToStatus(error, StrCat("cannot stat '", path, "'"));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgumentError(context, ": not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return InvalidArgumentError(context, ": file is empty");
  }
  auto impl = std::make_unique<Impl>();
  impl->mapping_size = static_cast<size_t>(st.st_size);
  void* mapping =
      ::mmap(nullptr, impl->mapping_size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int mmap_error = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (mapping == MAP_FAILED) return ErrnoToStatus(mmap_error, context);
  impl->mapping = mapping;
  impl->data = static_cast<const uint8_t*>(mapping);
  impl->size = impl->mapping_size;
  StatusOr<std::shared_ptr<const Module>> module = Create(std::move(impl));
  if (!module.ok()) return std::move(module).status().Prepend(context);
  return module;
}

StatusOr<std::shared_ptr<const Module>> Module::LoadFromMemory(
    const void* data, size_t size, MemoryMode mode) {
  auto impl = std::make_unique<Impl>();
  if (mode == MemoryMode::kCopy && size > 0) {
    const size_t rounded = (size + 63) & ~size_t{63};
    impl->owned_copy = std::aligned_alloc(64, rounded);
    if (!impl->owned_copy) {
      return ResourceExhaustedError("cannot allocate ", size,
                                    " bytes for the module");
    }
    std::memcpy(impl->owned_copy, data, size);
    data = impl->owned_copy;
  }
  if (!data && size > 0) return InvalidArgumentError("module data is null");
  // Constants are used in place and must keep the 64-byte alignment the
  // format gives them relative to the start of the module.
  if (reinterpret_cast<uintptr_t>(data) % 64 != 0) {
    return InvalidArgumentError(
        "borrowed module bytes must be 64-byte aligned (use "
        "MemoryMode::kCopy)");
  }
  impl->data = static_cast<const uint8_t*>(data);
  impl->size = size;
  return Create(std::move(impl));
}

std::string_view Module::name() const {
  const auto* name = impl_->root->name();
  return name ? name->string_view() : std::string_view();
}

const std::vector<FunctionSignature>& Module::functions() const {
  return impl_->signatures;
}

StatusOr<size_t> Module::FindFunction(std::string_view name) const {
  for (size_t i = 0; i < impl_->signatures.size(); ++i) {
    if (impl_->signatures[i].name == name) return i;
  }
  if (impl_->signatures.empty()) {
    return NotFoundError("no function '", name,
                         "': the module has no functions");
  }
  std::string available;
  for (const FunctionSignature& signature : impl_->signatures) {
    if (!available.empty()) available.append(", ");
    available.append(signature.name);
  }
  return NotFoundError("no function '", name, "' (available: ", available,
                       ")");
}

const fb::Module& Module::flatbuffer() const { return *impl_->root; }
const uint8_t* Module::data() const { return impl_->data; }
size_t Module::size() const { return impl_->size; }

}  // namespace kiln
