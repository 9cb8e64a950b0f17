//===- library.cc - Loading native executable libraries from memory -------===//
//
// Each Library blob is written to an anonymous memfd and dlopen'ed through
// /proc/self/fd/N, so nothing touches the file system. The library must
// answer kiln_executable_library_query for ABI version 0, and every Export of
// the module must name the entry at its library_ordinal with the same binding
// count.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "cpu/host_cpu_features.h"
#include "module/module_impl.h"

namespace kiln {

namespace {

bool RangeInside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace

Status CheckCpuFeatures(
    std::string_view cpu, const std::vector<std::string_view>& features,
    const std::function<std::optional<bool>(std::string_view)>& has_feature) {
  std::string missing, unknown;
  for (std::string_view feature : features) {
    const std::optional<bool> present = has_feature(feature);
    std::string& list = present.has_value() ? missing : unknown;
    if (present != true) list.append(list.empty() ? "" : ", ").append(feature);
  }
  // A feature that cannot be checked may be missing: running the code
  // could stop the process on an illegal instruction, so it is refused too.
  if (!missing.empty() || !unknown.empty()) {
    const std::string unchecked =
        StrCat("this runtime cannot check: ", unknown);
    std::string what = missing.empty()
                           ? unchecked
                           : StrCat("this machine lacks: ", missing);
    if (!missing.empty() && !unknown.empty()) {
      what += StrCat(" (and ones ", unchecked, ")");
    }
    return UnimplementedError("compiled for CPU '", cpu,
                              "' with instructions ", what);
  }
  return OkStatus();
}

namespace {

// The dynamic loader knows a library by its path string first, and an object
// may outlive its dlclose (RTLD_NODELETE, or a profiler such as Tracy that
// makes dlclose a no-op): dlopen of a reused /proc/self/fd/N would then
// return the old code. So each load spells the path differently: the load's
// number in binary as no-op segments, "./" for 1 and "/" for 0, between
// "fd/" and N (load 6 of fd 5: "/proc/self/fd/././/5"). A new memfd is a new
// inode, so the loader's second test (device and inode) finds nothing
// either.
std::string UniqueLibraryPath(int fd) {
  static std::atomic<uint64_t> next_load{0};
  const uint64_t load = next_load.fetch_add(1, std::memory_order_relaxed);
  std::string path = "/proc/self/fd/";
  for (int bit = 63 - (load ? __builtin_clzll(load) : 64); bit >= 0; --bit) {
    path += (load >> bit) & 1 ? "./" : "/";
  }
  path += std::to_string(fd);
  return path;
}

Status WriteAll(int fd, const uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "cannot write library to memfd");
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

}  // namespace

Status CheckElfImage(const uint8_t* data, size_t size) {
  Elf64_Ehdr header;
  if (size < SELFMAG || std::memcmp(data, ELFMAG, SELFMAG) != 0) {
    return InvalidArgumentError("not an ELF file");
  }
  if (size < sizeof(header)) return DataLossError("truncated ELF header");
  std::memcpy(&header, data, sizeof(header));
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return InvalidArgumentError("not a 64-bit little-endian ELF file");
  }
  if (header.e_machine != EM_X86_64) {
    return InvalidArgumentError("ELF machine ", header.e_machine,
                                " is not x86-64");
  }
  if (header.e_type != ET_DYN) {
    return InvalidArgumentError("ELF file is not a shared object (type ",
                                header.e_type, ")");
  }
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(Elf64_Phdr)) {
    return InvalidArgumentError("bad ELF program header table");
  }
  if (!RangeInside(header.e_phoff,
                   uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), size)) {
    return DataLossError("truncated ELF: program headers extend past the end");
  }
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type == PT_NULL) continue;
    if (!RangeInside(segment.p_offset, segment.p_filesz, size)) {
      return DataLossError("truncated ELF: segment ", i, " (bytes ",
                           segment.p_offset, "+", segment.p_filesz,
                           ") extends past the end of the ", size,
                           "-byte image");
    }
  }
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// LoadedLibrary
//===----------------------------------------------------------------------===//

LoadedLibrary::~LoadedLibrary() { Reset(); }

LoadedLibrary::LoadedLibrary(LoadedLibrary&& other) noexcept
    : fd_(other.fd_), handle_(other.handle_), library_(other.library_) {
  other.fd_ = -1;
  other.handle_ = nullptr;
  other.library_ = nullptr;
}

LoadedLibrary& LoadedLibrary::operator=(LoadedLibrary&& other) noexcept {
  if (this != &other) {
    Reset();
    std::swap(fd_, other.fd_);
    std::swap(handle_, other.handle_);
    std::swap(library_, other.library_);
  }
  return *this;
}

void LoadedLibrary::Reset() {
  // dlclose before closing the fd, whose number names the mapped file.
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
  handle_ = nullptr;
  fd_ = -1;
  library_ = nullptr;
}

StatusOr<LoadedLibrary> LoadedLibrary::Load(const uint8_t* data, size_t size,
                                            std::string_view debug_name) {
  KILN_RETURN_IF_ERROR(CheckElfImage(data, size));
  LoadedLibrary loaded;
  // memfd names are limited to 249 bytes.
  const std::string memfd_name(debug_name.substr(0, 200));
  loaded.fd_ = memfd_create(memfd_name.c_str(), MFD_CLOEXEC);
  if (loaded.fd_ < 0) return ErrnoToStatus(errno, "memfd_create failed");
  KILN_RETURN_IF_ERROR(WriteAll(loaded.fd_, data, size));

  const std::string path = UniqueLibraryPath(loaded.fd_);
  loaded.handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded.handle_) {
    const char* error = dlerror();
    return FailedPreconditionError("dlopen failed: ",
                                   error ? error : "unknown error");
  }
  auto query = reinterpret_cast<kiln_executable_library_query_fn_t>(
      dlsym(loaded.handle_, KILN_EXECUTABLE_LIBRARY_QUERY_NAME));
  if (!query) {
    return InvalidArgumentError("no symbol '" KILN_EXECUTABLE_LIBRARY_QUERY_NAME
                                "'");
  }
  const kiln_executable_library_header_t** header_ptr =
      query(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST, nullptr);
  if (!header_ptr || !*header_ptr) {
    return UnimplementedError("library cannot serve executable library ABI "
                              "version ",
                              static_cast<int>(
                                  KILN_EXECUTABLE_LIBRARY_VERSION_LATEST));
  }
  const uint32_t version = (*header_ptr)->version;
  if (version != KILN_EXECUTABLE_LIBRARY_VERSION_0) {
    return UnimplementedError("library answered with ABI version ", version,
                              " (this runtime supports version ",
                              static_cast<int>(KILN_EXECUTABLE_LIBRARY_VERSION_0),
                              ")");
  }
  // The query returns a pointer to the header pointer, which is the first
  // member of the versioned library structure.
  loaded.library_ =
      reinterpret_cast<const kiln_executable_library_v0_t*>(header_ptr);
  const kiln_export_table_v0_t& exports = loaded.library_->exports;
  if (exports.count > 0 &&
      (!exports.ptrs || !exports.names || !exports.binding_counts)) {
    return InvalidArgumentError("export table has ", exports.count,
                                " entries but null arrays");
  }
  return loaded;
}

//===----------------------------------------------------------------------===//
// Loading every library of a module
//===----------------------------------------------------------------------===//

Status CheckLibraryImages(const fb::Module& module) {
  const uint32_t library_count =
      module.libraries() ? module.libraries()->size() : 0;
  for (uint32_t i = 0; i < library_count; ++i) {
    const auto* data = module.libraries()->Get(i)->data();
    KILN_RETURN_IF_ERROR(CheckElfImage(data->data(), data->size()), "library ",
                         i);
  }
  return OkStatus();
}

Status LoadLibraries(Module::Impl* impl) {
  const fb::Module& module = *impl->root;
  const uint32_t library_count =
      module.libraries() ? module.libraries()->size() : 0;
  impl->libraries.reserve(library_count);
  for (uint32_t i = 0; i < library_count; ++i) {
    const fb::Library* library = module.libraries()->Get(i);
    std::vector<std::string_view> features;
    for (uint32_t f = 0; f < SizeOf(library->cpu_features()); ++f) {
      features.push_back(StringOf(library->cpu_features()->Get(f)));
    }
    KILN_RETURN_IF_ERROR(CheckCpuFeatures(StringOf(library->cpu()), features,
                                          HostHasCpuFeature),
                         "library ", i);
    const std::string debug_name =
        StrCat("kiln:", module.name() ? module.name()->string_view() : "",
               ":library", i);
    StatusOr<LoadedLibrary> loaded = LoadedLibrary::Load(
        library->data()->data(), library->data()->size(), debug_name);
    if (!loaded.ok()) {
      return std::move(loaded).status().Prepend(StrCat("library ", i));
    }
    impl->libraries.push_back(std::move(loaded).value());
  }

  // Resolve every export against its library's export table.
  const uint32_t executable_count =
      module.executables() ? module.executables()->size() : 0;
  impl->executables.resize(executable_count);
  for (uint32_t i = 0; i < executable_count; ++i) {
    const fb::Executable* executable = module.executables()->Get(i);
    const kiln_export_table_v0_t& table =
        impl->libraries[executable->library()].library().exports;
    const uint32_t export_count =
        executable->exports() ? executable->exports()->size() : 0;
    std::vector<ResolvedExport>& resolved = impl->executables[i];
    resolved.resize(export_count);
    for (uint32_t e = 0; e < export_count; ++e) {
      const fb::Export* ex = executable->exports()->Get(e);
      const std::string_view name = ex->name()->string_view();
      const std::string context =
          StrCat("executable '",
                 executable->name() ? executable->name()->string_view() : "",
                 "' export '", name, "'");
      const uint32_t ordinal = ex->library_ordinal();
      if (ordinal >= table.count) {
        return OutOfRangeError(context, ": library ordinal ", ordinal,
                               " out of range (library ", executable->library(),
                               " has ", table.count, " exports)");
      }
      const char* library_name = table.names[ordinal];
      if (!library_name || name != library_name) {
        return InvalidArgumentError(
            context, ": library ", executable->library(), " export ", ordinal,
            " is named '", library_name ? library_name : "(null)", "'");
      }
      if (table.binding_counts[ordinal] != ex->binding_count()) {
        return InvalidArgumentError(
            context, ": module declares ", ex->binding_count(),
            " bindings but the library export has ",
            table.binding_counts[ordinal]);
      }
      if (!table.ptrs[ordinal]) {
        return InvalidArgumentError(context, ": library entry point is null");
      }
      ResolvedExport& out = resolved[e];
      out.name = name;
      out.function = table.ptrs[ordinal];
      out.binding_count = ex->binding_count();
      for (int d = 0; d < 3; ++d) {
        out.workgroup_count[d] = ex->workgroup_count()->Get(d);
      }
    }
  }
  impl->libraries_loaded = true;
  return OkStatus();
}

}  // namespace kiln
