//===- summary.cc - What a module holds, at a glance ----------------------===//

#include "summary.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kiln/debug_info.h"
#include "kiln/module_generated.h"
#include "kiln/printable.h"
#include "nlohmann/json.hpp"
#include "source_table.h"
#include "view_output.h"

namespace kiln::dump {

using nlohmann::json;

namespace {

/// "4x1x1", or over dynamic extents "1x1x1 * ceil(c0 / 64) in x": times
/// dispatch constant 0 divided by 64, rounded up, along x.
std::string WorkgroupCountString(const ExportView& ex) {
  const std::array<uint32_t, 3> count = ex.workgroup_count();
  std::string text = StrCat(count[0], "x", count[1], "x", count[2]);
  for (const ExportView::WorkgroupTile& tile : ex.workgroup_tiles()) {
    text += StrCat(" * ceil(c", tile.constant, " / ", tile.tile, ") in ",
                   std::string(1, "xyz"[tile.dimension % 3]));
  }
  return text;
}

/// "c0 = c1, c2 = c3": the dispatch constants that must be equal.
std::string EqualConstantsString(const ExportView& ex) {
  std::string text;
  for (const auto& [a, b] : ex.equal_constants()) {
    if (!text.empty()) text += ", ";
    text += StrCat("c", a, " = c", b);
  }
  return text;
}

/// "c0 * 8 >= c1": the tiles that must cover an extent.
std::string CoveringTilesString(const ExportView& ex) {
  std::string text;
  for (const ExportView::CoveringTiles& row : ex.covering_tiles()) {
    if (!text.empty()) text += ", ";
    text += StrCat("c", row.tiles, " * ", row.tile, " >= c", row.extent);
  }
  return text;
}

json LocationJson(const SourceLocationView& location) {
  if (!location.known()) return nullptr;
  return json{{"file", std::string(location.file)},
              {"line", location.line},
              {"column", location.column}};
}

json NodeJson(const InputNodeView& node) {
  json entry = {{"name", std::string(node.name)},
                {"op_type", std::string(node.op_type)}};
  if (!node.scope.empty()) entry["scope"] = std::string(node.scope);
  if (!node.source.empty()) entry["source"] = std::string(node.source);
  return entry;
}

// The model nodes (ONNX) an export's ops stand for, each once, in the order
// provenance first names them.
std::vector<InputNodeView> DistinctNodes(const ExportView& ex) {
  std::vector<InputNodeView> nodes;
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const InputNodeView node = ex.provenance(p).node;
    if (!node.known()) continue;
    bool seen = false;
    for (const InputNodeView& other : nodes) {
      seen |= other.name == node.name && other.op_type == node.op_type;
    }
    if (!seen) nodes.push_back(node);
  }
  return nodes;
}

json ExportJson(const ExportView& ex) {
  json binding_types = nullptr;
  if (ex.has_binding_types()) {
    binding_types = json::array();
    for (uint32_t b = 0; b < ex.binding_count(); ++b) {
      binding_types.push_back(ex.binding_type(b).ToString());
    }
  }
  json provenance = json::array();
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const FusedOpView op = ex.provenance(p);
    json entry = {{"op", std::string(op.name)},
                  {"location", LocationJson(op.location)}};
    if (op.last_line > op.location.line) entry["last_line"] = op.last_line;
    if (op.site) entry["site"] = op.site;
    if (op.node.known()) entry["node"] = NodeJson(op.node);
    provenance.push_back(entry);
  }
  json nodes = json::array();
  for (const InputNodeView& node : DistinctNodes(ex)) {
    nodes.push_back(NodeJson(node));
  }
  json stages = json::array();
  for (uint32_t s = 0; s < ex.stage_location_count(); ++s) {
    const StageLocationView stage = ex.stage_location(s);
    stages.push_back({{"stage", stage.stage},
                      {"stage_name", std::string(stage.stage_name)},
                      {"source", stage.source},
                      {"path", std::string(stage.path)},
                      {"line", stage.line}});
  }
  const std::array<uint32_t, 3> count = ex.workgroup_count();
  json tiles = json::array();
  for (const ExportView::WorkgroupTile& tile : ex.workgroup_tiles()) {
    tiles.push_back({{"dimension", tile.dimension},
                     {"constant", tile.constant},
                     {"tile", tile.tile}});
  }
  json equal = json::array();
  for (const auto& [a, b] : ex.equal_constants()) equal.push_back({a, b});
  json covering = json::array();
  for (const ExportView::CoveringTiles& row : ex.covering_tiles()) {
    covering.push_back(
        {{"tiles", row.tiles}, {"extent", row.extent}, {"tile", row.tile}});
  }
  return json{{"name", std::string(ex.name())},
              {"binding_count", ex.binding_count()},
              {"index_constant_count", ex.index_constant_count()},
              {"workgroup_count", {count[0], count[1], count[2]}},
              {"workgroup_tiles", tiles},
              {"equal_constants", equal},
              {"covering_tiles", covering},
              {"binding_types", binding_types},
              {"location", LocationJson(ex.location())},
              {"provenance", provenance},
              {"nodes", nodes},
              {"stage_locations", stages}};
}

// The variant this machine would run: the first it can (what the module
// shows, loaded without a --variant), or none.
std::optional<uint32_t> VariantThatRuns(const Module& module) {
  const uint32_t shown = module.variant_index();
  if (!module.variants()[shown].supported()) return std::nullopt;
  return shown;
}

// Export `x` of executable `e` of variant `v` (in range of the verified
// module): the chosen variant's is Module's, the others' are read alike.
ExportView VariantExport(const Module& module, uint32_t v, uint32_t e,
                         uint32_t x) {
  const fb::Module& root = module.flatbuffer();
  return ExportView(&root, root.variants()->Get(v), e, x);
}

// The executables of variant `v`; every variant has the same, with the
// same exports (verified).
json ExecutablesJson(const Module& module, uint32_t v) {
  const fb::CodeVariant& variant = *module.flatbuffer().variants()->Get(v);
  json executables = json::array();
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    json exports = json::array();
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      exports.push_back(ExportJson(VariantExport(module, v, e, x)));
    }
    executables.push_back(
        {{"name", std::string(module.executable_name(e))},
         {"library", variant.executables()->Get(e)->library()},
         {"exports", exports}});
  }
  return executables;
}

json SummaryJson(const Module& module) {
  const fb::Module& root = module.flatbuffer();
  json stages = json::array();
  for (uint32_t s = 0; s < module.capture_stage_count(); ++s) {
    stages.push_back(std::string(module.capture_stage(s)));
  }
  json functions = json::array();
  for (const FunctionSignature& function : module.functions()) {
    json arguments = json::array(), results = json::array();
    for (const auto& type : function.arguments) {
      arguments.push_back(type.ToString());
    }
    for (const auto& type : function.results)
      results.push_back(type.ToString());
    functions.push_back({{"name", function.name},
                         {"signature", function.ToString()},
                         {"arguments", arguments},
                         {"results", results}});
  }
  json libraries = json::array();
  if (const auto* list = root.libraries()) {
    for (const fb::Library* library : *list) {
      json features = json::array();
      if (library->cpu_features())
        for (const flatbuffers::String* feature : *library->cpu_features())
          features.push_back(feature->str());
      libraries.push_back(
          {{"format", library->format() ? library->format()->str() : ""},
           {"cpu", library->cpu() ? library->cpu()->str() : ""},
           {"cpu_features", features},
           {"size", library->data()->size()},
           {"line_rows", library->lines() ? library->lines()->count() : 0},
           {"line_row_bytes", library->lines() && library->lines()->data()
                                  ? library->lines()->data()->size()
                                  : 0}});
    }
  }
  json variants = json::array();
  for (uint32_t v = 0; v < module.variants().size(); ++v) {
    const CodeVariantInfo& variant = module.variants()[v];
    json features = json::array();
    for (std::string_view feature : variant.cpu_features) {
      features.push_back(std::string(feature));
    }
    variants.push_back({{"name", std::string(variant.name)},
                        {"cpu", std::string(variant.cpu)},
                        {"cpu_features", features},
                        {"libraries", variant.libraries},
                        {"supported", variant.supported()},
                        {"unsupported", variant.unsupported},
                        {"executables", ExecutablesJson(module, v)}});
  }
  const std::optional<uint32_t> runs = VariantThatRuns(module);
  return json{
      {"name", std::string(module.name())},
      {"version", root.version()},
      {"debug_level", module.debug_level()},
      {"size", module.size()},
      {"capture_stages", stages},
      {"functions", functions},
      {"libraries", libraries},
      {"variants", variants},
      {"variant",
       runs ? json(std::string(module.variants()[*runs].name)) : json(nullptr)},
      {"executables", ExecutablesJson(module, module.variant_index())},
      {"sources", SourcesJson(module.sources())}};
}

// "key   value" lines with the keys padded to one width.
class Fields {
 public:
  Fields(std::string indent, size_t width)
      : indent_(std::move(indent)), width_(width) {}
  void Add(std::string_view key, std::string_view value) {
    out_ += indent_ + Pad(std::string(key), width_) + "  " +
            std::string(value) + "\n";
  }
  // Continuation lines under the previous value.
  void More(std::string_view value) {
    out_ += indent_ + std::string(width_ + 2, ' ') + std::string(value) + "\n";
  }
  const std::string& str() const { return out_; }

 private:
  std::string indent_;
  size_t width_;
  std::string out_;
};

std::string ExportText(const Module& module, const ExportView& ex) {
  std::string out = "    " + Printable(ex.name()) + "\n";
  Fields fields("      ", 15);
  fields.Add("workgroup count", WorkgroupCountString(ex));
  std::string bindings = StrCat(ex.binding_count());
  if (ex.has_binding_types() && ex.binding_count() > 0) {
    bindings += ": ";
    for (uint32_t b = 0; b < ex.binding_count(); ++b) {
      if (b) bindings += ", ";
      bindings += ex.binding_type(b).ToString();
    }
  } else if (ex.binding_count() > 0) {
    bindings += " (types not recorded)";
  }
  fields.Add("bindings", bindings);
  if (ex.index_constant_count() > 0) {
    fields.Add("index constants", StrCat(ex.index_constant_count()));
  }
  if (std::string equal = EqualConstantsString(ex); !equal.empty()) {
    fields.Add("equal constants", equal);
  }
  if (std::string covering = CoveringTilesString(ex); !covering.empty()) {
    fields.Add("covering tiles", covering);
  }
  if (module.debug_level() >= 1) {
    fields.Add("location", ex.location().known()
                               ? Printable(ex.location().ToString())
                               : std::string("(unknown)"));
  }
  if (module.debug_level() >= 2) {
    // The model's nodes (name, op type, and where the exporter says they
    // came from), then each input op with its line.
    const std::vector<InputNodeView> nodes = DistinctNodes(ex);
    size_t node_width = 0;
    for (const InputNodeView& node : nodes) {
      node_width = std::max(node_width, Printable(node.name).size());
    }
    for (size_t n = 0; n < nodes.size(); ++n) {
      std::string line = Pad(Printable(nodes[n].name), node_width) + "  " +
                         Printable(nodes[n].op_type);
      if (!nodes[n].scope.empty()) line += "  " + Printable(nodes[n].scope);
      if (!nodes[n].source.empty()) line += "  " + Printable(nodes[n].source);
      if (n == 0) {
        fields.Add("nodes", line);
      } else {
        fields.More(line);
      }
    }
    if (ex.provenance_count() == 0) fields.Add("provenance", "(none)");
    size_t name_width = 0, location_width = 0;
    for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
      name_width =
          std::max(name_width, Printable(ex.provenance(p).name).size());
      location_width =
          std::max(location_width,
                   Printable(ex.provenance(p).location.ToString()).size());
    }
    std::set<std::tuple<std::string_view, std::string, std::string_view>>
        listed;
    for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
      const FusedOpView op = ex.provenance(p);
      // An input op the kernel computes in several of its ops (a pad's fill
      // and insert) is listed once.
      if (!listed.emplace(op.name, op.location.ToString(), op.node.name)
               .second) {
        continue;
      }
      std::string line = Pad(Printable(op.name), name_width) + "  " +
                         Printable(op.location.ToString());
      if (op.node.known()) {
        line = Pad(line, name_width + 2 + location_width) + "  " +
               Printable(op.node.name);
      }
      if (listed.size() == 1) {
        fields.Add("provenance", line);
      } else {
        fields.More(line);
      }
    }
  }
  if (ex.stage_location_count() > 0) {
    size_t stage_width = 0;
    for (uint32_t s = 0; s < ex.stage_location_count(); ++s) {
      stage_width = std::max(stage_width,
                             Printable(ex.stage_location(s).stage_name).size());
    }
    for (uint32_t s = 0; s < ex.stage_location_count(); ++s) {
      const StageLocationView stage = ex.stage_location(s);
      const std::string line =
          Pad(Printable(stage.stage_name) + ":", stage_width + 1) + " " +
          Printable(stage.path) + ":" + StrCat(stage.line);
      if (s == 0) {
        fields.Add("stages", line);
      } else {
        fields.More(line);
      }
    }
  } else if (module.debug_level() >= 3) {
    fields.Add("stages", "(none captured)");
  }
  return out + fields.str();
}

}  // namespace

Status ShowSummary(const Module& module, bool as_json) {
  if (as_json) return PrintJson(SummaryJson(module));
  const fb::Module& root = module.flatbuffer();
  std::string out;
  Fields header("", 11);
  header.Add("module", Printable(module.name()));
  header.Add("version", StrCat(root.version()));
  header.Add("debug level", StrCat(module.debug_level()));
  header.Add("size", StrCat(module.size(), " bytes"));
  std::string stages;
  for (uint32_t s = 0; s < module.capture_stage_count(); ++s) {
    if (s) stages += ", ";
    stages += Printable(module.capture_stage(s));
  }
  header.Add("stages", stages.empty() ? "(none captured)" : stages);
  out += header.str();

  out += StrCat("\nfunctions (", module.functions().size(), ")\n");
  for (const FunctionSignature& function : module.functions()) {
    out += "  " + Printable(function.ToString()) + "\n";
  }

  const uint32_t library_count =
      root.libraries() ? root.libraries()->size() : 0;
  out += StrCat("\nlibraries (", library_count, ")\n");
  for (uint32_t i = 0; i < library_count; ++i) {
    const fb::Library* library = root.libraries()->Get(i);
    out += StrCat(
        "  ", i, "  ",
        Printable(library->format() ? library->format()->string_view() : ""),
        "  cpu ",
        Printable(library->cpu() ? library->cpu()->string_view() : "?"), "  ",
        library->data()->size(), " bytes  ",
        library->lines() ? library->lines()->count() : 0, " line rows\n");
    // What a machine must have to run it: the module is refused elsewhere.
    if (library->cpu_features() && library->cpu_features()->size() > 0) {
      out += "     needs";
      for (const flatbuffers::String* feature : *library->cpu_features())
        out += StrCat(" ", Printable(feature->string_view()));
      out += "\n";
    }
  }

  // Which variant this machine would run, and what each needs.
  const std::vector<CodeVariantInfo>& variants = module.variants();
  const std::optional<uint32_t> runs = VariantThatRuns(module);
  out += StrCat("\nvariants (", variants.size(), "; this machine runs ",
                runs ? Printable(variants[*runs].name) : "none", ")\n");
  size_t name_width = 0;
  for (const CodeVariantInfo& variant : variants) {
    name_width = std::max(name_width, Printable(variant.name).size());
  }
  for (const CodeVariantInfo& variant : variants) {
    std::string libraries;
    for (const uint32_t library : variant.libraries) {
      libraries += StrCat(libraries.empty() ? "" : ", ", library);
    }
    // What each library needs is listed with the libraries above.
    out += StrCat("  ", Pad(Printable(variant.name), name_width), "  cpu ",
                  Printable(variant.cpu.empty() ? "?" : variant.cpu), ", ",
                  variant.libraries.size() == 1 ? "library " : "libraries ",
                  libraries.empty() ? "(none)" : libraries, "\n");
    if (!variant.supported()) {
      out += StrCat("  ", std::string(name_width, ' '),
                    "  this machine cannot run it: ",
                    Printable(variant.unsupported), "\n");
    }
  }

  // Each variant's executables: the same names and exports in each, with
  // what code generation chose for the variant's CPU.
  for (uint32_t v = 0; v < variants.size(); ++v) {
    const fb::CodeVariant& variant = *root.variants()->Get(v);
    out += variants.size() == 1
               ? "\nexecutables ("
               : StrCat("\nexecutables of ", Printable(variants[v].name), " (");
    out += StrCat(module.executable_count(), ")\n");
    for (uint32_t e = 0; e < module.executable_count(); ++e) {
      const uint32_t exports = module.export_count(e);
      out += StrCat("  ", Printable(module.executable_name(e)), "  (library ",
                    variant.executables()->Get(e)->library(), ", ", exports,
                    exports == 1 ? " export" : " exports", ")\n");
      for (uint32_t x = 0; x < exports; ++x) {
        out += ExportText(module, VariantExport(module, v, e, x));
      }
    }
  }

  const SourceTable& table = module.sources();
  if (table.empty()) {
    out += "\nsources (none embedded)\n";
  } else {
    out += "\nsources: " + TotalsLine(ComputeTotals(table)) + "\n";
    out += SourcesTable(table, "  ", /*full=*/false);
  }
  return PrintText(out);
}

}  // namespace kiln::dump
