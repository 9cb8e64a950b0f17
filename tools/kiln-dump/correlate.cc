//===- correlate.cc - A line's counterparts in every other text -----------===//

#include "correlate.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "kiln/printable.h"
#include "kiln/profiler.h"
#include "kiln/source_lines.h"
#include "kiln/sources.h"
#include "nlohmann/json.hpp"
#include "view_output.h"

namespace kiln::dump {

using nlohmann::json;

namespace {

using LineSet = std::set<uint32_t>;

/// The stage each captured text belongs to, from the exports' entry lines
/// (texts are named by convention only; the exports say for sure).
std::map<uint32_t, uint32_t> StagesOfTexts(const Module& module) {
  std::map<uint32_t, uint32_t> stages;
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      StatusOr<ExportView> ex = module.GetExport(e, x);
      if (!ex.ok()) continue;
      for (uint32_t i = 0; i < ex->stage_location_count(); ++i) {
        const StageLocationView location = ex->stage_location(i);
        stages.emplace(location.source, location.stage);
      }
    }
  }
  return stages;
}

class Correlator {
 public:
  explicit Correlator(const Module& module)
      : module_(module),
        table_(module.sources()),
        stages_(StagesOfTexts(module)) {}

  /// Lines of the text before `source` that `lines` of it came from.
  LineSet Previous(uint32_t source, const LineSet& lines) const {
    LineSet previous;
    for (uint32_t line : lines) {
      const std::vector<LineOriginView>& rows = Rows(source);
      const auto [first, last] = SourceTable::FindOrigins(rows, line);
      for (uint32_t row = first; row < last; ++row) {
        const uint32_t previous_line = rows[row].previous_line;
        if (previous_line) previous.insert(previous_line);
      }
    }
    return previous;
  }

  /// Lines of `next` (whose previous text is `source`) that came from
  /// `lines` of `source`.
  LineSet Next(uint32_t next, const LineSet& lines) const {
    LineSet found;
    for (const LineOriginView& origin : Rows(next)) {
      if (lines.count(origin.previous_line)) found.insert(origin.line);
    }
    return found;
  }

  /// (input file, line) of `lines` of `source`.
  std::set<std::pair<uint32_t, uint32_t>> Inputs(uint32_t source,
                                                 const LineSet& lines) const {
    std::set<std::pair<uint32_t, uint32_t>> inputs;
    for (uint32_t line : lines) {
      const std::vector<LineOriginView>& rows = Rows(source);
      const auto [first, last] = SourceTable::FindOrigins(rows, line);
      for (uint32_t row = first; row < last; ++row) {
        const LineOriginView& origin = rows[row];
        if (origin.input_line) {
          inputs.emplace(origin.input_file, origin.input_line);
        }
      }
    }
    return inputs;
  }

  Counterpart Text(uint32_t source, uint32_t line) const {
    auto stage = stages_.find(source);
    return {stage == stages_.end()
                ? std::string("?")
                : std::string(module_.capture_stage(stage->second)),
            table_.file(source).path, line, source};
  }

  Counterpart Input(uint32_t input_file, uint32_t line) const {
    const std::string_view path = table_.input_file(input_file);
    return {std::string(kInputStage), path, line,
            table_.FindIndex(path).value_or(kNoSource)};
  }

  /// From a stage text's line: back to the first stage and the input, and
  /// on to the last stage.
  void FromStageText(uint32_t source, uint32_t line, Correlation* out) const {
    std::vector<Counterpart> before, after;
    LineSet lines{line};
    for (uint32_t at = source, steps = 0;
         table_.file(at).previous != kNoSource && steps < table_.size();
         ++steps) {
      lines = Previous(at, lines);
      at = table_.file(at).previous;
      for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        before.push_back(Text(at, *it));
      }
    }
    std::reverse(before.begin(), before.end());
    lines = {line};
    for (uint32_t at = source, steps = 0; steps < table_.size(); ++steps) {
      std::optional<uint32_t> next;
      for (uint32_t i = 0; i < table_.size() && !next; ++i) {
        if (table_.file(i).previous == at) next = i;
      }
      if (!next) break;
      lines = Next(*next, lines);
      at = *next;
      for (uint32_t l : lines) after.push_back(Text(at, l));
    }
    out->counterparts = std::move(before);
    out->counterparts.insert(out->counterparts.end(), after.begin(),
                             after.end());
    for (const auto& [file, input_line] : Inputs(source, {line})) {
      out->counterparts.push_back(Input(file, input_line));
    }
  }

  /// From an input line: the lines of every stage text that came from it.
  void FromInput(uint32_t input_file, uint32_t line, Correlation* out) const {
    for (const auto& [source, stage] : stages_) {
      for (const LineOriginView& origin : Rows(source)) {
        if (origin.input_file == input_file && origin.input_line == line &&
            (out->counterparts.empty() ||
             out->counterparts.back().source != source ||
             out->counterparts.back().line != origin.line)) {
          out->counterparts.push_back(Text(source, origin.line));
        }
      }
    }
    // Stages in pipeline order, texts by path within one.
    std::stable_sort(out->counterparts.begin(), out->counterparts.end(),
                     [&](const Counterpart& a, const Counterpart& b) {
                       return stages_.at(a.source) < stages_.at(b.source);
                     });
  }

  bool IsStageText(uint32_t source) const { return stages_.count(source); }

 private:
  // The line origins of `source`; Correlate unpacked every file's first.
  const std::vector<LineOriginView>& Rows(uint32_t source) const {
    return **table_.origins(source);
  }

  const Module& module_;
  const SourceTable& table_;
  const std::map<uint32_t, uint32_t> stages_;
};

bool HasLineMaps(const SourceTable& table) {
  for (uint32_t i = 0; i < table.size(); ++i) {
    if (table.file(i).origin_count) return true;
  }
  return false;
}

json CounterpartJson(const Counterpart& line, SourceLines& texts) {
  return json{{"stage", line.stage},
              {"path", std::string(line.path)},
              {"line", line.line},
              {"text", line.source == kNoSource
                           ? json(nullptr)
                           : json(texts.Get(line.source, line.line))}};
}

std::string CounterpartText(const Counterpart& line, SourceLines& texts) {
  return StrCat(Printable(line.path), ":", line.line, "  ",
                line.source == kNoSource ? std::string("(text not embedded)")
                                         : texts.Get(line.source, line.line));
}

}  // namespace

StatusOr<Correlation> Correlate(const Module& module, std::string_view path,
                                uint32_t line) {
  const SourceTable& table = module.sources();
  if (!HasLineMaps(table)) {
    return FailedPreconditionError(
        "the module carries no cross-stage line maps (compile it with "
        "--executable-debug-level=3)");
  }
  for (uint32_t i = 0; i < table.size(); ++i) {
    KILN_RETURN_IF_ERROR(table.origins(i).status());
  }
  Correlator correlator(module);
  Correlation out;
  const std::optional<uint32_t> source = table.FindIndex(path);
  if (source && correlator.IsStageText(*source)) {
    const uint32_t lines = table.file(*source).line_count;
    if (line > lines) {
      return OutOfRangeError("line ", line, " is past the end of '",
                             Printable(path), "' (", lines, " lines)");
    }
    out.line = correlator.Text(*source, line);
    correlator.FromStageText(*source, line, &out);
    return out;
  }
  const std::optional<uint32_t> input = table.FindInputFile(path);
  if (!input) {
    return NotFoundError("no stage text or input file '", Printable(path),
                         "' in the module's line maps (list the texts with "
                         "--sources)");
  }
  if (source && line > table.file(*source).line_count) {
    return OutOfRangeError("line ", line, " is past the end of '",
                           Printable(path), "' (",
                           table.file(*source).line_count, " lines)");
  }
  out.line = correlator.Input(*input, line);
  correlator.FromInput(*input, line, &out);
  return out;
}

Status ShowCorrelation(const Module& module, const Options& options) {
  const SourceTable& table = module.sources();
  KILN_ASSIGN_OR_RETURN(
      const PathLine argument,
      SplitPathLine("correlate", options.correlate,
                    table.Find(options.correlate) ||
                        table.FindInputFile(options.correlate)));
  if (argument.line == 0) {
    return InvalidArgumentError(
        "--correlate needs a line: --correlate=PATH:LINE");
  }
  KILN_ASSIGN_OR_RETURN(Correlation correlation,
                        Correlate(module, argument.path, argument.line));
  SourceLines texts(module);
  if (options.json) {
    json counterparts = json::array();
    for (const Counterpart& c : correlation.counterparts) {
      counterparts.push_back(CounterpartJson(c, texts));
    }
    json document = CounterpartJson(correlation.line, texts);
    document["counterparts"] = std::move(counterparts);
    return PrintJson(document);
  }
  size_t width = correlation.line.stage.size();
  for (const Counterpart& c : correlation.counterparts) {
    width = std::max(width, c.stage.size());
  }
  std::string out = StrCat(Pad(correlation.line.stage, width), "  ",
                           CounterpartText(correlation.line, texts), "\n");
  if (correlation.counterparts.empty()) {
    out += "  no counterparts: no op of another text stands for this line\n";
  }
  for (const Counterpart& c : correlation.counterparts) {
    out += StrCat("  ", Pad(c.stage, width), "  ", CounterpartText(c, texts),
                  "\n");
  }
  return PrintText(out);
}

}  // namespace kiln::dump
