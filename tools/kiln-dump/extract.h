//===- extract.h - Embedded files written out ---------------------*- C++ -*-===//
//
// kiln-dump --extract-sources=DIR and --extract-libraries=DIR [--force]:
// the module's source files below DIR at their own paths, or its native
// libraries as DIR/libraryN.so, for editors and for tools that read
// symbols and DWARF line tables. A file that cannot be written is
// reported and skipped; the others are still written.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_EXTRACT_H_
#define KILN_TOOLS_KILN_DUMP_EXTRACT_H_

#include "kiln/module.h"
#include "kiln/status.h"
#include "options.h"

namespace kiln::dump {

/// --extract-sources: every source file below `options.extract_dir`, each
/// content checked against its hash. Paths that would leave the directory
/// or name a file another path took, and the whole extraction when it
/// would write more than 8 GiB, are refused. Sets `*incomplete` when some
/// files were not written (each reported on stderr, then how many).
Status ExtractSources(const Module& module, const Options& options,
                      bool* incomplete);

/// --extract-libraries: each native library as
/// `options.extract_libraries_dir`/libraryN.so; `*incomplete` as for
/// ExtractSources.
Status ExtractLibraries(const Module& module, const Options& options,
                        bool* incomplete);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_EXTRACT_H_
