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
#include "module/loaded_library.h"
#include "module/packed_tables.h"
#include "module/source_registry.h"

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
  // The module's code variants described, and the one chosen at load
  // (ChooseVariant): every read of the executables goes through `variant`.
  std::vector<CodeVariantInfo> variants;
  uint32_t variant_index = 0;
  const fb::CodeVariant* variant = nullptr;
  // The chosen variant's executables[executable][export]; empty unless
  // libraries_loaded.
  std::vector<std::vector<ResolvedExport>> executables;
  bool libraries_loaded = false;
  // The chosen variant's libraries, in the order of
  // variants[variant_index].libraries. Unloaded before the bytes above go
  // away (see ~Impl).
  std::vector<LoadedLibrary> libraries;
  // library_exports[i][ordinal]: the (executable, export) pair of the
  // export at that ordinal of libraries[i], or kNoExport; for mapping code
  // addresses (Module::LocateCode).
  static constexpr uint32_t kNoExport = 0xFFFFFFFF;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> library_exports;
  // Each library's address -> line rows, unpacked on first use (set once
  // verified).
  std::unique_ptr<UnpackedTables<LibraryLineRow>> library_lines;
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

/// The row of an unpacked address -> line table (Library.lines) whose range
/// holds `offset`: the last one at or before it, unless that row is outside
/// every export; null before the first row, past the last, or outside.
const LibraryLineRow* FindLibraryLine(const std::vector<LibraryLineRow>& lines,
                                      uint64_t offset);

/// Runs the FlatBuffers verifier and every semantic check over impl->data
/// (including the debug information and source table); fills impl->root,
/// sources, signatures and functions.
Status VerifyModule(Module::Impl* impl, uint64_t max_buffer_bytes);

/// ModuleLoadOptions::max_buffer_bytes with 0 resolved to the machine's
/// physical memory.
uint64_t EffectiveMaxBufferBytes(const ModuleLoadOptions& options);

/// A view of a tensor type stored in the module (its dims point into it).
TensorTypeView TensorTypeViewOf(const fb::TensorType& type);

/// Where the limit on what a module may allocate comes from, as errors
/// that meet it name it.
inline constexpr std::string_view kBufferLimitSource =
    "ModuleLoadOptions::max_buffer_bytes; default: physical memory";

/// Describes the verified module's code variants (impl->variants: their
/// libraries, and whether this machine can run them) and chooses one by
/// ModuleLoadOptions::variant (impl->variant, variant_index). With
/// load_libraries the machine must be able to run the one chosen.
Status ChooseVariant(Module::Impl* impl, const ModuleLoadOptions& options);

/// Loads the libraries of the chosen variant, resolves its exports and
/// checks them and the dispatches against each library's description of
/// its code; fills impl->libraries and impl->executables and sets
/// libraries_loaded. With ModuleLoadOptions::perf_visible_libraries
/// (or KILN_PERF=1) the libraries are loaded from files perf can read.
Status LoadLibraries(Module::Impl* impl, const ModuleLoadOptions& options);

/// Fails, naming them, when `has_feature` (HostHasCpuFeature in the
/// runtime) says a feature a library may use is absent or cannot say.
Status CheckCpuFeatures(
    std::string_view cpu, const std::vector<std::string_view>& features,
    const std::function<std::optional<bool>(std::string_view)>& has_feature);

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_MODULE_IMPL_H_
