//===- module.h - Loading and verifying kiln modules ---------------*- C++ -*-===//
//
// A Module is a verified, immutable view of a .kiln file plus the native
// libraries of the code variant it runs (the module's code for one CPU),
// loaded and resolved. Everything the runtime later trusts (indices, sizes,
// types, branch targets, slot definitions in straight-line functions) is
// checked at load, so execution needs no further validation beyond one
// thing: in a function with branches, whether a slot read on the path taken
// was written (the Context reports that as an error). A Module may be
// shared by several threads, each running its own Context.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_H_
#define KILN_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/debug_info.h"
#include "kiln/module_format.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

namespace fb {
struct Module;  // schema/module.fbs, generated in kiln/module_generated.h
}  // namespace fb

inline constexpr uint32_t kModuleVersion = KILN_MODULE_VERSION;

/// The signature of a host function.
struct FunctionSignature {
  std::string name;
  std::vector<TensorType> arguments;
  std::vector<TensorType> results;
  /// What the imported model (ONNX) calls each argument and result (its
  /// graph's inputs and outputs); empty for a program written as MLIR.
  std::vector<std::string> argument_names;
  std::vector<std::string> result_names;

  /// "main(4x8xf32, 8x16xf32) -> (4x16xf32)", or with names
  /// "main(input: 1x3x224x224xf32) -> (output: 1x1000xf32)".
  std::string ToString() const;
  /// The index of the argument named `name`, if one is.
  std::optional<size_t> FindArgument(std::string_view name) const;
};

/// How a module is loaded.
struct ModuleLoadOptions {
  /// Load the native libraries of the code variant chosen (`variant`) and
  /// resolve its exports: needed to run anything. Without it the module is
  /// verified all the same (every library is checked as an ELF image) but no
  /// code is mapped, so a module built for another CPU can be inspected;
  /// Context refuses to run such a module.
  bool load_libraries = true;
  /// Largest buffer (one value of a host function) the module may need;
  /// a module that needs more is refused at load, before anything is
  /// allocated. 0: this machine's physical memory.
  uint64_t max_buffer_bytes = 0;
  /// Load each library from a file that Linux perf can still read after the
  /// process exits (so `perf report` names exports and stage-text lines),
  /// rather than from an anonymous memfd. Also on when the environment has
  /// KILN_PERF=1. The file is <hash>.so (XXH3-64 of its bytes) in
  /// $KILN_PERF_DIR, else $XDG_CACHE_HOME/kiln/libraries, else
  /// ~/.cache/kiln/libraries; an existing one is reused when its bytes are
  /// the library's. Nothing removes these files: delete the directory.
  bool perf_visible_libraries = false;
  /// The code variant to use, by name (CodeVariantInfo::name); empty: the
  /// first this machine can run. With load_libraries the machine must be
  /// able to run it; without, an empty name takes the first it can run, or
  /// else the first. A name the module does not have is an error.
  std::string variant;
};

/// One of a module's code variants: its executables and libraries compiled
/// for one CPU. The host functions are the module's, common to all. The
/// views point into the module.
struct CodeVariantInfo {
  /// "cpu" for a module compiled for one CPU, else the `--cpu` entry it was
  /// compiled for, e.g. "x86-64-v4".
  std::string_view name;
  /// The CPU its libraries were compiled for (its first library's; "" when
  /// it has none).
  std::string_view cpu;
  /// Its libraries: indices into the module's (fb::Module::libraries),
  /// ascending.
  std::vector<uint32_t> libraries;
  /// The instruction-set features its libraries may use (LLVM's x86 names),
  /// each once.
  std::vector<std::string_view> cpu_features;
  /// Why this machine cannot run it, e.g. "library 0: compiled for CPU
  /// 'x86-64-v4' with instructions this machine lacks: avx512f"; empty when
  /// it can.
  std::string unsupported;

  bool supported() const { return unsupported.empty(); }
};

/// "EXECUTABLE::EXPORT": how tools and errors name an export of one
/// executable, and how Module::FindExport takes it.
std::string QualifiedExportName(std::string_view executable,
                                std::string_view export_name);

class Module {
 public:
  /// What LoadFromMemory does with the caller's bytes.
  enum class MemoryMode {
    kBorrow,  // use in place: the bytes must outlive the module
    kCopy,    // copy into a 64-byte aligned buffer owned by the module
  };

  /// Reads `path` into private read-only memory (a file changed or truncated
  /// afterwards does not affect the module), verifies it and loads its
  /// libraries.
  static StatusOr<std::shared_ptr<const Module>> Load(
      const std::string& path, const ModuleLoadOptions& options = {});
  /// Same from bytes in memory. Borrowed bytes must be 64-byte aligned:
  /// constants are used in place and kernels may assume their alignment.
  static StatusOr<std::shared_ptr<const Module>> LoadFromMemory(
      const void* data, size_t size, MemoryMode mode,
      const ModuleLoadOptions& options = {});

  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// Module.name ("" when absent).
  std::string_view name() const;
  /// Signatures of the host functions, in module order.
  const std::vector<FunctionSignature>& functions() const;
  /// Index of the function called `name`; the error lists the functions
  /// that exist.
  StatusOr<size_t> FindFunction(std::string_view name) const;

  /// False when loaded with ModuleLoadOptions::load_libraries unset.
  bool libraries_loaded() const;

  /// The code variants, in the module's order of preference (at least one).
  const std::vector<CodeVariantInfo>& variants() const;
  /// The variant chosen at load (ModuleLoadOptions::variant): an index into
  /// variants(). The executables (executable_count() and on), exports and
  /// code locations below are its; only its libraries are loaded.
  uint32_t variant_index() const;
  std::string_view variant_name() const;

  //===--------------------------------------------------------------------===//
  // Executables and debug information (views into the module; no copies)
  //===--------------------------------------------------------------------===//

  /// --executable-debug-level the module was compiled with (0 to 3 today).
  uint32_t debug_level() const;
  /// Names of the captured stages in pipeline order ("0.source", ...);
  /// StageLocationView::stage indexes them.
  uint32_t capture_stage_count() const;
  std::string_view capture_stage(uint32_t stage) const;
  /// Index of the first stage called `name`.
  std::optional<uint32_t> FindCaptureStage(std::string_view name) const;

  /// The source table; its address is stable for the module's lifetime.
  const SourceTable& sources() const;

  uint32_t executable_count() const;
  std::string_view executable_name(uint32_t executable) const;
  uint32_t export_count(uint32_t executable) const;
  /// Export `export_index` of executable `executable` (a DispatchOp's pair).
  StatusOr<ExportView> GetExport(uint32_t executable,
                                 uint32_t export_index) const;
  /// The export called `name` in any executable, or `EXECUTABLE::EXPORT`
  /// (QualifiedExportName) to pick one of several with that name; the error
  /// lists the exports.
  StatusOr<ExportView> FindExport(std::string_view name) const;

  /// The export and line of the code at `address` when it lies in an
  /// export of one of this module's loaded libraries, through the module's
  /// address -> line table (a binary search per library; no allocation
  /// once the tables are unpacked, so a sampler may call it for every
  /// sample); none otherwise, and always for a module without the table,
  /// without its libraries loaded, or whose table is bad.
  std::optional<CodeLocation> LocateCode(uintptr_t address) const;
  /// Unpacks and checks the address -> line table of every library of the
  /// chosen variant, which LocateCode otherwise unpacks on first use; the
  /// error of a bad table.
  Status UnpackCodeLines() const;

  /// The verified FlatBuffer (include kiln/module_generated.h to use it).
  const fb::Module& flatbuffer() const;
  /// The module's bytes (mapped, copied or borrowed).
  const uint8_t* data() const;
  size_t size() const;

  struct Impl;  // module/module_impl.h

 private:
  friend class Context;
  explicit Module(std::unique_ptr<Impl> impl);
  static StatusOr<std::shared_ptr<const Module>> Create(
      std::unique_ptr<Impl> impl, const ModuleLoadOptions& options);

  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln

#endif  // KILN_MODULE_H_
