//===- debug_info.cc - Views of exports and their debug information -------===//
//
// Reads the verified module in place: indices, counts, sort orders and the
// presence of strings were all checked at load (verifier.cc,
// verify_debug_info.cc).
//
//===----------------------------------------------------------------------===//

#include "kiln/debug_info.h"

#include <algorithm>

#include "kiln/module_generated.h"
#include "module/module_impl.h"

namespace kiln {

// TensorTypeView::dims points at the module's int64 vectors directly.
static_assert(FLATBUFFERS_LITTLEENDIAN,
              "binding type views assume a little-endian host");

namespace {

SourceLocationView LocationOf(const fb::SourceLocation* location) {
  SourceLocationView view;
  if (location) {
    view.file = StringOf(location->file());
    view.line = location->line();
    view.column = location->column();
  }
  return view;
}

}  // namespace

std::string SourceLocationView::ToString() const {
  if (line == 0) return std::string(file);
  if (column == 0) return StrCat(file, ":", line);
  return StrCat(file, ":", line, ":", column);
}

//===----------------------------------------------------------------------===//
// TensorTypeView
//===----------------------------------------------------------------------===//

TensorType TensorTypeView::ToTensorType() const {
  return TensorType{element_type, Shape(dims, dims + rank)};
}

std::string TensorTypeView::ToString() const {
  return ToTensorType().ToString();
}

bool TensorTypeView::operator==(const TensorType& type) const {
  if (element_type != type.element_type || rank != type.shape.size()) {
    return false;
  }
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] != type.shape[i]) return false;
  }
  return true;
}

bool TensorTypeView::Admits(const TensorType& type) const {
  if (element_type != type.element_type || rank != type.shape.size()) {
    return false;
  }
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] != KILN_DYNAMIC_DIMENSION && dims[i] != type.shape[i]) {
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// ExportView
//===----------------------------------------------------------------------===//

ExportView::ExportView(const fb::Module* module, const fb::CodeVariant* variant,
                       uint32_t executable_index, uint32_t export_index)
    : module_(module),
      executable_(variant->executables()->Get(executable_index)),
      export_(executable_->exports()->Get(export_index)),
      executable_index_(executable_index),
      export_index_(export_index) {}

std::string_view ExportView::executable_name() const {
  return StringOf(executable_->name());
}

std::string_view ExportView::name() const { return StringOf(export_->name()); }

uint32_t ExportView::binding_count() const { return export_->binding_count(); }

uint32_t ExportView::index_constant_count() const {
  return export_->index_constant_count();
}

std::array<uint32_t, 3> ExportView::workgroup_count() const {
  const auto* count = export_->workgroup_count();
  return {count->Get(0), count->Get(1), count->Get(2)};
}

std::vector<ExportView::WorkgroupTile> ExportView::workgroup_tiles() const {
  std::vector<WorkgroupTile> tiles;
  if (const auto* rows = export_->workgroup_tiles()) {
    for (const fb::WorkgroupTile* row : *rows) {
      tiles.push_back({row->dimension(), row->constant(), row->tile()});
    }
  }
  return tiles;
}

std::vector<std::pair<uint32_t, uint32_t>> ExportView::equal_constants() const {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (const auto* constants = export_->equal_constants()) {
    for (uint32_t i = 0; i + 1 < constants->size(); i += 2) {
      pairs.emplace_back(constants->Get(i), constants->Get(i + 1));
    }
  }
  return pairs;
}

std::vector<ExportView::CoveringTiles> ExportView::covering_tiles() const {
  std::vector<CoveringTiles> rows;
  if (const auto* covering = export_->covering_tiles()) {
    for (const fb::CoveringTiles* row : *covering) {
      rows.push_back({row->tiles(), row->extent(), row->tile()});
    }
  }
  return rows;
}

bool ExportView::has_binding_types() const {
  // An empty vector with bindings means "not recorded" (verified: otherwise
  // the count equals binding_count).
  const auto* types = export_->binding_types();
  const uint32_t count = export_->binding_count();
  return count == 0 || (types && types->size() == count);
}

TensorTypeView TensorTypeViewOf(const fb::TensorType& type) {
  TensorTypeView view;
  view.element_type = static_cast<ElementType>(type.element_type());
  if (const auto* shape = type.shape()) {
    view.dims = shape->data();
    view.rank = shape->size();
  }
  return view;
}

TensorTypeView ExportView::binding_type(uint32_t index) const {
  return TensorTypeViewOf(*export_->binding_types()->Get(index));
}

SourceLocationView ExportView::location() const {
  return LocationOf(export_->location());
}

uint32_t ExportView::provenance_count() const {
  const auto* provenance = export_->provenance();
  return provenance ? provenance->size() : 0;
}

FusedOpView ExportView::provenance(uint32_t index) const {
  const fb::FusedOp* op = export_->provenance()->Get(index);
  InputNodeView node;
  if (const fb::InputNode* input = op->node()) {
    node.name = StringOf(input->name());
    node.op_type = StringOf(input->op_type());
    node.scope = StringOf(input->scope());
    node.source = StringOf(input->source());
  }
  FusedOpView view{StringOf(op->name()), LocationOf(op->location()), node};
  view.last_line = std::max(op->last_line(), view.location.line);
  view.site = op->site();
  view.kernel_op = op->kernel_op();
  return view;
}

uint32_t ExportView::stage_location_count() const {
  const auto* locations = export_->stage_locations();
  return locations ? locations->size() : 0;
}

StageLocationView ExportView::stage_location(uint32_t index) const {
  const fb::StageLocation* location = export_->stage_locations()->Get(index);
  StageLocationView view;
  view.stage = location->stage();
  view.stage_name = StringOf(module_->capture_stages()->Get(view.stage));
  view.source = location->source();
  view.path = StringOf(module_->source_files()->Get(view.source)->path());
  view.line = location->line();
  return view;
}

std::optional<StageLocationView> ExportView::FindStageLocation(
    uint32_t stage) const {
  const auto* locations = export_->stage_locations();
  if (!locations) return std::nullopt;
  // Sorted strictly by stage (verified).
  uint32_t low = 0, high = locations->size();
  while (low < high) {
    const uint32_t mid = low + (high - low) / 2;
    if (locations->Get(mid)->stage() < stage) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low < locations->size() && locations->Get(low)->stage() == stage) {
    return stage_location(low);
  }
  return std::nullopt;
}

SourceLocationView ExportView::TraceLocation(uint32_t stage) const {
  if (std::optional<StageLocationView> found = FindStageLocation(stage)) {
    return SourceLocationView{found->path, found->line, 0};
  }
  return location();
}

}  // namespace kiln
