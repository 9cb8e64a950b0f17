//===- profile_html.h - A sampled profile as one HTML page ---------*- C++ -*-===//
//
// kiln-run's and kiln-benchmark's --profile-report: one self-contained HTML
// file (inline CSS and script, no network) that shows where the time of a
// profiled function went: how the samples were taken, a flame graph
// (function -> dispatch -> input op or node -> line of the sampled stage
// text), the input ops or nodes by CPU time, and per dispatch each captured
// stage text and the input text with the samples on each line, the hot
// lines marked, and a line's counterparts in the other texts (the module's
// cross-stage line maps) one click away.
//
// Everything read from the module is data: one JSON object in a
// <script type="application/json"> block, with every '<' escaped, that the
// page's script shows as text, never as markup.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PROFILE_HTML_H_
#define KILN_PROFILE_HTML_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "kiln/module.h"
#include "kiln/profiler.h"

namespace kiln {

/// A text with at most this many lines is embedded whole; of a longer one,
/// the lines around those with samples and the exports' entry lines.
inline constexpr uint32_t kProfileHtmlWholeTextLines = 400;
/// Lines embedded (and shown) on each side of such a line.
inline constexpr uint32_t kProfileHtmlContextLines = 8;

/// The page for `sampled` (at the line table's own stage, as
/// Profiler::Resolve gives it), taken while `function` ran. Texts are
/// embedded up to kMaxEmbeddedTextBytes each and kMaxEmbeddedTextsBytes in
/// all; the page says what it left out.
std::string FormatProfileHtml(const Module& module, const Profile& sampled,
                              std::string_view function);

}  // namespace kiln

#endif  // KILN_PROFILE_HTML_H_
