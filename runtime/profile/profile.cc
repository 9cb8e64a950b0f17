//===- profile.cc - Sampled program counters by export and line -----------===//

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "kiln/profiler.h"
#include "kiln/status.h"

namespace kiln {

namespace {

/// Most samples first, then by text and line.
void SortLines(std::vector<ProfileLine>* lines) {
  std::sort(lines->begin(), lines->end(),
            [](const ProfileLine& a, const ProfileLine& b) {
              return std::tie(b.samples, a.path, a.line) <
                     std::tie(a.samples, b.path, b.line);
            });
}

/// Samples of one export, by (text path, line), rolled up to one stage.
class RollUp {
 public:
  /// To the text of source `target`, or the input program if kNoSource.
  /// `stage_texts` are the module's captured texts, sorted: any other text
  /// a line names is the input program's (line tables at levels 1 and 2).
  RollUp(const Module& module, uint32_t target,
         const std::vector<uint32_t>& stage_texts)
      : sources_(module.sources()),
        target_(target),
        to_input_(target == kNoSource),
        stage_texts_(stage_texts) {}

  /// Adds the samples of `line`, traced back to the stage; fails when a
  /// line map on the way is bad.
  Status Add(const ProfileLine& line) {
    // A line of an input file the module does not embed is already the
    // input's; it has no counterpart in a stage text.
    if (line.line != 0 && line.source == kNoSource && !line.path.empty()) {
      if (to_input_) {
        Count(line.path, kNoSource, line.line, line.samples);
      } else {
        Count({}, kNoSource, 0, line.samples);
      }
      return OkStatus();
    }
    return Add(line.source, line.line, line.samples);
  }

  std::vector<ProfileLine> TakeLines() {
    std::vector<ProfileLine> lines;
    for (const auto& [key, row] : counts_) lines.push_back(row);
    SortLines(&lines);
    return lines;
  }

 private:
  /// Adds `samples` on `line` of source `source` (0: no line), traced back
  /// to the stage.
  Status Add(uint32_t source, uint32_t line, uint64_t samples) {
    if (line == 0 || source == kNoSource) {
      Count({}, kNoSource, 0, samples);
      return OkStatus();
    }
    const SourceFileView file = sources_.file(source);
    const bool input_text =
        !std::binary_search(stage_texts_.begin(), stage_texts_.end(), source);
    if (source == target_ || (to_input_ && input_text)) {
      Count(file.path, source, line, samples);
      return OkStatus();
    }
    KILN_ASSIGN_OR_RETURN(const std::vector<LineOriginView>* origins,
                          sources_.origins(source));
    const auto [first, last] = SourceTable::FindOrigins(*origins, line);
    // Distinct counterparts, in row order (sorted, so duplicates adjoin
    // for previous lines; input lines are deduplicated here).
    std::vector<std::pair<uint32_t, uint32_t>> targets;
    for (uint32_t row = first; row < last; ++row) {
      const LineOriginView& origin = (*origins)[row];
      const auto target =
          to_input_ ? std::make_pair(origin.input_file, origin.input_line)
                    : std::make_pair(file.previous, origin.previous_line);
      if (target.second == 0 || (!to_input_ && target.first == kNoSource)) {
        continue;
      }
      if (std::find(targets.begin(), targets.end(), target) == targets.end()) {
        targets.push_back(target);
      }
    }
    if (targets.empty()) {
      Count({}, kNoSource, 0, samples);
      return OkStatus();
    }
    const uint64_t share = samples / targets.size();
    uint64_t remainder = samples % targets.size();
    for (const auto& [file_index, target_line] : targets) {
      const uint64_t part = share + (remainder ? 1 : 0);
      if (remainder) --remainder;
      if (part == 0) continue;
      if (to_input_) {
        const std::string_view path = sources_.input_file(file_index);
        Count(path, sources_.FindIndex(path).value_or(kNoSource), target_line,
              part);
      } else {
        KILN_RETURN_IF_ERROR(Add(file_index, target_line, part));
      }
    }
    return OkStatus();
  }

  void Count(std::string_view path, uint32_t source, uint32_t line,
             uint64_t samples) {
    ProfileLine& row = counts_[{path, line}];
    row.source = source;
    row.line = line;
    row.path = path;
    row.samples += samples;
  }

  const SourceTable& sources_;
  const uint32_t target_;
  const bool to_input_;
  const std::vector<uint32_t>& stage_texts_;
  std::map<std::pair<std::string_view, uint32_t>, ProfileLine> counts_;
};

}  // namespace

double Profile::cpu_seconds_per_sample() const {
  const uint64_t taken = samples + dropped_samples;
  if (!sampling || taken == 0) return 0;
  return sampling->cpu_seconds / static_cast<double>(taken);
}

double Profile::hz_reached() const {
  if (!sampling || sampling->cpu_seconds <= 0) return 0;
  return static_cast<double>(samples + dropped_samples) / sampling->cpu_seconds;
}

namespace {

/// The index in `ex`'s provenance of FindLineOp's op.
std::optional<uint32_t> FindLineOpIndex(const ExportView& ex,
                                        std::string_view path, uint32_t line) {
  std::optional<uint32_t> found;
  std::pair<uint32_t, uint32_t> found_start;
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const FusedOpView op = ex.provenance(p);
    // The kernel's lines are its own dispatch's (site 0). The op starting
    // last (line, then column) is the innermost; of entries at one place,
    // the last: a decomposed op's fill comes before its work.
    const std::pair<uint32_t, uint32_t> start = {op.location.line,
                                                 op.location.column};
    if (op.site == 0 && op.location.line <= line && line <= op.last_line &&
        op.location.file == path && (!found || start >= found_start)) {
      found = p;
      found_start = start;
    }
  }
  return found;
}

/// For each op of `ex`'s own dispatch (site 0), by its index, the indices
/// of the ops standing for it in every dispatch sharing the kernel (its own
/// first): in each site, the entry of the same kernel op at the same
/// position among that op's entries, or the op's first.
std::vector<std::vector<uint32_t>> SharingOps(const ExportView& ex) {
  // (site, kernel op) -> entries, in order.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> groups;
  uint32_t sites = 1;
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const FusedOpView op = ex.provenance(p);
    groups[{op.site, op.kernel_op}].push_back(p);
    // Sites are numbered densely; a module numbering past its entries
    // shares nothing.
    sites = op.site < ex.provenance_count() ? std::max(sites, op.site + 1)
                                            : ex.provenance_count() + 1;
  }
  if (sites > ex.provenance_count()) sites = 1;
  std::vector<std::vector<uint32_t>> sharing(ex.provenance_count());
  for (const auto& [key, entries] : groups) {
    if (key.first != 0) continue;
    for (size_t m = 0; m < entries.size(); ++m) {
      std::vector<uint32_t>& equivalents = sharing[entries[m]];
      equivalents.push_back(entries[m]);
      for (uint32_t site = 1; site < sites; ++site) {
        auto other = groups.find({site, key.second});
        if (other == groups.end()) continue;
        equivalents.push_back(
            other->second[std::min(m, other->second.size() - 1)]);
      }
    }
  }
  return sharing;
}

}  // namespace

std::optional<FusedOpView> FindLineOp(const ExportView& ex,
                                      std::string_view path, uint32_t line) {
  std::optional<uint32_t> index = FindLineOpIndex(ex, path, line);
  if (!index) return std::nullopt;
  return ex.provenance(*index);
}

ProfileInputOps ProfileByInputOp(const Profile& profile) {
  ProfileInputOps result;
  // An op's (or node's) entry, and its samples per export.
  std::unordered_map<std::string, size_t> index;
  std::vector<std::vector<std::pair<std::string_view, uint64_t>>> exports;
  auto add = [&](const ExportView& ex, const FusedOpView& op,
                 uint64_t samples) {
    const std::string key = op.node.known()
                                ? StrCat("node\n", op.node.name)
                                : StrCat("op\n", op.location.ToString());
    auto [it, added] = index.try_emplace(key, result.ops.size());
    if (added) {
      result.ops.push_back({op.node, op.name, op.location, 0, {}});
      exports.emplace_back();
    }
    ProfileInputOp& entry = result.ops[it->second];
    entry.samples += samples;
    // A node is where its first op is.
    if (op.location.line < entry.location.line) {
      entry.op_name = op.name;
      entry.location = op.location;
    }
    auto& per_export = exports[it->second];
    const std::string_view name = ex.name();
    auto seen = std::find_if(per_export.begin(), per_export.end(),
                             [&](const auto& e) { return e.first == name; });
    if (seen == per_export.end()) {
      per_export.emplace_back(name, samples);
    } else {
      seen->second += samples;
    }
  };
  for (const ProfileExport& ex : profile.exports) {
    result.kernel_samples += ex.samples;
    const std::vector<std::vector<uint32_t>> sharing =
        SharingOps(ex.export_view);
    for (const ProfileLine& line : ex.lines) {
      std::optional<uint32_t> op =
          line.line ? FindLineOpIndex(ex.export_view, line.path, line.line)
                    : std::nullopt;
      if (!op || *op >= sharing.size() || sharing[*op].empty()) {
        result.unplaced_samples += line.samples;
        continue;
      }
      // Dispatches sharing a kernel do the same work: each gets an equal
      // part (the first ones the remainder).
      const std::vector<uint32_t>& equivalents = sharing[*op];
      const uint64_t part = line.samples / equivalents.size();
      uint64_t remainder = line.samples % equivalents.size();
      for (uint32_t equivalent : equivalents) {
        const uint64_t samples = part + (remainder ? 1 : 0);
        if (remainder) --remainder;
        if (samples) {
          add(ex.export_view, ex.export_view.provenance(equivalent), samples);
        }
      }
    }
  }
  for (size_t i = 0; i < result.ops.size(); ++i) {
    std::stable_sort(
        exports[i].begin(), exports[i].end(),
        [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [name, samples] : exports[i]) {
      result.ops[i].exports.push_back(name);
    }
  }
  std::stable_sort(result.ops.begin(), result.ops.end(),
                   [](const ProfileInputOp& a, const ProfileInputOp& b) {
                     return a.samples > b.samples;
                   });
  return result;
}

uint64_t UnplacedSamples(const ProfileExport& ex) {
  uint64_t unplaced = 0;
  for (const ProfileLine& line : ex.lines) {
    if (!line.line || !FindLineOpIndex(ex.export_view, line.path, line.line)) {
      unplaced += line.samples;
    }
  }
  return unplaced;
}

StatusOr<Profile> RollUpProfile(const Module& module, const Profile& profile,
                                std::string_view stage) {
  const std::optional<uint32_t> stage_index = module.FindCaptureStage(stage);
  if (!stage_index && stage != kInputStage) {
    std::string stages;
    for (uint32_t i = 0; i < module.capture_stage_count(); ++i) {
      stages += StrCat(module.capture_stage(i), ", ");
    }
    return InvalidArgumentError("the module has no stage '", stage,
                                "'; it has ", stages, kInputStage);
  }
  std::vector<uint32_t> stage_texts;
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      const StatusOr<ExportView> view = module.GetExport(e, x);
      for (uint32_t i = 0; view.ok() && i < view->stage_location_count(); ++i) {
        stage_texts.push_back(view->stage_location(i).source);
      }
    }
  }
  std::sort(stage_texts.begin(), stage_texts.end());
  Profile rolled = profile;
  for (ProfileExport& ex : rolled.exports) {
    // The export's own text of that stage; an export without one (its
    // stage was not captured) has no line there.
    uint32_t target = kNoSource;
    if (stage_index) {
      const std::optional<StageLocationView> location =
          ex.export_view.FindStageLocation(*stage_index);
      if (!location) {
        ex.lines = {ProfileLine{kNoSource, 0, ex.samples, {}}};
        continue;
      }
      target = location->source;
    }
    RollUp roll_up(module, target, stage_texts);
    for (const ProfileLine& line : ex.lines) {
      KILN_RETURN_IF_ERROR(roll_up.Add(line));
    }
    ex.lines = roll_up.TakeLines();
  }
  return rolled;
}

StatusOr<Profile> ResolveProfile(const Module& module,
                                 const std::vector<uintptr_t>& pcs,
                                 uint64_t dropped_samples) {
  KILN_RETURN_IF_ERROR(module.UnpackCodeLines());
  Profile profile;
  profile.samples = pcs.size();
  profile.dropped_samples = dropped_samples;
  // (executable, export) -> (path, line) -> (source, samples).
  std::map<std::pair<uint32_t, uint32_t>,
           std::pair<ExportView, std::map<std::pair<std::string_view, uint32_t>,
                                          std::pair<uint32_t, uint64_t>>>>
      counts;
  for (uintptr_t pc : pcs) {
    const std::optional<CodeLocation> location = module.LocateCode(pc);
    if (!location) {
      ++profile.host_samples;
      continue;
    }
    const ExportView& view = location->export_view;
    auto& [export_view, lines] =
        counts[{view.executable_index(), view.export_index()}];
    export_view = view;
    auto& [source, samples] = lines[{location->path, location->line}];
    source = location->line ? location->source : kNoSource;
    ++samples;
  }
  for (auto& [key, entry] : counts) {
    ProfileExport& out = profile.exports.emplace_back();
    out.export_view = entry.first;
    for (const auto& [line, counted] : entry.second) {
      ProfileLine& row = out.lines.emplace_back();
      row.samples = counted.second;
      if (line.second) {
        row.source = counted.first;
        row.line = line.second;
        row.path = line.first;
      }
      out.samples += counted.second;
    }
    SortLines(&out.lines);
  }
  std::stable_sort(profile.exports.begin(), profile.exports.end(),
                   [](const ProfileExport& a, const ProfileExport& b) {
                     return a.samples > b.samples;
                   });
  return profile;
}

}  // namespace kiln
