//===- print_source.h - One embedded source file, numbered --------*- C++ -*-===//
//
// kiln-dump --print-source=PATH[:LINE] [--context=N]: a source file of the
// module with line numbers; with LINE, that line marked with '>' (and with
// --context, only the N lines either side of it).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_PRINT_SOURCE_H_
#define KILN_TOOLS_KILN_DUMP_PRINT_SOURCE_H_

#include "kiln/module.h"
#include "kiln/status.h"
#include "options.h"

namespace kiln::dump {

/// Prints the file `options.print_source` names, as text or JSON.
Status PrintSource(const Module& module, const Options& options);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_PRINT_SOURCE_H_
