//===- debug_info.h - Views of exports and their debug information -*- C++ -*-===//
//
// What a module records about each export (one entry point of an
// executable): its name, workgroup count and binding types, and, depending
// on --executable-debug-level, its canonical location in the input program
// (level >= 1), the input ops fused into it (level >= 2) and its line in each
// captured stage text (level 3). Everything here is a view into the verified
// module: nothing is copied, nothing allocates, and every value is valid
// while the Module lives. Get one from Module::GetExport / FindExport.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DEBUG_INFO_H_
#define KILN_DEBUG_INFO_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kiln/tensor.h"

namespace kiln {

namespace fb {
struct Module;
struct CodeVariant;
struct Executable;
struct Export;
}  // namespace fb

/// A position in a text file; line and column are 1-based (0: unknown).
struct SourceLocationView {
  std::string_view file;
  uint32_t line = 0;
  uint32_t column = 0;

  /// False when the module records no location (file is empty).
  bool known() const { return !file.empty(); }
  /// "file:line:column", "file:line" (column 0), "file" (line 0) or "".
  std::string ToString() const;
};

/// The node of an imported model (ONNX) an input op stands for; all empty
/// for ops of a program written as MLIR.
struct InputNodeView {
  std::string_view name;     // e.g. "/layer1/layer1.0/conv1/Conv"
  std::string_view op_type;  // e.g. "Conv"
  std::string_view scope;    // the exporter's module path, if it gave one
  std::string_view source;   // the exporter's source line, if it gave one
  bool known() const { return !name.empty() || !op_type.empty(); }
};

/// An op of the input program computed by a dispatch (level >= 2).
struct FusedOpView {
  std::string_view name;  // e.g. "linalg.matmul"
  SourceLocationView location;
  InputNodeView node;
  /// The last line of the op's text (its regions); location.line for an op
  /// on one line, and in modules that do not record it.
  uint32_t last_line = 0;
  /// Which dispatch sharing the export's kernel computes the op: 0 for the
  /// export's own, 1, 2, ... for identical kernels merged into it.
  uint32_t site = 0;
  /// The kernel op computing it (its position among the kernel's ops): ops
  /// of two sites with the same kernel_op stand for each other.
  uint32_t kernel_op = 0;
};

/// Where an export's entry function stands in one captured stage text.
struct StageLocationView {
  uint32_t stage = 0;           // index into Module::capture_stage()
  std::string_view stage_name;  // e.g. "1.configured"
  uint32_t source = 0;          // index into Module::sources()
  std::string_view path;        // the source file's path
  uint32_t line = 0;            // 1-based
};

/// A tensor type stored in the module (binding types); `dims` points into the
/// module and holds `rank` entries.
struct TensorTypeView {
  ElementType element_type = ElementType::kF32;
  const int64_t* dims = nullptr;
  uint32_t rank = 0;

  /// An owned copy.
  TensorType ToTensorType() const;
  /// "4x16xf32".
  std::string ToString() const;
  bool operator==(const TensorType& type) const;
  bool operator!=(const TensorType& type) const { return !(*this == type); }
  /// Whether a tensor of `type` may be bound here: equal, except that a
  /// dynamic dimension (KILN_DYNAMIC_DIMENSION) takes any extent.
  bool Admits(const TensorType& type) const;
};

/// One export of a verified module. Cheap to copy (a few pointers); O(1) to
/// get from a dispatch's (executable, export) pair.
class ExportView {
 public:
  ExportView() = default;
  /// Used by Module: `variant` is one of the verified module's code
  /// variants, both indices in range of its executables.
  ExportView(const fb::Module* module, const fb::CodeVariant* variant,
             uint32_t executable_index, uint32_t export_index);

  uint32_t executable_index() const { return executable_index_; }
  uint32_t export_index() const { return export_index_; }
  std::string_view executable_name() const;
  std::string_view name() const;
  /// Number of buffer bindings (inputs first, then outputs).
  uint32_t binding_count() const;
  /// Number of index values a dispatch passes besides its bindings.
  uint32_t index_constant_count() const;
  /// Workgroup count (x, y, z) it was compiled for; over dynamic extents,
  /// the static factor of each dimension.
  std::array<uint32_t, 3> workgroup_count() const;
  /// The factors a dispatch's dynamic extents add to its workgroup count:
  /// along `dimension`, ceil(constants[constant] / tile).
  struct WorkgroupTile {
    uint32_t dimension = 0;
    uint32_t constant = 0;
    uint32_t tile = 1;
  };
  std::vector<WorkgroupTile> workgroup_tiles() const;
  /// Pairs of dispatch constants the code takes to be equal (one loop runs
  /// over both): a dispatch whose constants differ is refused.
  std::vector<std::pair<uint32_t, uint32_t>> equal_constants() const;
  /// Constants whose tiles the code takes to cover another: constant
  /// `tiles` times `tile` at least constant `extent`, or the dispatch is
  /// refused.
  struct CoveringTiles {
    uint32_t tiles = 0;
    uint32_t extent = 0;
    uint32_t tile = 1;
  };
  std::vector<CoveringTiles> covering_tiles() const;

  /// True when the module records the type of every binding.
  bool has_binding_types() const;
  /// Type of binding `index` (< binding_count()); requires
  /// has_binding_types().
  TensorTypeView binding_type(uint32_t index) const;

  /// Canonical location in the input program (unknown below level 1).
  SourceLocationView location() const;

  /// Input ops fused into this dispatch (none below level 2).
  uint32_t provenance_count() const;
  FusedOpView provenance(uint32_t index) const;

  /// The entry's line in each captured stage, sorted by stage (level 3).
  uint32_t stage_location_count() const;
  StageLocationView stage_location(uint32_t index) const;
  /// The entry's location in stage `stage` (binary search), if captured.
  std::optional<StageLocationView> FindStageLocation(uint32_t stage) const;

  /// Where a trace zone for this export points: the entry's line in the text
  /// of stage `stage` when captured (file = that source's path, column 0),
  /// otherwise the canonical location (possibly unknown).
  SourceLocationView TraceLocation(uint32_t stage) const;

 private:
  const fb::Module* module_ = nullptr;
  const fb::Executable* executable_ = nullptr;
  const fb::Export* export_ = nullptr;
  uint32_t executable_index_ = 0;
  uint32_t export_index_ = 0;
};

/// Where a code address lies: in which export's code and, when the module's
/// address -> line table knows, on which line of which text: an embedded
/// one, or an input file the module names but does not embed.
struct CodeLocation {
  ExportView export_view;
  /// Index into Module::sources() when line > 0; kNoSource for a line of
  /// an input file the module does not embed.
  uint32_t source = 0;
  uint32_t line = 0;      // 1-based; 0: no line known
  std::string_view path;  // the text's path when line > 0
};

}  // namespace kiln

#endif  // KILN_DEBUG_INFO_H_
