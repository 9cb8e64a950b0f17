//===- module.cc - Module loading -----------------------------------------===//

#include "kiln/module.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "kiln/printable.h"
#include "kiln/trace.h"
#include "module/elf_image.h"
#include "module/module_impl.h"
#include "module/source_registry.h"

namespace kiln {

std::string FunctionSignature::ToString() const {
  auto append = [](std::string* out, const std::vector<TensorType>& types,
                   const std::vector<std::string>& names) {
    for (size_t i = 0; i < types.size(); ++i) {
      if (i) out->append(", ");
      if (i < names.size() && !names[i].empty()) {
        out->append(Printable(names[i]));
        out->append(": ");
      }
      out->append(types[i].ToString());
    }
  };
  std::string out = name;
  out.push_back('(');
  append(&out, arguments, argument_names);
  out.append(") -> (");
  append(&out, results, result_names);
  out.push_back(')');
  return out;
}

std::optional<size_t> FunctionSignature::FindArgument(
    std::string_view name) const {
  for (size_t i = 0; i < argument_names.size(); ++i) {
    if (argument_names[i] == name) return i;
  }
  return std::nullopt;
}

namespace {
constexpr std::string_view kExportQualifier = "::";
}  // namespace

std::string QualifiedExportName(std::string_view executable,
                                std::string_view export_name) {
  return StrCat(executable, kExportQualifier, export_name);
}

Module::Impl::~Impl() {
  // Tear down in reverse order of loading: libraries, then the bytes. A
  // library does not point into the bytes, so it may stay.
  if (GetTracer().ResolvesCodeLate()) {
    RetainUntilExit(std::move(libraries));
  }
  libraries.clear();
  if (mapping) ::munmap(mapping, mapping_size);
  std::free(owned_copy);
}

Module::Module(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {
  // The source table goes to the tracer by reference: no copy, no
  // allocation (the registry node lives in the module).
  Impl& impl_ref = *impl_;
  PublishedSources& published = impl_ref.published.sources;
  published.module = this;
  published.table = &impl_ref.sources;
  published.module_name = name();
  SourceRegistry::Global().Add(&impl_ref.published);
  GetTracer().PublishSources(published);
}

Module::~Module() {
  GetTracer().UnpublishSources(impl_->published.sources);
  // Waits for any lookup of this module's texts (a profiler's thread) to
  // finish; later lookups no longer see it.
  SourceRegistry::Global().Remove(&impl_->published);
}

StatusOr<std::shared_ptr<const Module>> Module::Create(
    std::unique_ptr<Impl> impl, const ModuleLoadOptions& options) {
  KILN_RETURN_IF_ERROR(
      VerifyModule(impl.get(), EffectiveMaxBufferBytes(options)));
  KILN_RETURN_IF_ERROR(ChooseVariant(impl.get(), options));
  // Every library is checked as an image, loaded or not (whether a module
  // is valid does not depend on the machine that loads it), before any is
  // loaded.
  if (options.load_libraries) {
    KILN_RETURN_IF_ERROR(CheckLibraryImages(
        *impl->root, impl->variants[impl->variant_index].libraries));
    KILN_RETURN_IF_ERROR(LoadLibraries(impl.get(), options));
  } else {
    KILN_RETURN_IF_ERROR(CheckLibraryImages(*impl->root));
  }
  return std::shared_ptr<const Module>(new Module(std::move(impl)));
}

StatusOr<std::shared_ptr<const Module>> Module::Load(
    const std::string& path, const ModuleLoadOptions& options) {
  TraceSite site;
  site.kind = ZoneKind::kModuleLoad;
  site.name = path;
  // No file: a profiler would read the binary module as source text.
  ScopedZone zone(site);
  const std::string context = StrCat("cannot load '", path, "'");
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
  // below as not a regular file).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
  // Read into private memory rather than mapped from the file: the module
  // is verified once and then trusted, so a file rewritten or truncated
  // while it runs must not change (or unmap) what was verified. Pages come
  // page-aligned (constants keep their 64-byte alignment) and are made
  // read-only once filled, like a read-only mapping.
  auto impl = std::make_unique<Impl>();
  impl->mapping_size = static_cast<size_t>(st.st_size);
  void* memory = ::mmap(nullptr, impl->mapping_size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    const int error = errno;
    ::close(fd);
    return ErrnoToStatus(error, StrCat(context, ": cannot allocate ",
                                       impl->mapping_size, " bytes"));
  }
  impl->mapping = memory;
  // Huge pages where the kernel allows them: reading 100 MB faults in
  // 25,600 small pages otherwise, a fifth of the read time. Advice only.
  (void)::madvise(memory, impl->mapping_size, MADV_HUGEPAGE);
  auto* bytes = static_cast<uint8_t*>(memory);
  size_t done = 0;
  while (done < impl->mapping_size) {
    const ssize_t n = ::read(fd, bytes + done, impl->mapping_size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : 0;
      ::close(fd);
      if (error != 0) return ErrnoToStatus(error, context);
      return DataLossError(context, ": file shrank from ", impl->mapping_size,
                           " to ", done, " bytes while it was read");
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (::mprotect(memory, impl->mapping_size, PROT_READ) != 0) {
    return ErrnoToStatus(errno, context);
  }
  impl->data = bytes;
  impl->size = impl->mapping_size;
  StatusOr<std::shared_ptr<const Module>> module =
      Create(std::move(impl), options);
  if (!module.ok()) return std::move(module).status().Prepend(context);
  return module;
}

StatusOr<std::shared_ptr<const Module>> Module::LoadFromMemory(
    const void* data, size_t size, MemoryMode mode,
    const ModuleLoadOptions& options) {
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
  return Create(std::move(impl), options);
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
  return NotFoundError("no function '", name, "' (available: ", available, ")");
}

bool Module::libraries_loaded() const { return impl_->libraries_loaded; }

const std::vector<CodeVariantInfo>& Module::variants() const {
  return impl_->variants;
}

uint32_t Module::variant_index() const { return impl_->variant_index; }

std::string_view Module::variant_name() const {
  return impl_->variants[impl_->variant_index].name;
}

//===----------------------------------------------------------------------===//
// Executables and debug information
//===----------------------------------------------------------------------===//

uint32_t Module::debug_level() const { return impl_->root->debug_level(); }

uint32_t Module::capture_stage_count() const {
  const auto* stages = impl_->root->capture_stages();
  return stages ? stages->size() : 0;
}

std::string_view Module::capture_stage(uint32_t stage) const {
  return impl_->root->capture_stages()->Get(stage)->string_view();
}

std::optional<uint32_t> Module::FindCaptureStage(std::string_view name) const {
  for (uint32_t i = 0; i < capture_stage_count(); ++i) {
    if (capture_stage(i) == name) return i;
  }
  return std::nullopt;
}

const SourceTable& Module::sources() const { return impl_->sources; }

uint32_t Module::executable_count() const {
  return SizeOf(impl_->variant->executables());
}

std::string_view Module::executable_name(uint32_t executable) const {
  return StringOf(impl_->variant->executables()->Get(executable)->name());
}

uint32_t Module::export_count(uint32_t executable) const {
  return SizeOf(impl_->variant->executables()->Get(executable)->exports());
}

StatusOr<ExportView> Module::GetExport(uint32_t executable,
                                       uint32_t export_index) const {
  if (executable >= executable_count()) {
    return OutOfRangeError("executable ", executable, " out of range (",
                           executable_count(), " executables)");
  }
  if (export_index >= export_count(executable)) {
    return OutOfRangeError("export ", export_index,
                           " out of range (executable '",
                           executable_name(executable), "' has ",
                           export_count(executable), " exports)");
  }
  return ExportView(impl_->root, impl_->variant, executable, export_index);
}

const LibraryLineRow* FindLibraryLine(const std::vector<LibraryLineRow>& lines,
                                      uint64_t offset) {
  // Upper bound: the first row after `offset` (offsets strictly increase).
  const auto after = std::upper_bound(
      lines.begin(), lines.end(), offset,
      [](uint64_t at, const LibraryLineRow& row) { return at < row.offset; });
  if (after == lines.begin()) return nullptr;
  const LibraryLineRow& row = *(after - 1);
  return row.export_ordinal == KILN_LIBRARY_LINE_OUTSIDE_EXPORTS ? nullptr
                                                                 : &row;
}

// The unpacked rows of library `index` (unpacked on first use).
static const StatusOr<std::vector<LibraryLineRow>>& LibraryLines(
    const fb::Module& root, Module::Impl& impl, uint32_t index) {
  return impl.library_lines->Get(
      index, [&] { return UnpackLibraryLines(root, index); });
}

Status Module::UnpackCodeLines() const {
  for (const uint32_t i : impl_->variants[impl_->variant_index].libraries) {
    KILN_RETURN_IF_ERROR(LibraryLines(*impl_->root, *impl_, i).status());
  }
  return OkStatus();
}

std::optional<CodeLocation> Module::LocateCode(uintptr_t address) const {
  const fb::Module& root = *impl_->root;
  for (uint32_t i = 0; i < impl_->libraries.size(); ++i) {
    const uintptr_t base = impl_->libraries[i].base();
    if (address < base) continue;
    const StatusOr<std::vector<LibraryLineRow>>& lines = LibraryLines(
        root, *impl_, impl_->variants[impl_->variant_index].libraries[i]);
    if (!lines.ok()) continue;
    const LibraryLineRow* row = FindLibraryLine(*lines, address - base);
    if (!row) continue;
    const std::vector<std::pair<uint32_t, uint32_t>>& exports =
        impl_->library_exports[i];
    if (row->export_ordinal >= exports.size()) continue;
    const auto [executable, export_index] = exports[row->export_ordinal];
    if (executable == Impl::kNoExport) continue;
    const ExportView view(&root, impl_->variant, executable, export_index);
    CodeLocation location{view, row->source, row->line, {}};
    if (location.line == 0) return location;
    if (row->source & KILN_LIBRARY_LINE_INPUT_FILE) {
      location.source = kNoSource;
      location.path =
          sources().input_file(row->source & ~KILN_LIBRARY_LINE_INPUT_FILE);
    } else {
      location.path = sources().file(row->source).path;
    }
    return location;
  }
  return std::nullopt;
}

StatusOr<ExportView> Module::FindExport(std::string_view name) const {
  // Exact export names first, then EXECUTABLE::EXPORT.
  std::optional<ExportView> found;
  std::string matches;
  size_t match_count = 0;
  for (uint32_t e = 0; e < executable_count(); ++e) {
    for (uint32_t x = 0; x < export_count(e); ++x) {
      ExportView view(impl_->root, impl_->variant, e, x);
      if (view.name() != name) continue;
      if (!found) found = view;
      ++match_count;
      matches.append(matches.empty() ? "" : ", ")
          .append(QualifiedExportName(executable_name(e), name));
    }
  }
  if (match_count == 1) return *found;
  if (match_count > 1) {
    return InvalidArgumentError("export name '", name, "' is ambiguous (",
                                matches, "); qualify it as EXECUTABLE::EXPORT");
  }
  if (const size_t colons = name.find(kExportQualifier);
      colons != std::string_view::npos) {
    const std::string_view executable = name.substr(0, colons);
    const std::string_view export_name =
        name.substr(colons + kExportQualifier.size());
    for (uint32_t e = 0; e < executable_count(); ++e) {
      if (executable_name(e) != executable) continue;
      for (uint32_t x = 0; x < export_count(e); ++x) {
        ExportView view(impl_->root, impl_->variant, e, x);
        if (view.name() == export_name) return view;
      }
    }
  }
  // List what exists, a bounded number of names.
  constexpr size_t kMaxListed = 50;
  std::string available;
  size_t total = 0;
  for (uint32_t e = 0; e < executable_count(); ++e) {
    for (uint32_t x = 0; x < export_count(e); ++x, ++total) {
      if (total >= kMaxListed) continue;
      available.append(available.empty() ? "" : ", ")
          .append(ExportView(impl_->root, impl_->variant, e, x).name());
    }
  }
  if (total == 0) {
    return NotFoundError("no export '", name, "': the module has no exports");
  }
  if (total > kMaxListed) {
    available.append(StrCat(", ... (", total - kMaxListed, " more)"));
  }
  return NotFoundError("no export '", name, "' (available: ", available, ")");
}

const fb::Module& Module::flatbuffer() const { return *impl_->root; }
const uint8_t* Module::data() const { return impl_->data; }
size_t Module::size() const { return impl_->size; }

}  // namespace kiln
