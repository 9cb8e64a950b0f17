//===- profile_report.cc - A sampled profile as a table and as stacks ----===//

#include "kiln/profile_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "kiln/printable.h"
#include "kiln/source_lines.h"
#include "kiln/sources.h"
#include "kiln/status.h"

namespace kiln {

namespace {

/// "12.5%", right-aligned in 6 columns when `pad`.
std::string Percent(uint64_t part, uint64_t whole, bool pad = true) {
  char text[16];
  std::snprintf(text, sizeof(text), pad ? "%5.1f%%" : "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / whole : 0.0);
  return text;
}

/// A frame of a collapsed stack: ';' separates frames and the last ' '
/// the count, so neither may appear inside one.
std::string Frame(std::string_view name) {
  std::string frame = Printable(name);
  for (char& c : frame) {
    if (c == ';' || c == ' ' || c == '\t') c = '_';
  }
  return frame;
}

/// "name (OpType)".
std::string DescribeNode(const InputNodeView& node) {
  return StrCat(Printable(node.name), " (", Printable(node.op_type), ")");
}

}  // namespace

std::optional<InputNodeView> FindLineNode(const ExportView& ex,
                                          std::string_view path,
                                          uint32_t line) {
  for (uint32_t p = 0; p < ex.provenance_count(); ++p) {
    const FusedOpView op = ex.provenance(p);
    if (op.node.known() && op.location.line == line &&
        op.location.file == path) {
      return op.node;
    }
  }
  return std::nullopt;
}

std::string DescribeSampling(const Profile& profile) {
  if (!profile.sampling) return "";
  const ProfileSampling& sampling = *profile.sampling;
  const bool timers = sampling.clock == ProfileClock::kCpuTimeTimer;
  const double expected = sampling.cpu_seconds * sampling.hz;
  const uint64_t taken = profile.samples + profile.dropped_samples;
  const std::string_view longer =
      "profile more calls: kiln-benchmark --profile samples every timed call "
      "(--benchmark_min_time=10s for more)";
  // A rate (a power of 10) that would give the CPU time used enough
  // samples; it helps only a clock that reaches it.
  uint32_t enough = sampling.hz;
  while (enough < 100000 && enough * sampling.cpu_seconds < kProfileFewSamples)
    enough = std::min<uint32_t>(100000, enough < 10 ? 10 : enough * 10);
  const std::string higher =
      timers || enough == sampling.hz
          ? std::string()
          : StrCat(", or ask a higher rate (--profile=", enough, ")");
  const std::string_view tick =
      "CPU-time timers (the clock where perf_event_open is refused) fire "
      "only at the kernel's tick";
  if (taken == 0) {
    char cpu[32];
    std::snprintf(cpu, sizeof(cpu), "%.3g ms", 1e3 * sampling.cpu_seconds);
    return StrCat("  no samples: the threads ran ", cpu, " of CPU time, ",
                  timers         ? tick
                  : expected < 1 ? "less than one period of the rate asked"
                                 : "none of it in user code at a period's end",
                  "; ", longer, higher, "\n");
  }
  // Short of the rate asked by more than a short run's rounding.
  if (taken + 2 < kProfileRateShortfall * expected) {
    return StrCat(
        "  warning: ", std::lround(profile.hz_reached()), " Hz reached of the ",
        sampling.hz, " Hz asked: ",
        timers ? StrCat(tick,
                        "; each sample is still one interrupt, so shares "
                        "hold, but there are fewer: ")
               : std::string("the cpu-clock event samples user code only, "
                             "and the threads spent time in the kernel (page "
                             "faults, system calls), or the rate is more "
                             "than this machine interrupts at; "),
        longer, "\n");
  }
  if (taken < kProfileFewSamples) {
    return StrCat("  only ", taken, " samples: shares are rough; ", longer,
                  higher, "\n");
  }
  return "";
}

std::string FormatProfileTable(const Module& module, const Profile& profile,
                               std::string_view function,
                               const ProfileReportOptions& options) {
  std::string out = StrCat("profile of ", Printable(function), ": ",
                           profile.samples, " samples");
  if (profile.sampling) {
    const ProfileSampling& sampling = *profile.sampling;
    char cpu[32];
    std::snprintf(cpu, sizeof(cpu), "%.3g s", sampling.cpu_seconds);
    out += StrCat(" in ", cpu, " of CPU time on ", sampling.threads,
                  sampling.threads == 1 ? " thread: " : " threads: ",
                  std::lround(profile.hz_reached()), " Hz of the ", sampling.hz,
                  " Hz asked, by ",
                  sampling.clock == ProfileClock::kCpuTimeTimer
                      ? "CPU-time timers"
                      : "the cpu-clock event");
  }
  out += StrCat("; host ", profile.host_samples, " (",
                Percent(profile.host_samples, profile.samples, false), ")");
  if (profile.dropped_samples) {
    out += StrCat(", ", profile.dropped_samples, " dropped (buffer full)");
  }
  out += "\n";
  out += DescribeSampling(profile);
  SourceLines texts(module);
  for (const ProfileExport& ex : profile.exports) {
    out += StrCat("  ", Percent(ex.samples, profile.samples), "  ", ex.samples,
                  " samples  ", Printable(ex.export_view.name()), "\n");
    size_t shown = 0;
    for (const ProfileLine& line : ex.lines) {
      if (shown++ == options.top_lines) break;
      out += StrCat("      ", Percent(line.samples, ex.samples), "  ");
      if (line.line == 0) {
        out += "(no line)\n";
        continue;
      }
      out += StrCat(Printable(line.path), ":", line.line, "  ");
      if (std::optional<InputNodeView> node =
              FindLineNode(ex.export_view, line.path, line.line)) {
        out += DescribeNode(*node) + "  ";
      }
      out +=
          StrCat(line.source == kNoSource ? std::string("(text not embedded)")
                                          : texts.Get(line.source, line.line),
                 "\n");
    }
    if (ex.lines.size() > options.top_lines) {
      out += StrCat("      (", ex.lines.size() - options.top_lines,
                    " more lines)\n");
    }
  }
  // Lines of an imported model's program stand for its nodes: their
  // samples summed per node, across dispatches.
  std::vector<std::pair<std::string, uint64_t>> nodes;
  for (const ProfileExport& ex : profile.exports) {
    for (const ProfileLine& line : ex.lines) {
      std::optional<InputNodeView> node =
          line.line ? FindLineNode(ex.export_view, line.path, line.line)
                    : std::nullopt;
      if (!node) continue;
      const std::string name = DescribeNode(*node);
      auto found = std::find_if(nodes.begin(), nodes.end(),
                                [&](const auto& n) { return n.first == name; });
      if (found == nodes.end()) {
        nodes.emplace_back(name, line.samples);
      } else {
        found->second += line.samples;
      }
    }
  }
  if (!nodes.empty()) {
    std::stable_sort(
        nodes.begin(), nodes.end(),
        [](const auto& a, const auto& b) { return a.second > b.second; });
    out += "  hottest nodes of the model\n";
    for (size_t n = 0; n < nodes.size() && n < options.top_lines; ++n) {
      out += StrCat("    ", Percent(nodes[n].second, profile.samples), "  ",
                    nodes[n].second, " samples  ", nodes[n].first, "\n");
    }
    if (nodes.size() > options.top_lines) {
      out +=
          StrCat("    (", nodes.size() - options.top_lines, " more nodes)\n");
    }
  }
  if (profile.exports.empty() && profile.samples > 0) {
    out +=
        "  no samples in kernels (does the module carry its address -> "
        "line table? recompile it with this kiln)\n";
  }
  return out;
}

std::string FormatCollapsedStacks(const Profile& profile,
                                  std::string_view function) {
  const std::string root = Frame(function);
  std::string out;
  for (const ProfileExport& ex : profile.exports) {
    const std::string stack = StrCat(root, ";", Frame(ex.export_view.name()));
    for (const ProfileLine& line : ex.lines) {
      if (line.line == 0) {
        out += StrCat(stack, " ", line.samples, "\n");
        continue;
      }
      // A model's node is a frame of its own above its lines.
      std::string frames = stack;
      if (std::optional<InputNodeView> node =
              FindLineNode(ex.export_view, line.path, line.line)) {
        frames += ";" + Frame(node->name);
      }
      out += StrCat(frames, ";", Frame(line.path), ":", line.line, " ",
                    line.samples, "\n");
    }
  }
  if (profile.host_samples) {
    out += StrCat(root, ";[host] ", profile.host_samples, "\n");
  }
  return out;
}

}  // namespace kiln
