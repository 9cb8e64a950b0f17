//===- kiln_dump.cc - Shows what a compiled kiln module carries -----------===//
//
//   kiln-dump MODULE.kiln [--sources | --print-source=PATH[:LINE]
//             [--context=N] | --extract-sources=DIR [--force] |
//             --extract-libraries=DIR [--force] |
//             --disassemble [--function=NAME] |
//             --correlate=PATH:LINE] [--json]
//
// Without a view flag: a summary (module, functions, libraries, executables
// with their exports' debug information, source table). The module is loaded
// through the verifying loader but its native libraries are never mapped,
// so modules built for another CPU can be inspected. Every view can be
// printed as one JSON document instead (--json).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "correlate.h"
#include "disassemble.h"
#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/module_generated.h"
#include "kiln/output_files.h"
#include "kiln/printable.h"
#include "kiln/source_lines.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "nlohmann/json.hpp"
#include "support/command_line.h"
#include "support/tool_output.h"

namespace {

using nlohmann::json;

constexpr char kUsage[] =
    "usage: kiln-dump MODULE.kiln [options]\n"
    "\n"
    "Shows what a compiled kiln module carries: its functions, executables\n"
    "with their debug information, and the embedded source table.\n"
    "\n"
    "views (default: a summary of the module):\n"
    "  --sources               one row per embedded source file: path, raw\n"
    "                          and stored size, compression, hash\n"
    "  --print-source=PATH[:LINE]\n"
    "                          print a source file with line numbers; with\n"
    "                          LINE, mark that line with '>'\n"
    "  --context=N             with --print-source=PATH:LINE, print only the\n"
    "                          N lines either side of LINE\n"
    "  --extract-sources=DIR   write every source file under DIR (created if\n"
    "                          missing), checking each content hash; paths\n"
    "                          that would leave DIR or are hidden (a part\n"
    "                          starting with '.'), and paths naming one file\n"
    "                          alike (/a.mlir, a.mlir), are refused, and so\n"
    "                          is the whole extraction when the files total\n"
    "                          more than 8 GiB. Existing files are kept (an\n"
    "                          error) and symlinks are never followed\n"
    "  --extract-libraries=DIR write each native library as DIR/libraryN.so\n"
    "                          (N as in the summary), for tools that read\n"
    "                          its symbols and DWARF line tables (objdump,\n"
    "                          llvm-dwarfdump, gdb); existing files are kept\n"
    "  --force                 with --extract-sources or --extract-libraries,\n"
    "                          replace existing files\n"
    "  --disassemble           print each function's host program: one\n"
    "                          instruction per line (constant, dispatch,\n"
    "                          reshape, release, br, cond_br, check.*, "
    "return)\n"
    "                          over numbered slots, each result with its "
    "type,\n"
    "                          and the buffer plan: the function's buffers\n"
    "                          (b0, b1, ...) and which one each dispatch\n"
    "                          result is written into (new: storage of its\n"
    "                          own, as for what the function returns)\n"
    "  --function=NAME         with --disassemble, only this function\n"
    "  --correlate=PATH:LINE   that line's counterparts through the module's\n"
    "                          cross-stage line maps: for a line of a stage\n"
    "                          text, the lines of the stages before it that\n"
    "                          it came from, the lines of later stages that\n"
    "                          came from it, and its input program line; for\n"
    "                          a line of the input program, the lines of\n"
    "                          every stage text that came from it\n"
    "\n"
    "options:\n"
    "  --json                  print the view as one JSON document\n"
    "  --help                  show this help\n"
    "  --version               print kiln's version\n"
    "\n"
    "Sources come from kiln-compile --executable-debug-level=3 (captured\n"
    "stages) and --executable-embed-input-files (input files).\n";

/// Tracy transfers source files of at most this many bytes.
constexpr uint64_t kTracySourceLimit = KILN_TRACY_MAX_SOURCE_BYTES;

/// --extract-sources writes at most this many bytes in all. Each content is
/// bounded (kiln::kMaxSourceSize), but any number of paths may share one, so
/// a small module could otherwise ask for many GiB.
constexpr uint64_t kMaxExtractBytes = uint64_t{8} << 30;

struct Options {
  std::string module_path;
  bool sources = false;
  bool has_print_source = false;
  std::string print_source;
  bool has_context = false;
  uint32_t context = 0;
  bool has_extract = false;
  std::string extract_dir;
  bool has_extract_libraries = false;
  std::string extract_libraries_dir;
  bool force = false;
  bool disassemble = false;
  bool has_function = false;
  std::string function;
  bool has_correlate = false;
  std::string correlate;
  bool json = false;
  bool help = false;
  bool version = false;  // --version
};

//===----------------------------------------------------------------------===//
// Formatting helpers
//===----------------------------------------------------------------------===//

// Names and paths come from the module and may hold anything.
using kiln::Printable;
using kiln::tools::Print;

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string PadLeft(std::string text, size_t width) {
  if (text.size() < width) text.insert(0, width - text.size(), ' ');
  return text;
}

/// "4x1x1", or over dynamic extents "1x1x1 * ceil(c0 / 64) in x": times
/// dispatch constant 0 divided by 64, rounded up, along x.
std::string WorkgroupCountString(const kiln::ExportView& ex) {
  const std::array<uint32_t, 3> count = ex.workgroup_count();
  std::string text = kiln::StrCat(count[0], "x", count[1], "x", count[2]);
  for (const kiln::ExportView::WorkgroupTile& tile : ex.workgroup_tiles()) {
    text += kiln::StrCat(" * ceil(c", tile.constant, " / ", tile.tile, ") in ",
                         std::string(1, "xyz"[tile.dimension % 3]));
  }
  return text;
}

/// "c0 = c1, c2 = c3": the dispatch constants that must be equal.
std::string EqualConstantsString(const kiln::ExportView& ex) {
  std::string text;
  for (const auto& [a, b] : ex.equal_constants()) {
    if (!text.empty()) text += ", ";
    text += kiln::StrCat("c", a, " = c", b);
  }
  return text;
}

/// "c0 * 8 >= c1": the tiles that must cover an extent.
std::string CoveringTilesString(const kiln::ExportView& ex) {
  std::string text;
  for (const kiln::ExportView::CoveringTiles& row : ex.covering_tiles()) {
    if (!text.empty()) text += ", ";
    text += kiln::StrCat("c", row.tiles, " * ", row.tile, " >= c", row.extent);
  }
  return text;
}

kiln::Status PrintJson(const json& document) {
  // Texts and paths may hold invalid UTF-8; replace it rather than fail.
  std::string text =
      document.dump(2, ' ', false, json::error_handler_t::replace);
  text.push_back('\n');
  if (!Print(text)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

json LocationJson(const kiln::SourceLocationView& location) {
  if (!location.known()) return nullptr;
  return json{{"file", std::string(location.file)},
              {"line", location.line},
              {"column", location.column}};
}

//===----------------------------------------------------------------------===//
// The source table (--sources, and the end of the summary)
//===----------------------------------------------------------------------===//

struct SourceTotals {
  uint64_t files = 0;
  uint64_t contents = 0;
  uint64_t raw_bytes = 0;           // over files: what extraction writes
  uint64_t distinct_raw_bytes = 0;  // over distinct contents
  uint64_t stored_bytes = 0;        // over distinct contents: module bytes
  uint64_t too_large = 0;
  uint64_t line_origins = 0;  // cross-stage line map rows
};

SourceTotals ComputeTotals(const kiln::SourceTable& table) {
  SourceTotals totals;
  totals.files = table.size();
  std::vector<bool> seen(table.content_count(), false);
  for (uint32_t i = 0; i < table.size(); ++i) {
    const kiln::SourceFileView file = table[i];
    totals.raw_bytes += file.uncompressed_size;
    totals.too_large += file.uncompressed_size > kTracySourceLimit;
    totals.line_origins += file.origin_count;
    if (!seen[file.content]) {
      seen[file.content] = true;
      ++totals.contents;
      totals.distinct_raw_bytes += file.uncompressed_size;
      totals.stored_bytes += file.stored_size;
    }
  }
  return totals;
}

json SourcesJson(const kiln::SourceTable& table) {
  json files = json::array();
  for (uint32_t i = 0; i < table.size(); ++i) {
    const kiln::SourceFileView file = table[i];
    files.push_back(
        {{"path", std::string(file.path)},
         {"raw_size", file.uncompressed_size},
         {"stored_size", file.stored_size},
         {"compression", std::string(SourceCompressionName(file.compression))},
         {"hash", kiln::FormatHash(file.hash)},
         {"content", file.content},
         {"too_large_for_tracy", file.uncompressed_size > kTracySourceLimit},
         {"previous", file.previous == kiln::kNoSource
                          ? json(nullptr)
                          : json(std::string(table[file.previous].path))},
         {"line_origins", file.origin_count}});
  }
  const SourceTotals totals = ComputeTotals(table);
  return json{{"files", files},
              {"tracy_limit", kTracySourceLimit},
              {"totals",
               {{"files", totals.files},
                {"distinct_contents", totals.contents},
                {"raw_bytes", totals.raw_bytes},
                {"distinct_raw_bytes", totals.distinct_raw_bytes},
                {"stored_bytes", totals.stored_bytes},
                {"too_large_for_tracy", totals.too_large},
                {"line_origins", totals.line_origins}}}};
}

std::string TotalsLine(const SourceTotals& totals) {
  std::string line =
      kiln::StrCat(totals.files, " files (", totals.contents,
                   " distinct contents): ", totals.raw_bytes, " raw bytes (",
                   totals.distinct_raw_bytes, " distinct), ",
                   totals.stored_bytes, " stored bytes");
  if (totals.too_large) {
    line += kiln::StrCat("; ", totals.too_large, " too large for Tracy");
  }
  if (totals.line_origins) {
    line += kiln::StrCat("; ", totals.line_origins, " line map rows");
  }
  return line;
}

/// The rows of --sources; `indent` prefixes every line; `full` adds the hash
/// and the Tracy note.
std::string SourcesTable(const kiln::SourceTable& table,
                         std::string_view indent, bool full) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"PATH", "RAW", "STORED", "COMPRESSION"});
  if (full) rows.back().push_back("HASH");
  for (uint32_t i = 0; i < table.size(); ++i) {
    const kiln::SourceFileView file = table[i];
    rows.push_back({Printable(file.path), kiln::StrCat(file.uncompressed_size),
                    kiln::StrCat(file.stored_size),
                    std::string(SourceCompressionName(file.compression))});
    if (full) {
      rows.back().push_back(kiln::FormatHash(file.hash));
      if (file.uncompressed_size > kTracySourceLimit) {
        rows.back().push_back(kiln::StrCat("too large for Tracy (> ",
                                           kTracySourceLimit, " bytes)"));
      }
    }
  }
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c >= widths.size()) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line(indent);
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) line.append("  ");
      const bool last = c + 1 == row.size();
      // Sizes are right-aligned; the last column is not padded.
      if (c == 1 || c == 2) {
        line += PadLeft(row[c], widths[c]);
      } else {
        line += last ? row[c] : Pad(row[c], widths[c]);
      }
    }
    out += line + "\n";
  }
  return out;
}

kiln::Status ShowSources(const kiln::Module& module, bool as_json) {
  const kiln::SourceTable& table = module.sources();
  if (as_json) return PrintJson(SourcesJson(table));
  std::string out;
  if (table.empty()) {
    out = "no embedded sources (compile with --executable-debug-level=3)\n";
  } else {
    out = SourcesTable(table, "", /*full=*/true);
    out += "\n" + TotalsLine(ComputeTotals(table)) + "\n";
  }
  if (!Print(out)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// Summary
//===----------------------------------------------------------------------===//

json NodeJson(const kiln::InputNodeView& node) {
  json entry = {{"name", std::string(node.name)},
                {"op_type", std::string(node.op_type)}};
  if (!node.scope.empty()) entry["scope"] = std::string(node.scope);
  if (!node.source.empty()) entry["source"] = std::string(node.source);
  return entry;
}

// The model nodes (ONNX) an export's ops stand for, each once, in the order
// provenance first names them.
std::vector<kiln::InputNodeView> DistinctNodes(const kiln::ExportView& ex) {
  std::vector<kiln::InputNodeView> nodes;
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const kiln::InputNodeView node = ex.provenance(p).node;
    if (!node.known()) continue;
    bool seen = false;
    for (const kiln::InputNodeView& other : nodes) {
      seen |= other.name == node.name && other.op_type == node.op_type;
    }
    if (!seen) nodes.push_back(node);
  }
  return nodes;
}

json ExportJson(const kiln::ExportView& ex) {
  json binding_types = nullptr;
  if (ex.has_binding_types()) {
    binding_types = json::array();
    for (uint32_t b = 0; b < ex.binding_count(); ++b) {
      binding_types.push_back(ex.binding_type(b).ToString());
    }
  }
  json provenance = json::array();
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const kiln::FusedOpView op = ex.provenance(p);
    json entry = {{"op", std::string(op.name)},
                  {"location", LocationJson(op.location)}};
    if (op.last_line > op.location.line) entry["last_line"] = op.last_line;
    if (op.site) entry["site"] = op.site;
    if (op.node.known()) entry["node"] = NodeJson(op.node);
    provenance.push_back(entry);
  }
  json nodes = json::array();
  for (const kiln::InputNodeView& node : DistinctNodes(ex)) {
    nodes.push_back(NodeJson(node));
  }
  json stages = json::array();
  for (uint32_t s = 0; s < ex.stage_location_count(); ++s) {
    const kiln::StageLocationView stage = ex.stage_location(s);
    stages.push_back({{"stage", stage.stage},
                      {"stage_name", std::string(stage.stage_name)},
                      {"source", stage.source},
                      {"path", std::string(stage.path)},
                      {"line", stage.line}});
  }
  const std::array<uint32_t, 3> count = ex.workgroup_count();
  json tiles = json::array();
  for (const kiln::ExportView::WorkgroupTile& tile : ex.workgroup_tiles()) {
    tiles.push_back({{"dimension", tile.dimension},
                     {"constant", tile.constant},
                     {"tile", tile.tile}});
  }
  json equal = json::array();
  for (const auto& [a, b] : ex.equal_constants()) equal.push_back({a, b});
  json covering = json::array();
  for (const kiln::ExportView::CoveringTiles& row : ex.covering_tiles()) {
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

json SummaryJson(const kiln::Module& module) {
  const kiln::fb::Module& root = module.flatbuffer();
  json stages = json::array();
  for (uint32_t s = 0; s < module.capture_stage_count(); ++s) {
    stages.push_back(std::string(module.capture_stage(s)));
  }
  json functions = json::array();
  for (const kiln::FunctionSignature& function : module.functions()) {
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
    for (const kiln::fb::Library* library : *list) {
      json features = json::array();
      if (library->cpu_features())
        for (const flatbuffers::String* feature : *library->cpu_features())
          features.push_back(feature->str());
      libraries.push_back(
          {{"format", library->format() ? library->format()->str() : ""},
           {"cpu", library->cpu() ? library->cpu()->str() : ""},
           {"cpu_features", features},
           {"size", library->data()->size()},
           {"line_rows", library->lines() ? library->lines()->size() : 0}});
    }
  }
  json executables = json::array();
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    json exports = json::array();
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      exports.push_back(ExportJson(*module.GetExport(e, x)));
    }
    executables.push_back({{"name", std::string(module.executable_name(e))},
                           {"library", root.executables()->Get(e)->library()},
                           {"exports", exports}});
  }
  return json{{"name", std::string(module.name())},
              {"version", root.version()},
              {"debug_level", module.debug_level()},
              {"size", module.size()},
              {"capture_stages", stages},
              {"functions", functions},
              {"libraries", libraries},
              {"executables", executables},
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

std::string ExportText(const kiln::Module& module, const kiln::ExportView& ex) {
  std::string out = "    " + Printable(ex.name()) + "\n";
  Fields fields("      ", 15);
  fields.Add("workgroup count", WorkgroupCountString(ex));
  std::string bindings = kiln::StrCat(ex.binding_count());
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
    fields.Add("index constants", kiln::StrCat(ex.index_constant_count()));
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
    const std::vector<kiln::InputNodeView> nodes = DistinctNodes(ex);
    size_t node_width = 0;
    for (const kiln::InputNodeView& node : nodes) {
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
      location_width = std::max(
          location_width,
          Printable(ex.provenance(p).location.ToString()).size());
    }
    std::set<std::tuple<std::string_view, std::string, std::string_view>>
        listed;
    for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
      const kiln::FusedOpView op = ex.provenance(p);
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
      const kiln::StageLocationView stage = ex.stage_location(s);
      const std::string line =
          Pad(Printable(stage.stage_name) + ":", stage_width + 1) + " " +
          Printable(stage.path) + ":" + kiln::StrCat(stage.line);
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

kiln::Status ShowSummary(const kiln::Module& module, bool as_json) {
  if (as_json) return PrintJson(SummaryJson(module));
  const kiln::fb::Module& root = module.flatbuffer();
  std::string out;
  Fields header("", 11);
  header.Add("module", Printable(module.name()));
  header.Add("version", kiln::StrCat(root.version()));
  header.Add("debug level", kiln::StrCat(module.debug_level()));
  header.Add("size", kiln::StrCat(module.size(), " bytes"));
  std::string stages;
  for (uint32_t s = 0; s < module.capture_stage_count(); ++s) {
    if (s) stages += ", ";
    stages += Printable(module.capture_stage(s));
  }
  header.Add("stages", stages.empty() ? "(none captured)" : stages);
  out += header.str();

  out += kiln::StrCat("\nfunctions (", module.functions().size(), ")\n");
  for (const kiln::FunctionSignature& function : module.functions()) {
    out += "  " + Printable(function.ToString()) + "\n";
  }

  const uint32_t library_count =
      root.libraries() ? root.libraries()->size() : 0;
  out += kiln::StrCat("\nlibraries (", library_count, ")\n");
  for (uint32_t i = 0; i < library_count; ++i) {
    const kiln::fb::Library* library = root.libraries()->Get(i);
    out += kiln::StrCat(
        "  ", i, "  ",
        Printable(library->format() ? library->format()->string_view() : ""),
        "  cpu ",
        Printable(library->cpu() ? library->cpu()->string_view() : "?"), "  ",
        library->data()->size(), " bytes  ",
        library->lines() ? library->lines()->size() : 0, " line rows\n");
    // What a machine must have to run it: the module is refused elsewhere.
    if (library->cpu_features() && library->cpu_features()->size() > 0) {
      out += "     needs";
      for (const flatbuffers::String* feature : *library->cpu_features())
        out += kiln::StrCat(" ", Printable(feature->string_view()));
      out += "\n";
    }
  }

  out += kiln::StrCat("\nexecutables (", module.executable_count(), ")\n");
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    const uint32_t exports = module.export_count(e);
    out +=
        kiln::StrCat("  ", Printable(module.executable_name(e)), "  (library ",
                     root.executables()->Get(e)->library(), ", ", exports,
                     exports == 1 ? " export" : " exports", ")\n");
    for (uint32_t x = 0; x < exports; ++x) {
      out += ExportText(module, *module.GetExport(e, x));
    }
  }

  const kiln::SourceTable& table = module.sources();
  if (table.empty()) {
    out += "\nsources (none embedded)\n";
  } else {
    out += "\nsources: " + TotalsLine(ComputeTotals(table)) + "\n";
    out += SourcesTable(table, "  ", /*full=*/false);
  }
  if (!Print(out)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// --print-source
//===----------------------------------------------------------------------===//

kiln::Status NoSuchSource(const kiln::Module& module, std::string_view path,
                          const std::string& module_path) {
  if (module.sources().empty()) {
    return kiln::NotFoundError("no source file '", Printable(path),
                               "': the module embeds no sources (compile with "
                               "--executable-debug-level=3)");
  }
  return kiln::NotFoundError("no source file '", Printable(path),
                             "' in the module (list them with 'kiln-dump ",
                             module_path, " --sources')");
}

/// `argument` as PATH, or as PATH:LINE when it names no file as a whole
/// (`is_path` false) and the part after its last ':' is all digits (*line
/// is 0 otherwise).
kiln::Status SplitPathLine(std::string_view flag, std::string_view argument,
                           bool is_path, std::string_view* path,
                           uint32_t* line) {
  *path = argument;
  *line = 0;
  if (is_path) return kiln::OkStatus();
  const size_t colon = argument.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == argument.size()) {
    return kiln::OkStatus();
  }
  const std::string_view digits = argument.substr(colon + 1);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return kiln::OkStatus();
  }
  auto result =
      std::from_chars(digits.data(), digits.data() + digits.size(), *line);
  if (result.ec != std::errc() || *line == 0) {
    return kiln::InvalidArgumentError("--", flag, ": line '", digits,
                                      "' must be in [1, 4294967295]");
  }
  *path = argument.substr(0, colon);
  return kiln::OkStatus();
}

kiln::Status PrintSource(const kiln::Module& module, const Options& options) {
  const kiln::SourceTable& table = module.sources();
  std::string_view path;
  uint32_t line = 0;
  KILN_RETURN_IF_ERROR(SplitPathLine(
      "print-source", options.print_source,
      table.Find(options.print_source).has_value(), &path, &line));
  std::optional<kiln::SourceFileView> file = table.Find(path);
  if (!file) return NoSuchSource(module, path, options.module_path);
  if (options.has_context && line == 0) {
    return kiln::InvalidArgumentError(
        "--context needs a line: --print-source=PATH:LINE");
  }
  KILN_ASSIGN_OR_RETURN(std::string text, file->Decompress());

  const uint64_t first = options.has_context && line > options.context
                             ? line - options.context
                             : 1;
  const kiln::LineWindow window = kiln::FindLineWindow(
      text, first,
      options.has_context ? uint64_t{line} + options.context : UINT64_MAX);
  const uint64_t line_count = window.line_count, last = window.last;
  if (line > line_count) {
    return kiln::OutOfRangeError("line ", line, " is past the end of '",
                                 Printable(path), "' (", line_count, " lines)");
  }

  if (options.json) {
    return PrintJson(json{{"path", std::string(path)},
                          {"line", line ? json(line) : json(nullptr)},
                          {"first_line", first},
                          {"last_line", last},
                          {"line_count", line_count},
                          {"text", std::string(window.text)}});
  }
  // Written in pieces: the numbered copy of a whole file is larger than
  // the file.
  constexpr size_t kChunk = 64 * 1024;
  std::string out;
  bool printed = true;
  kiln::ForEachNumberedLine(window, line, std::to_string(last).size(),
                            [&](const std::string& numbered) {
                              out += numbered;
                              out.push_back('\n');
                              if (out.size() >= kChunk) {
                                printed = printed && Print(out);
                                out.clear();
                              }
                            });
  if (!printed) return kiln::InvalidArgumentError("cannot write to stdout");
  if (!Print(out)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// --extract-sources
//===----------------------------------------------------------------------===//

/// The message of a failed OutputDirectory::WriteFile; for a file that
/// exists (its kFailedPrecondition), how to replace it.
std::string WriteErrorMessage(const kiln::Status& status) {
  std::string message = status.message();
  if (status.code() == kiln::StatusCode::kFailedPrecondition) {
    message += " (--force replaces it)";
  }
  return message;
}

/// Returns the number of files that could not be written.
kiln::StatusOr<size_t> ExtractSources(const kiln::Module& module,
                                      const Options& options) {
  const std::string& dir = options.extract_dir;
  if (dir.empty()) {
    return kiln::InvalidArgumentError("--extract-sources needs a directory");
  }
  const kiln::SourceTable& table = module.sources();
  // Checked before anything (even DIR) is created: the declared sizes are
  // what extraction would write.
  const uint64_t total = ComputeTotals(table).raw_bytes;
  if (total > kMaxExtractBytes) {
    return kiln::ResourceExhaustedError(
        "--extract-sources: the ", table.size(), " source files total ", total,
        " bytes, more than the limit of ", kMaxExtractBytes,
        " bytes; nothing was written");
  }
  KILN_ASSIGN_OR_RETURN(kiln::OutputDirectory out,
                        kiln::OutputDirectory::OpenOrCreate(dir));
  const kiln::IfFileExists if_exists =
      options.force ? kiln::IfFileExists::kReplace : kiln::IfFileExists::kFail;
  // File below DIR -> the path that took it: "/a.mlir", "a.mlir" and
  // "./a.mlir" name one file, which only the first may write.
  std::map<std::string, std::string_view> taken;
  json written = json::array(), refused = json::array();
  std::string report;
  size_t failures = 0;
  for (uint32_t i = 0; i < table.size(); ++i) {
    const kiln::SourceFileView file = table[i];
    // An embedded input file named by an absolute path lands below the
    // directory at that path: /src/m.mlir -> DIR/src/m.mlir.
    kiln::StatusOr<std::string> relative =
        kiln::NormalizeRelativePath(file.path);
    kiln::Status status = relative.status();
    if (status.ok()) {
      auto [it, inserted] = taken.try_emplace(*relative, file.path);
      if (!inserted) {
        status = kiln::InvalidArgumentError("same file as '", it->second, "' (",
                                            out.FilePath(*relative), ")");
      }
    }
    kiln::StatusOr<std::string> text = std::string();
    if (status.ok()) text = file.Decompress();
    if (status.ok() && !text.ok()) status = text.status();
    if (status.ok()) status = out.WriteFile(*relative, *text, if_exists);
    if (!status.ok()) {
      ++failures;
      const std::string message = WriteErrorMessage(status);
      std::fprintf(stderr, "kiln-dump: error: not extracting '%s': %s\n",
                   Printable(file.path).c_str(), Printable(message).c_str());
      refused.push_back({{"path", std::string(file.path)}, {"error", message}});
      continue;
    }
    report += kiln::StrCat("wrote ", Printable(out.FilePath(*relative)), " (",
                           file.uncompressed_size, " bytes)\n");
    written.push_back({{"path", std::string(file.path)},
                       {"file", out.FilePath(*relative)},
                       {"bytes", file.uncompressed_size}});
  }
  if (options.json) {
    KILN_RETURN_IF_ERROR(PrintJson(
        json{{"directory", dir}, {"written", written}, {"errors", refused}}));
  } else {
    if (table.empty()) {
      report =
          "no embedded sources (compile with --executable-debug-level=3)\n";
    }
    if (!Print(report)) {
      return kiln::InvalidArgumentError("cannot write to stdout");
    }
  }
  return failures;
}

//===----------------------------------------------------------------------===//
// --extract-libraries
//===----------------------------------------------------------------------===//

/// Returns the number of libraries that could not be written.
kiln::StatusOr<size_t> ExtractLibraries(const kiln::Module& module,
                                        const Options& options) {
  const std::string& dir = options.extract_libraries_dir;
  if (dir.empty()) {
    return kiln::InvalidArgumentError("--extract-libraries needs a directory");
  }
  KILN_ASSIGN_OR_RETURN(kiln::OutputDirectory out,
                        kiln::OutputDirectory::OpenOrCreate(dir));
  const kiln::IfFileExists if_exists =
      options.force ? kiln::IfFileExists::kReplace : kiln::IfFileExists::kFail;
  const auto* libraries = module.flatbuffer().libraries();
  const uint32_t count = libraries ? libraries->size() : 0;
  json written = json::array(), refused = json::array();
  std::string report;
  size_t failures = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const auto* data = libraries->Get(i)->data();
    const std::string name = kiln::StrCat("library", i, ".so");
    kiln::Status status = out.WriteFile(
        name,
        std::string_view(reinterpret_cast<const char*>(data->data()),
                         data->size()),
        if_exists);
    if (!status.ok()) {
      ++failures;
      const std::string message = WriteErrorMessage(status);
      std::fprintf(stderr, "kiln-dump: error: not extracting library %u: %s\n",
                   i, Printable(message).c_str());
      refused.push_back({{"library", i}, {"error", message}});
      continue;
    }
    report += kiln::StrCat("wrote ", Printable(out.FilePath(name)), " (",
                           data->size(), " bytes)\n");
    written.push_back({{"library", i},
                       {"file", out.FilePath(name)},
                       {"bytes", data->size()}});
  }
  if (options.json) {
    KILN_RETURN_IF_ERROR(PrintJson(
        json{{"directory", dir}, {"written", written}, {"errors", refused}}));
  } else if (!Print(report)) {
    return kiln::InvalidArgumentError("cannot write to stdout");
  }
  return failures;
}

//===----------------------------------------------------------------------===//
// --disassemble
//===----------------------------------------------------------------------===//

kiln::Status Disassemble(const kiln::Module& module, const Options& options) {
  const auto* functions = module.flatbuffer().functions();
  std::vector<const kiln::fb::Function*> chosen;
  for (uint32_t i = 0; functions && i < functions->size(); ++i) {
    const kiln::fb::Function* function = functions->Get(i);
    if (!options.has_function ||
        function->name()->string_view() == options.function) {
      chosen.push_back(function);
    }
  }
  if (options.has_function && chosen.empty()) {
    return kiln::NotFoundError("no function '", Printable(options.function),
                               "' in the module (list them with 'kiln-dump ",
                               options.module_path, "')");
  }
  if (options.json) {
    json list = json::array();
    for (const kiln::fb::Function* function : chosen) {
      list.push_back(kiln::dump::DisassembleFunctionJson(module, *function));
    }
    return PrintJson(json{{"functions", list}});
  }
  std::string out;
  for (const kiln::fb::Function* function : chosen) {
    if (!out.empty()) out += "\n";
    out += kiln::dump::DisassembleFunction(module, *function);
  }
  if (!Print(out)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// --correlate
//===----------------------------------------------------------------------===//

json CounterpartJson(const kiln::dump::Counterpart& line,
                     kiln::SourceLines& texts) {
  return json{{"stage", line.stage},
              {"path", std::string(line.path)},
              {"line", line.line},
              {"text", line.source == kiln::kNoSource
                           ? json(nullptr)
                           : json(texts.Get(line.source, line.line))}};
}

std::string CounterpartText(const kiln::dump::Counterpart& line,
                            kiln::SourceLines& texts) {
  return kiln::StrCat(Printable(line.path), ":", line.line, "  ",
                      line.source == kiln::kNoSource
                          ? std::string("(text not embedded)")
                          : texts.Get(line.source, line.line));
}

kiln::Status ShowCorrelation(const kiln::Module& module,
                             const Options& options) {
  const kiln::SourceTable& table = module.sources();
  std::string_view path;
  uint32_t line = 0;
  KILN_RETURN_IF_ERROR(SplitPathLine(
      "correlate", options.correlate,
      table.Find(options.correlate) || table.FindInputFile(options.correlate),
      &path, &line));
  if (line == 0) {
    return kiln::InvalidArgumentError(
        "--correlate needs a line: --correlate=PATH:LINE");
  }
  KILN_ASSIGN_OR_RETURN(kiln::dump::Correlation correlation,
                        kiln::dump::Correlate(module, path, line));
  kiln::SourceLines texts(module);
  if (options.json) {
    json counterparts = json::array();
    for (const kiln::dump::Counterpart& c : correlation.counterparts) {
      counterparts.push_back(CounterpartJson(c, texts));
    }
    json document = CounterpartJson(correlation.line, texts);
    document["counterparts"] = std::move(counterparts);
    return PrintJson(document);
  }
  size_t width = correlation.line.stage.size();
  for (const kiln::dump::Counterpart& c : correlation.counterparts) {
    width = std::max(width, c.stage.size());
  }
  std::string out =
      kiln::StrCat(Pad(correlation.line.stage, width), "  ",
                   CounterpartText(correlation.line, texts), "\n");
  if (correlation.counterparts.empty()) {
    out += "  no counterparts: no op of another text stands for this line\n";
  }
  for (const kiln::dump::Counterpart& c : correlation.counterparts) {
    out += kiln::StrCat("  ", Pad(c.stage, width), "  ",
                        CounterpartText(c, texts), "\n");
  }
  if (!Print(out)) return kiln::InvalidArgumentError("cannot write to stdout");
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  KILN_ASSIGN_OR_RETURN(
      kiln::tools::CommandLine line,
      kiln::tools::ParseCommandLine(argc, argv,
                                    {{"json"},
                                     {"sources"},
                                     {"print-source", true},
                                     {"context", true},
                                     {"extract-sources", true},
                                     {"extract-libraries", true},
                                     {"force"},
                                     {"disassemble"},
                                     {"function", true},
                                     {"correlate", true}}));
  options->module_path = line.module_path;
  for (const kiln::tools::Flag& flag : line.flags) {
    const std::string_view name = flag.name, value = flag.value;
    if (name == "help") {
      options->help = true;
    } else if (name == "version") {
      options->version = true;
    } else if (name == "json") {
      options->json = true;
    } else if (name == "sources") {
      options->sources = true;
    } else if (name == "print-source") {
      options->has_print_source = true;
      options->print_source = std::string(value);
    } else if (name == "extract-sources") {
      options->has_extract = true;
      options->extract_dir = std::string(value);
    } else if (name == "extract-libraries") {
      options->has_extract_libraries = true;
      options->extract_libraries_dir = std::string(value);
    } else if (name == "force") {
      options->force = true;
    } else if (name == "disassemble") {
      options->disassemble = true;
    } else if (name == "correlate") {
      options->has_correlate = true;
      options->correlate = std::string(value);
    } else if (name == "function") {
      options->has_function = true;
      options->function = std::string(value);
    } else if (name == "context") {
      auto result = std::from_chars(value.data(), value.data() + value.size(),
                                    options->context);
      if (value.empty() || result.ec != std::errc() ||
          result.ptr != value.data() + value.size()) {
        return kiln::InvalidArgumentError(
            "--context expects a non-negative integer, got '", value, "'");
      }
      options->has_context = true;
    }
  }
  const int views = options->sources + options->has_print_source +
                    options->has_extract + options->has_extract_libraries +
                    options->disassemble + options->has_correlate;
  if (views > 1) {
    return kiln::InvalidArgumentError(
        "choose one of --sources, --print-source, --extract-sources, "
        "--extract-libraries, --disassemble and --correlate");
  }
  if (options->has_function && !options->disassemble) {
    return kiln::InvalidArgumentError(
        "--function only applies to --disassemble");
  }
  if (options->has_context && !options->has_print_source) {
    return kiln::InvalidArgumentError(
        "--context only applies to --print-source=PATH:LINE");
  }
  if (options->force && !options->has_extract &&
      !options->has_extract_libraries) {
    return kiln::InvalidArgumentError(
        "--force only applies to --extract-sources and --extract-libraries");
  }
  return kiln::OkStatus();
}

/// Runs the chosen view; `*exit_code` is 1 when some sources or libraries
/// could not be extracted (each was reported already).
kiln::Status Run(const Options& options, int* exit_code) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  // Verified as always, but no native code is loaded: the module may target
  // another CPU.
  kiln::ModuleLoadOptions load_options;
  load_options.load_libraries = false;
  KILN_ASSIGN_OR_RETURN(std::shared_ptr<const kiln::Module> module,
                        kiln::Module::Load(options.module_path, load_options));
  if (options.sources) return ShowSources(*module, options.json);
  if (options.disassemble) return Disassemble(*module, options);
  if (options.has_print_source) return PrintSource(*module, options);
  if (options.has_correlate) return ShowCorrelation(*module, options);
  if (options.has_extract) {
    KILN_ASSIGN_OR_RETURN(size_t failures, ExtractSources(*module, options));
    if (failures > 0) {
      std::fprintf(stderr,
                   "kiln-dump: error: %zu of %u source files were not "
                   "written\n",
                   failures, module->sources().size());
      *exit_code = 1;
    }
    return kiln::OkStatus();
  }
  if (options.has_extract_libraries) {
    KILN_ASSIGN_OR_RETURN(size_t failures, ExtractLibraries(*module, options));
    if (failures > 0) {
      const auto* libraries = module->flatbuffer().libraries();
      std::fprintf(stderr,
                   "kiln-dump: error: %zu of %u libraries were not written\n",
                   failures, libraries ? libraries->size() : 0);
      *exit_code = 1;
    }
    return kiln::OkStatus();
  }
  return ShowSummary(*module, options.json);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  kiln::Status status = ParseArgs(argc, argv, &options);
  if (status.ok() && options.version) {
    kiln::tools::Print(kiln::tools::VersionLine("kiln-dump"));
    status = kiln::tools::FlushStdout();
    if (status.ok()) return 0;
  }
  if (status.ok() && options.help) {
    Print(kUsage);
    status = kiln::tools::FlushStdout();
    if (status.ok()) return 0;
  }
  int exit_code = 0;
  if (status.ok()) {
    status = kiln::tools::ReportingOutOfMemory(
        [&] { return Run(options, &exit_code); });
  }
  if (status.ok()) status = kiln::tools::FlushStdout();
  if (!status.ok()) {
    kiln::tools::PrintError("kiln-dump", status);
    return 1;
  }
  return exit_code;
}
