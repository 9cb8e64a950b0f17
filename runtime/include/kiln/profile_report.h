//===- profile_report.h - A sampled profile as a table and as stacks -*- C++ -*-===//
//
// The views of a sampled profile (kiln/profiler.h) that kiln-run's and
// kiln-benchmark's --profile and --profile-output print, and the Python
// package returns: a table (how the samples were taken and the rate
// reached, with what to do about too few; per export: samples, share,
// hottest lines with PATH:LINE, share and the line's text from the module's
// own source table; an imported model's hottest nodes) and collapsed stacks
// (`function;export;PATH:LINE COUNT` per line, as flamegraph.pl, inferno
// and speedscope read them).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PROFILE_REPORT_H_
#define KILN_PROFILE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/profiler.h"

namespace kiln {

/// The input op of `ex`'s provenance that input line `path`:`line` lies in:
/// the innermost whose text spans it, so that the lines of an op's body
/// are its own (a profile rolled up to the input stage has such lines).
std::optional<FusedOpView> FindLineOp(const ExportView& ex,
                                      std::string_view path, uint32_t line);

/// The samples of one input op, or of one node of an imported model (ONNX),
/// whatever dispatches it was fused into.
struct ProfileInputOp {
  /// The node (known() for a model's node), else the op as the program
  /// wrote it, at its location.
  InputNodeView node;
  std::string_view op_name;
  SourceLocationView location;
  uint64_t samples = 0;
  /// The exports its samples fell in, most samples first.
  std::vector<std::string_view> exports;
};

/// A profile per input op.
struct ProfileInputOps {
  /// Ops with samples, most first.
  std::vector<ProfileInputOp> ops;
  /// Samples in the module's kernels, and those of them on no input op's
  /// line (code the line table names no line for, or a line no op of the
  /// export's provenance spans).
  uint64_t kernel_samples = 0;
  uint64_t unplaced_samples = 0;
};

/// `profile`, rolled up to the input program's lines, per input op: each
/// line's samples go to FindLineOp's op, and a node's ops count as one.
ProfileInputOps ProfileByInputOp(const Profile& profile);

/// The samples of `ex` on no input op's line (see ProfileInputOps).
uint64_t UnplacedSamples(const ProfileExport& ex);

/// Below this share of the rate asked, the table warns that the clock fell
/// short (CPU-time timers at the kernel's tick, say).
inline constexpr double kProfileRateShortfall = 0.75;
/// Below this many samples, the table says the shares are rough.
inline constexpr uint64_t kProfileFewSamples = 100;

/// The lines under the table's header when `profile` (as
/// Profiler::Resolve made it) has no samples, few, or fewer than the rate
/// asked should have given: why, and what to do; empty otherwise.
std::string DescribeSampling(const Profile& profile);

struct ProfileReportOptions {
  /// Lines shown per export.
  size_t top_lines = kProfileTopLines;
};

/// The --profile table of `profile`, taken while `function` ran.
std::string FormatProfileTable(const Module& module, const Profile& profile,
                               std::string_view function,
                               const ProfileReportOptions& options);

/// `profile` (at the input's lines) per input op, as --profile-by=node
/// prints it: every op with samples, its CPU time (its share of the sampled
/// threads' CPU time), share, op type, location and dispatches; then the
/// samples on no op's line and host time.
std::string FormatInputOpTable(const Profile& profile,
                               std::string_view function);

/// The collapsed stacks of `profile`: one line per (export, line) and one
/// for host time, `function` first in each stack.
std::string FormatCollapsedStacks(const Profile& profile,
                                  std::string_view function);

}  // namespace kiln

#endif  // KILN_PROFILE_REPORT_H_
