//===- profile_html.cc - A sampled profile as one HTML page ---------------===//
//
// The C++ side gathers the data (the profile at every captured stage and at
// the input, the ops, the flame graph's frames, windows of the texts and
// their line maps) into one JSON object; the page's script
// (profile_html_page.inc) draws it.
//
//===----------------------------------------------------------------------===//

#include "kiln/profile_html.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/json_string.h"
#include "kiln/printable.h"
#include "kiln/profile_report.h"
#include "kiln/sources.h"
#include "kiln/status.h"

namespace kiln {

namespace {

// The page around the data: kPageHead, the JSON, kPageTail.
#include "report/profile_html_page.inc"

/// Stage index of a text of the input program in the page's data.
constexpr int kInputText = -1;

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

void AppendKey(std::string* out, std::string_view key) {
  AppendJsonString(out, key);
  out->push_back(':');
}

/// A name or location read from the module, as the page shows it.
void AppendText(std::string* out, std::string_view text) {
  AppendJsonString(out, Printable(text));
}

/// What identifies an input op across dispatches, as ProfileByInputOp
/// counts them: a node by its name, another op by its location.
std::string OpKey(const InputNodeView& node, const SourceLocationView& where) {
  return node.known() ? StrCat("node\n", node.name)
                      : StrCat("op\n", where.ToString());
}

/// A text the page shows (a stage text or an input file) and the lines it
/// needs of it.
struct PageText {
  std::string_view path;
  uint32_t source = kNoSource;  // kNoSource: not embedded in the module
  int stage = kInputText;
  /// Lines with samples and exports' entry lines: the page embeds the lines
  /// around them.
  std::set<uint32_t> wanted;
};

class PageTexts {
 public:
  explicit PageTexts(const Module& module) : module_(module) {
    for (uint32_t e = 0; e < module.executable_count(); ++e) {
      for (uint32_t x = 0; x < module.export_count(e); ++x) {
        const StatusOr<ExportView> ex = module.GetExport(e, x);
        for (uint32_t i = 0; ex.ok() && i < ex->stage_location_count(); ++i) {
          const StageLocationView location = ex->stage_location(i);
          stage_of_source_.emplace(location.source, location.stage);
        }
      }
    }
  }

  /// The index of the text at `path` (source `source`, kNoSource if the
  /// module does not embed it), added on first use.
  size_t Get(std::string_view path, uint32_t source) {
    auto [it, added] = index_.try_emplace(path, texts_.size());
    if (added) {
      PageText& text = texts_.emplace_back();
      text.path = path;
      text.source = source;
      if (auto stage = stage_of_source_.find(source);
          source != kNoSource && stage != stage_of_source_.end()) {
        text.stage = static_cast<int>(stage->second);
      }
    } else if (texts_[it->second].source == kNoSource) {
      texts_[it->second].source = source;
    }
    return it->second;
  }
  size_t GetSource(uint32_t source) {
    return Get(module_.sources().file(source).path, source);
  }
  /// An input file that line maps name, by its index among them.
  size_t GetInputFile(uint32_t input_file) {
    const std::string_view path = module_.sources().input_file(input_file);
    return Get(path, module_.sources().FindIndex(path).value_or(kNoSource));
  }

  PageText& operator[](size_t index) { return texts_[index]; }
  size_t size() const { return texts_.size(); }

  /// The "texts" array: each text's embedded lines (segments of
  /// consecutive lines) and line maps, within the size caps.
  void Append(std::string* out) {
    out->push_back('[');
    uint64_t embedded = 0;  // bytes of lines, over all texts
    // Origin rows of later texts add texts (input files) to the end.
    for (size_t t = 0; t < texts_.size(); ++t) {
      if (t) out->append(",\n");
      AppendOne(t, &embedded, out);
    }
    out->push_back(']');
  }

 private:
  void AppendOne(size_t index, uint64_t* embedded, std::string* out) {
    const PageText text = texts_[index];  // a copy: Get may grow texts_
    out->push_back('{');
    AppendKey(out, "path");
    AppendText(out, text.path);
    out->append(StrCat(",\"stage\":", text.stage));
    std::string omitted;
    std::string lines = "[]";
    uint64_t line_count = 0;
    if (text.source == kNoSource) {
      omitted =
          "the module does not embed this text (compile with "
          "--executable-embed-input-files to see the input's lines)";
    } else {
      const SourceFileView file = module_.sources().file(text.source);
      line_count = file.line_count;
      if (file.uncompressed_size > kMaxEmbeddedTextsBytes) {
        omitted = StrCat("a text of ", file.uncompressed_size,
                         " bytes, more than the report reads (", Caps(), ")");
      } else if (StatusOr<std::string> body = file.Decompress(); !body.ok()) {
        omitted = StrCat("cannot read the text: ", body.status().message());
      } else {
        if (line_count == 0) {
          line_count = std::count(body->begin(), body->end(), '\n') +
                       (!body->empty() && body->back() != '\n');
        }
        lines = Segments(*body, text, line_count, embedded, &omitted);
      }
    }
    out->append(StrCat(",\"line_count\":", line_count, ",\"segments\":"));
    out->append(lines);
    out->append(",\"omitted\":");
    if (omitted.empty()) {
      out->append("null");
    } else {
      AppendJsonString(out, omitted);
    }
    // The line maps of a stage text: [line, previous line, input text,
    // input line] per row, flat (the page follows them both ways).
    out->append(",\"previous\":");
    std::string origins = "[";
    int previous = -1;
    if (text.source != kNoSource && text.stage != kInputText) {
      const SourceTable& table = module_.sources();
      const SourceFileView file = table.file(text.source);
      if (file.previous != kNoSource) {
        previous = static_cast<int>(GetSource(file.previous));
      }
      // Rows are numbers: 16 bytes each against the caps. A bad table
      // (which the profile's roll-up reports) leaves the text without rows.
      const StatusOr<const std::vector<LineOriginView>*> rows =
          table.origins(text.source);
      if (rows.ok() && *embedded + 16 * uint64_t{file.origin_count} <=
                           kMaxEmbeddedTextsBytes) {
        *embedded += 16 * uint64_t{file.origin_count};
        for (uint32_t row = 0; row < (*rows)->size(); ++row) {
          const LineOriginView& origin = (**rows)[row];
          const int input =
              origin.input_line
                  ? static_cast<int>(GetInputFile(origin.input_file))
                  : -1;
          origins +=
              StrCat(row ? "," : "", origin.line, ",", origin.previous_line,
                     ",", input, ",", origin.input_line);
        }
      }
    }
    origins += "]";
    out->append(StrCat(previous, ",\"origins\":", origins, "}"));
  }

  static std::string Caps() {
    return StrCat("the report embeds at most ", kMaxEmbeddedTextBytes,
                  " bytes of a text and ", kMaxEmbeddedTextsBytes,
                  " in all; kiln-dump --print-source shows it");
  }

  /// [[first line, [lines...]], ...]: the whole text when short, else the
  /// lines around the wanted ones, in one pass over the text.
  std::string Segments(std::string_view body, const PageText& text,
                       uint64_t line_count, uint64_t* embedded,
                       std::string* omitted) {
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    if (line_count <= kProfileHtmlWholeTextLines) {
      ranges.emplace_back(1, line_count);
    } else {
      for (uint32_t line : text.wanted) {
        const uint64_t first = line > kProfileHtmlContextLines
                                   ? line - kProfileHtmlContextLines
                                   : 1;
        const uint64_t last =
            std::min<uint64_t>(line_count, line + kProfileHtmlContextLines);
        if (!ranges.empty() && first <= ranges.back().second + 1) {
          ranges.back().second = std::max(ranges.back().second, last);
        } else if (first <= last) {
          ranges.emplace_back(first, last);
        }
      }
    }
    std::string out = "[";
    uint64_t text_bytes = 0;
    size_t range = 0;
    bool open = false;  // a segment is open at the previous line
    uint64_t number = 1;
    for (size_t at = 0; at < body.size() && range < ranges.size(); ++number) {
      size_t end = body.find('\n', at);
      if (end == std::string_view::npos) end = body.size();
      const std::string_view line = body.substr(at, end - at);
      at = end + 1;
      if (number < ranges[range].first) continue;
      std::string shown;
      AppendJsonString(&shown, PrintableSourceLine(line));
      if (text_bytes + shown.size() > kMaxEmbeddedTextBytes ||
          *embedded + shown.size() > kMaxEmbeddedTextsBytes) {
        *omitted = StrCat("lines from ", number, " on are left out: ", Caps());
        break;
      }
      text_bytes += shown.size();
      *embedded += shown.size();
      if (!open) {
        out += StrCat(out.size() > 1 ? "," : "", "[", number, ",[");
      } else {
        out += ",";
      }
      out += shown;
      open = true;
      if (number == ranges[range].second) {
        out += "]]";
        open = false;
        ++range;
      }
    }
    if (open) out += "]]";
    out += "]";
    return out;
  }

  const Module& module_;
  std::map<uint32_t, uint32_t> stage_of_source_;
  std::vector<PageText> texts_;
  std::map<std::string_view, size_t> index_;
};

/// The report's data: see the page's script for how each part is drawn.
class PageData {
 public:
  PageData(const Module& module, const Profile& sampled,
           std::string_view function)
      : module_(module),
        sampled_(sampled),
        function_(function),
        texts_(module) {}

  std::string Build() {
    RollUp();
    std::string out = "{";
    AppendKey(&out, "function");
    AppendText(&out, function_);
    out += ",";
    AppendKey(&out, "module");
    AppendText(&out, module_.name());
    out += ",";
    AppendSampling(&out);
    out += ",\"stages\":[";
    for (uint32_t s = 0; s < module_.capture_stage_count(); ++s) {
      if (s) out += ",";
      AppendText(&out, module_.capture_stage(s));
    }
    out += "],\n";
    AppendOps(&out);
    out += ",\n\"exports\":[";
    for (size_t e = 0; e < sampled_.exports.size(); ++e) {
      out += e ? ",\n" : "\n";
      AppendExport(e, &out);
    }
    // Last: the exports name the texts they need.
    out += "],\n\"context_lines\":" + StrCat(kProfileHtmlContextLines) +
           ",\"whole_text_lines\":" + StrCat(kProfileHtmlWholeTextLines) +
           ",\n\"texts\":";
    texts_.Append(&out);
    out += "}";
    return out;
  }

 private:
  /// The profile at each captured stage and at the input.
  void RollUp() {
    for (uint32_t s = 0; s < module_.capture_stage_count(); ++s) {
      StatusOr<Profile> rolled =
          RollUpProfile(module_, sampled_, module_.capture_stage(s));
      staged_.push_back(rolled.ok() ? std::optional<Profile>(*rolled)
                                    : std::nullopt);
    }
    StatusOr<Profile> input = RollUpProfile(module_, sampled_, kInputStage);
    input_ = input.ok() ? *input : sampled_;
    ops_ = ProfileByInputOp(input_);
    for (size_t i = 0; i < ops_.ops.size(); ++i) {
      op_index_.emplace(OpKey(ops_.ops[i].node, ops_.ops[i].location), i);
    }
  }

  void AppendSampling(std::string* out) {
    *out += StrCat("\"sampling\":{\"samples\":", sampled_.samples,
                   ",\"host_samples\":", sampled_.host_samples,
                   ",\"dropped_samples\":", sampled_.dropped_samples,
                   ",\"kernel_samples\":", ops_.kernel_samples);
    if (sampled_.sampling) {
      const ProfileSampling& sampling = *sampled_.sampling;
      *out += ",\"clock\":";
      AppendJsonString(out, sampling.clock == ProfileClock::kCpuTimeTimer
                                ? "CPU-time timers"
                                : "the cpu-clock event");
      *out += StrCat(",\"hz\":", sampling.hz,
                     ",\"hz_reached\":", Number(sampled_.hz_reached()),
                     ",\"threads\":", sampling.threads,
                     ",\"cpu_seconds\":", Number(sampling.cpu_seconds));
    }
    *out += ",\"advice\":";
    AppendJsonString(out, DescribeSampling(sampled_));
    *out += "}";
  }

  /// "ops": the input ops (an imported model's nodes) by samples.
  void AppendOps(std::string* out) {
    const bool model = !ops_.ops.empty() && ops_.ops.front().node.known();
    *out +=
        StrCat("\"model\":", model ? "true" : "false",
               ",\"unplaced_samples\":", ops_.unplaced_samples, ",\n\"ops\":[");
    std::map<std::string_view, size_t> export_index;
    for (size_t e = 0; e < sampled_.exports.size(); ++e) {
      export_index.emplace(sampled_.exports[e].export_view.name(), e);
    }
    for (size_t i = 0; i < ops_.ops.size(); ++i) {
      const ProfileInputOp& op = ops_.ops[i];
      *out += i ? ",\n{" : "\n{";
      AppendKey(out, "name");
      AppendText(out, op.node.known() ? op.node.name : op.op_name);
      *out += ",";
      AppendKey(out, "type");
      AppendText(out, op.node.known() ? op.node.op_type : op.op_name);
      *out += ",";
      AppendKey(out, "location");
      AppendText(out, op.location.ToString());
      *out += StrCat(",\"samples\":", op.samples, ",\"dispatches\":[");
      for (size_t d = 0; d < op.exports.size(); ++d) {
        auto found = export_index.find(op.exports[d]);
        *out += StrCat(d ? "," : "", found == export_index.end()
                                         ? -1
                                         : static_cast<int64_t>(found->second));
      }
      *out += "]}";
    }
    *out += "]";
  }

  /// The op a line of the input program lies in, as an index into "ops"
  /// (-1: none).
  int64_t OpOf(const ExportView& ex, const ProfileLine& line) const {
    if (line.line == 0) return -1;
    std::optional<FusedOpView> op = FindLineOp(ex, line.path, line.line);
    if (!op) return -1;
    auto found = op_index_.find(OpKey(op->node, op->location));
    return found == op_index_.end() ? -1 : static_cast<int64_t>(found->second);
  }

  /// The flame graph's frames under export `e`: per input op, the lines of
  /// the sampled text, each line's samples split over the ops as the
  /// roll-up to the input splits them (so they add up to the table's).
  std::string Flame(size_t e) {
    const ProfileExport& ex = sampled_.exports[e];
    // One roll-up for all lines: each line an "export" of its own.
    Profile per_line;
    for (const ProfileLine& line : ex.lines) {
      per_line.exports.push_back({ex.export_view, line.samples, {line}});
    }
    StatusOr<Profile> rolled = RollUpProfile(module_, per_line, kInputStage);
    if (!rolled.ok()) return "[]";
    // op -> (text, line) -> samples.
    std::map<int64_t, std::map<std::pair<int64_t, uint32_t>, uint64_t>> ops;
    for (size_t l = 0; l < ex.lines.size(); ++l) {
      const ProfileLine& line = ex.lines[l];
      const int64_t text =
          line.line == 0
              ? -1
              : static_cast<int64_t>(texts_.Get(line.path, line.source));
      if (text >= 0) texts_[text].wanted.insert(line.line);
      for (const ProfileLine& input : rolled->exports[l].lines) {
        ops[OpOf(ex.export_view, input)][{text, line.line}] += input.samples;
      }
    }
    // Most samples first.
    std::vector<std::pair<uint64_t, std::string>> frames;
    for (const auto& [op, lines] : ops) {
      std::vector<std::pair<uint64_t, std::string>> leaves;
      uint64_t total = 0;
      for (const auto& [where, samples] : lines) {
        leaves.emplace_back(samples, StrCat("[", where.first, ",", where.second,
                                            ",", samples, "]"));
        total += samples;
      }
      std::stable_sort(
          leaves.begin(), leaves.end(),
          [](const auto& a, const auto& b) { return a.first > b.first; });
      std::string frame = StrCat("[", op, ",", total, ",[");
      for (size_t i = 0; i < leaves.size(); ++i) {
        frame += StrCat(i ? "," : "", leaves[i].second);
      }
      frames.emplace_back(total, frame + "]]");
    }
    std::stable_sort(
        frames.begin(), frames.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out = "[";
    for (size_t i = 0; i < frames.size(); ++i) {
      out += StrCat(i ? "," : "", frames[i].second);
    }
    return out + "]";
  }

  /// {"text", "entry" line, "lines": [[line, samples], ...]}: samples of
  /// export `e` on the lines of one text.
  std::string ExportText(size_t text, uint32_t entry,
                         const std::vector<const ProfileLine*>& lines) {
    if (entry) texts_[text].wanted.insert(entry);
    std::string out =
        StrCat("{\"text\":", text, ",\"entry\":", entry, ",\"lines\":[");
    for (size_t i = 0; i < lines.size(); ++i) {
      texts_[text].wanted.insert(lines[i]->line);
      out += StrCat(i ? "," : "", "[", lines[i]->line, ",", lines[i]->samples,
                    "]");
    }
    return out + "]}";
  }

  void AppendExport(size_t e, std::string* out) {
    const ProfileExport& ex = sampled_.exports[e];
    const ExportView& view = ex.export_view;
    *out += "{";
    AppendKey(out, "name");
    AppendText(out, view.name());
    *out += ",";
    AppendKey(out, "executable");
    AppendText(out, view.executable_name());
    *out += StrCat(",\"samples\":", ex.samples,
                   ",\"unplaced_samples\":", UnplacedSamples(input_.exports[e]),
                   ",\"flame\":", Flame(e), ",\"texts\":[");
    bool first = true;
    // Each captured stage's text, in pipeline order.
    for (uint32_t i = 0; i < view.stage_location_count(); ++i) {
      const StageLocationView location = view.stage_location(i);
      std::vector<const ProfileLine*> lines;
      if (location.stage < staged_.size() && staged_[location.stage]) {
        for (const ProfileLine& line :
             staged_[location.stage]->exports[e].lines) {
          if (line.line && line.source == location.source) {
            lines.push_back(&line);
          }
        }
      }
      *out += first ? "" : ",";
      first = false;
      *out +=
          ExportText(texts_.GetSource(location.source), location.line, lines);
    }
    // Then the input program's files: the export's own location first.
    std::map<std::string_view, std::vector<const ProfileLine*>> inputs;
    const SourceLocationView home = view.location();
    if (home.known()) inputs[home.file];
    for (const ProfileLine& line : input_.exports[e].lines) {
      if (line.line) inputs[line.path].push_back(&line);
    }
    for (const auto& [path, lines] : inputs) {
      const uint32_t source =
          lines.empty() ? module_.sources().FindIndex(path).value_or(kNoSource)
                        : lines.front()->source;
      *out += first ? "" : ",";
      first = false;
      *out += ExportText(texts_.Get(path, source),
                         path == home.file ? home.line : 0, lines);
    }
    *out += "]}";
  }

  const Module& module_;
  const Profile& sampled_;
  const std::string_view function_;
  PageTexts texts_;
  std::vector<std::optional<Profile>> staged_;
  Profile input_;
  ProfileInputOps ops_;
  std::map<std::string, size_t> op_index_;
};

}  // namespace

std::string FormatProfileHtml(const Module& module, const Profile& sampled,
                              std::string_view function) {
  std::string data = PageData(module, sampled, function).Build();
  // Inside <script>, "</script" or "<!--" would end or change the block;
  // '<' occurs in JSON only within strings, where \u003c reads the same.
  std::string escaped;
  escaped.reserve(data.size());
  for (char c : data) {
    if (c == '<') {
      escaped += "\\u003c";
    } else {
      escaped.push_back(c);
    }
  }
  return StrCat(kPageHead, escaped, kPageTail);
}

}  // namespace kiln
