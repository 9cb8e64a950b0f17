//===- module_impl.h - Internal state of a loaded Module -----------*- C++ -*-===//
//
// Shared by the loader, the verifier and the Context. Not a public header.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_MODULE_IMPL_H_
#define KILN_RUNTIME_MODULE_MODULE_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cpu/host_cpu_features.h"
#include "kiln/executable_library.h"
#include "kiln/module.h"
#include "kiln/module_generated.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/trace.h"
#include "trace/source_registry.h"

namespace kiln {

/// Most workgroups one dispatch may have; larger counts are corrupt.
inline constexpr uint64_t kMaxWorkgroupsPerDispatch = uint64_t{1} << 32;

/// A slot's type with its byte size, computed once at load. A dynamic type
/// (some dimension KILN_DYNAMIC_DIMENSION) has its byte size and dimensions
/// from what the slot holds: a call keeps the slot's shape at
/// `dims_offset` of its dimension array.
struct SlotInfo {
  TensorType type;
  uint64_t byte_size = 0;  // 0 when dynamic
  bool dynamic = false;
  uint32_t dims_offset = 0;
};

/// A verified host function, ready to run.
struct FunctionPlan {
  const fb::Function* function = nullptr;
  std::vector<SlotInfo> slots;
  std::vector<uint32_t> argument_slots;
  /// Byte size of each buffer its dispatches write results into.
  std::vector<uint64_t> buffer_sizes;
  /// Whether the body has check instructions, which need a CheckHandler.
  bool has_checks = false;
  /// Total rank of the dynamic slots.
  uint32_t dynamic_dims = 0;
  /// Number of index registers.
  uint32_t index_count = 0;
};

/// An export resolved against its native library.
struct ResolvedExport {
  std::string_view name;  // points into the module
  kiln_dispatch_fn_v0_t function = nullptr;
  /// What the library says the code was built for (in the loaded library).
  const kiln_export_descriptor_v1_t* descriptor = nullptr;
  uint32_t workgroup_count[3] = {1, 1, 1};
  /// The dispatch constants, (binding, dimension) for each extent the
  /// descriptor leaves KILN_DIMENSION_ANY, in order.
  std::vector<std::pair<uint32_t, uint32_t>> constant_dims;
  /// Dispatch constants after those: index values the dispatch passes.
  uint32_t index_constant_count = 0;
  /// Export.workgroup_tiles and equal_constants (in the module; null when
  /// absent).
  const flatbuffers::Vector<const fb::WorkgroupTile*>* workgroup_tiles =
      nullptr;
  const flatbuffers::Vector<uint32_t>* equal_constants = nullptr;
  /// Export.covering_tiles (in the module; null when absent).
  const flatbuffers::Vector<const fb::CoveringTiles*>* covering_tiles =
      nullptr;
};

/// A native library loaded with dlopen. Owns the handle and the file (a
/// memfd, or a file perf can read) it was loaded from: the fd stays open
/// while the library is loaded so that its /proc/PID/fd/N name cannot be
/// reused by another library (dlopen would return the already-loaded one for
/// an equal name).
class LoadedLibrary {
 public:
  LoadedLibrary() = default;
  ~LoadedLibrary();
  LoadedLibrary(LoadedLibrary&& other) noexcept;
  LoadedLibrary& operator=(LoadedLibrary&& other) noexcept;
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  /// Writes `data` to a memfd, or with a non-empty `perf_directory` to the
  /// file <hash>.so there (reused when its bytes are `data`), and dlopens
  /// it; checks the ABI version.
  static StatusOr<LoadedLibrary> Load(const uint8_t* data, size_t size,
                                      std::string_view debug_name,
                                      const std::string& perf_directory = {});

  const kiln_executable_library_v1_t& library() const { return *library_; }
  /// Where the dynamic loader placed the image: address 0 of the library
  /// (and of its LibraryLine offsets) is this address in the process.
  uintptr_t base() const { return base_; }

 private:
  void Reset();

  int fd_ = -1;
  uintptr_t base_ = 0;
  void* handle_ = nullptr;
  const kiln_executable_library_v1_t* library_ = nullptr;
};

/// Keeps `libraries` loaded, their files open, until the process exits (for
/// a tracer that ResolvesCodeLate).
void RetainUntilExit(std::vector<LoadedLibrary> libraries);

struct Module::Impl {
  ~Impl();

  // Backing bytes: the file read into private read-only pages (mapping),
  // an owned copy, or borrowed memory.
  void* mapping = nullptr;
  size_t mapping_size = 0;
  void* owned_copy = nullptr;  // from aligned_alloc
  const uint8_t* data = nullptr;
  size_t size = 0;

  const fb::Module* root = nullptr;
  // ModuleLoadOptions::max_buffer_bytes resolved: also bounds the values
  // whose size is known only at run time.
  uint64_t max_buffer_bytes = 0;
  // A view of root's source table (set once verified).
  SourceTable sources;
  // `sources` as published to the tracer and the source registry while
  // the module is loaded.
  SourceRegistry::Entry published;
  std::vector<FunctionSignature> signatures;
  std::vector<FunctionPlan> functions;
  // executables[executable][export]; empty unless libraries_loaded.
  std::vector<std::vector<ResolvedExport>> executables;
  bool libraries_loaded = false;
  // Unloaded before the bytes above go away (see ~Impl).
  std::vector<LoadedLibrary> libraries;
  // library_exports[library][ordinal]: the (executable, export) pair of the
  // module's export at that library ordinal, or kNoExport; for mapping
  // code addresses (Module::LocateCode).
  static constexpr uint32_t kNoExport = 0xFFFFFFFF;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> library_exports;
};

/// Length of an optional FlatBuffers vector (0 when absent).
template <typename T>
uint32_t SizeOf(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

/// An optional FlatBuffers string ("" when absent).
inline std::string_view StringOf(const flatbuffers::String* s) {
  return s ? s->string_view() : std::string_view();
}

/// The row of a verified address -> line table (Library.lines) whose range
/// holds `offset`: the last one at or before it, unless that row is outside
/// every export; null before the first row, past the last, or outside.
const fb::LibraryLine* FindLibraryLine(
    const flatbuffers::Vector<const fb::LibraryLine*>* lines, uint64_t offset);

/// Runs the FlatBuffers verifier and every semantic check over impl->data
/// (including the debug information and source table); fills impl->root,
/// sources, signatures and functions.
Status VerifyModule(Module::Impl* impl, uint64_t max_buffer_bytes);

/// ModuleLoadOptions::max_buffer_bytes with 0 resolved to the machine's
/// physical memory.
uint64_t EffectiveMaxBufferBytes(const ModuleLoadOptions& options);

/// Checks every library of the verified module as an ELF image without
/// loading it (for modules loaded without their libraries).
Status CheckLibraryImages(const fb::Module& module);

/// Loads every library of the verified module, resolves every export and
/// checks the module's exports and dispatches against each library's
/// description of its code; fills impl->libraries and impl->executables and
/// sets libraries_loaded. With ModuleLoadOptions::perf_visible_libraries
/// (or KILN_PERF=1) the libraries are loaded from files perf can read.
Status LoadLibraries(Module::Impl* impl, const ModuleLoadOptions& options);

/// Checks that `data` looks like an x86-64 ELF shared object whose program
/// headers and segments lie inside it (dlopen would otherwise map past the
/// end of the image and fault), and that loading it runs none of its code
/// and maps no writable code: no initializers or finalizers, IFUNC
/// relocations, DT_NEEDED (or filter) entries, text relocations,
/// writable+executable segments or executable stack. Every table the
/// dynamic loader reads through the dynamic section (strings, symbols, hash
/// tables, relocations) lies whole in a loaded segment, with the indices it
/// holds inside the tables they index, and relocations write only inside
/// writable segments: the loader itself trusts all of it.
Status CheckElfImage(const uint8_t* data, size_t size);

/// The end of the address range the library in `data` maps (its loadable
/// segments' highest end; the image is linked at address 0), once it passes
/// CheckElfImage.
StatusOr<uint64_t> LibraryImageEnd(const uint8_t* data, size_t size);

/// Fails, naming them, when `has_feature` (HostHasCpuFeature in the
/// runtime) says a feature a library may use is absent or cannot say.
Status CheckCpuFeatures(
    std::string_view cpu, const std::vector<std::string_view>& features,
    const std::function<std::optional<bool>(std::string_view)>& has_feature);

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_MODULE_IMPL_H_
