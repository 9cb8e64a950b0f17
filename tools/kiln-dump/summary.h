//===- summary.h - What a module holds, at a glance ---------------*- C++ -*-===//
//
// kiln-dump without a view flag: the module (name, format version, debug
// level, size, captured stages), its functions, its libraries and what
// CPU features they need, its code variants (which this machine runs, and
// what the others need that it lacks), each variant's executables with
// each export's launch parameters and debug information (location, the
// input ops and model nodes it computes, its entry line in each captured
// stage), and the source table. The JSON's top-level "executables" are
// those of the variant this machine runs (else the first), as in modules
// for one CPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_SUMMARY_H_
#define KILN_TOOLS_KILN_DUMP_SUMMARY_H_

#include "kiln/module.h"
#include "kiln/status.h"

namespace kiln::dump {

/// Prints the summary as text, or as one JSON document (`as_json`).
Status ShowSummary(const Module& module, bool as_json);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_SUMMARY_H_
