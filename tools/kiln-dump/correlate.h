//===- correlate.h - A line's counterparts in every other text ----*- C++ -*-===//
//
// kiln-dump --correlate=PATH:LINE: follows the module's cross-stage line
// maps (SourceFile.origins in schema/module.fbs) from one line of a stage
// text back to the stages before it and the input program, and forward to
// the lines of later stages that came from it; from a line of the input
// program, to the lines of every stage text that came from it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_CORRELATE_H_
#define KILN_TOOLS_KILN_DUMP_CORRELATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/module.h"
#include "kiln/status.h"
#include "options.h"

namespace kiln::dump {

/// One counterpart of the line asked about.
struct Counterpart {
  /// The captured stage whose text holds it, or "input".
  std::string stage;
  std::string_view path;
  uint32_t line = 0;
  /// Index into Module::sources() of its text, kNoSource if not embedded.
  uint32_t source = 0;
};

struct Correlation {
  /// The line asked about, as found: its stage ("input" for an input
  /// file) and its text.
  Counterpart line;
  /// Stages in pipeline order, then the input program; lines ascending.
  std::vector<Counterpart> counterparts;
};

/// The counterparts of `line` of the text at `path` (a stage text or an
/// input file that line maps name). Fails for a path the module does not
/// know, a line past the end of its text, or a module without line maps.
StatusOr<Correlation> Correlate(const Module& module, std::string_view path,
                                uint32_t line);

/// --correlate=PATH:LINE: the line and its counterparts, each with its
/// text where the module embeds it, as text or JSON.
Status ShowCorrelation(const Module& module, const Options& options);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_CORRELATE_H_
