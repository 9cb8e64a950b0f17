//===- profile.cc - Sampled program counters by export and line -----------===//

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "kiln/profiler.h"

namespace kiln {

Profile ResolveProfile(const Module& module, const std::vector<uintptr_t>& pcs,
                       uint64_t dropped_samples) {
  Profile profile;
  profile.samples = pcs.size();
  profile.dropped_samples = dropped_samples;
  // (executable, export) -> (source, line) -> samples.
  std::map<std::pair<uint32_t, uint32_t>,
           std::pair<ExportView, std::map<std::pair<uint32_t, uint32_t>,
                                          uint64_t>>>
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
    ++lines[{location->line ? location->source : 0, location->line}];
  }
  for (auto& [key, entry] : counts) {
    ProfileExport& out = profile.exports.emplace_back();
    out.export_view = entry.first;
    for (const auto& [line, samples] : entry.second) {
      out.lines.push_back({line.first, line.second, samples});
      out.samples += samples;
    }
    std::sort(out.lines.begin(), out.lines.end(),
              [](const ProfileLine& a, const ProfileLine& b) {
                return std::tie(b.samples, a.source, a.line) <
                       std::tie(a.samples, b.source, b.line);
              });
  }
  std::stable_sort(profile.exports.begin(), profile.exports.end(),
                   [](const ProfileExport& a, const ProfileExport& b) {
                     return a.samples > b.samples;
                   });
  return profile;
}

}  // namespace kiln
