//===- profile_report.cc - A sampled profile as a table and as stacks ----===//

#include "kiln/profile_report.h"

#include <algorithm>
#include <array>
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

/// A node as DescribeNode, or "linalg.add at m.mlir:12:8".
std::string DescribeInputOp(const ProfileInputOp& op) {
  return op.node.known() ? DescribeNode(op.node)
                         : StrCat(Printable(op.op_name), " at ",
                                  Printable(op.location.ToString()));
}

}  // namespace

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

namespace {

/// The tables' first lines: how many samples, how they were taken, host
/// time, and DescribeSampling's advice.
std::string FormatProfileHeader(const Profile& profile,
                                std::string_view function) {
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
  return out;
}

/// "12.3 ms": the CPU time `samples` stand for, each its share of the
/// sampled threads' CPU time; empty without it.
std::string CpuTime(const Profile& profile, uint64_t samples) {
  if (profile.cpu_seconds_per_sample() == 0) return "";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g ms",
                1e3 * profile.cpu_seconds_per_sample() * samples);
  return text;
}

}  // namespace

std::string FormatProfileTable(const Module& module, const Profile& profile,
                               std::string_view function,
                               const ProfileReportOptions& options) {
  std::string out = FormatProfileHeader(profile, function);
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
      std::optional<FusedOpView> op =
          FindLineOp(ex.export_view, line.path, line.line);
      if (op && op->node.known()) out += DescribeNode(op->node) + "  ";
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
  // Lines of the input program stand for its ops (an imported model's
  // for its nodes): their samples summed per op, across dispatches.
  const ProfileInputOps by_op = ProfileByInputOp(profile);
  if (!by_op.ops.empty()) {
    const bool model = by_op.ops.front().node.known();
    out += model ? "  hottest nodes of the model\n" : "  hottest input ops\n";
    for (size_t n = 0; n < by_op.ops.size() && n < options.top_lines; ++n) {
      out += StrCat("    ", Percent(by_op.ops[n].samples, profile.samples),
                    "  ", by_op.ops[n].samples, " samples  ",
                    DescribeInputOp(by_op.ops[n]), "\n");
    }
    if (by_op.ops.size() > options.top_lines) {
      out += StrCat("    (", by_op.ops.size() - options.top_lines, " more ",
                    model ? "nodes" : "ops", ")\n");
    }
    if (by_op.unplaced_samples) {
      out +=
          StrCat("    ", Percent(by_op.unplaced_samples, profile.samples), "  ",
                 by_op.unplaced_samples, " samples  in kernels, on no ",
                 model ? "node" : "input op", "'s line\n");
    }
  }
  if (profile.exports.empty() && profile.samples > 0) {
    out +=
        "  no samples in kernels (does the module carry its address -> "
        "line table? recompile it with this kiln)\n";
  }
  return out;
}

std::string FormatInputOpTable(const Profile& profile,
                               std::string_view function) {
  std::string out = FormatProfileHeader(profile, function);
  const ProfileInputOps by_op = ProfileByInputOp(profile);
  const bool model = !by_op.ops.empty() && by_op.ops.front().node.known();
  out += StrCat("  by ", model ? "node of the model" : "input op", ": ",
                by_op.ops.size(), model ? " nodes" : " ops", " with samples\n");
  // Columns: share, samples, CPU time, the op, its dispatches.
  std::vector<std::array<std::string, 4>> rows;
  std::array<size_t, 4> widths = {6, 7, 8, model ? size_t{4} : size_t{2}};
  rows.push_back({"share", "samples", "CPU time", model ? "node" : "op"});
  for (const ProfileInputOp& op : by_op.ops) {
    rows.push_back({Percent(op.samples, profile.samples, false),
                    StrCat(op.samples), CpuTime(profile, op.samples),
                    DescribeInputOp(op)});
  }
  for (const auto& row : rows) {
    for (size_t c = 0; c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  widths[3] = std::min<size_t>(widths[3], 60);
  const bool timed = profile.sampling.has_value();
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line = "    ";
    for (size_t c = 0; c < 3; ++c) {
      if (c == 2 && !timed) continue;
      line +=
          std::string(widths[c] - rows[r][c].size(), ' ') + rows[r][c] + "  ";
    }
    line += rows[r][3];
    line +=
        std::string(widths[3] - std::min(widths[3], rows[r][3].size()), ' ') +
        "  ";
    if (r == 0) {
      line += "dispatches";
    } else {
      const ProfileInputOp& op = by_op.ops[r - 1];
      for (size_t e = 0; e < op.exports.size(); ++e) {
        line += StrCat(e ? ", " : "", Printable(op.exports[e]));
      }
    }
    out += line + "\n";
  }
  out += StrCat("  on no ", model ? "node" : "input op",
                "'s line: ", by_op.unplaced_samples, " samples (",
                Percent(by_op.unplaced_samples, by_op.kernel_samples, false),
                " of the ", by_op.kernel_samples, " in kernels)\n");
  if (by_op.kernel_samples == 0 && profile.samples > 0) {
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
      if (std::optional<FusedOpView> op =
              FindLineOp(ex.export_view, line.path, line.line)) {
        frames +=
            ";" + Frame(op->node.known()
                            ? op->node.name
                            : StrCat(op->name, "@", op->location.ToString()));
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
