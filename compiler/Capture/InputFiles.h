//===- InputFiles.h - input files as the module names them --------*- C++ -*-===//
//
// Locations name files of the input program; the module stores a file's
// path once, the same way in export locations, line tables and the source
// table, so that a lookup by a location's path finds the embedded text.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CAPTURE_INPUTFILES_H_
#define KILN_CAPTURE_INPUTFILES_H_

#include "mlir/IR/Location.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::kiln {

/// Largest input file embedded unless `--executable-embed-input-files-limit`
/// says otherwise.
inline constexpr uint64_t kDefaultEmbedInputFileLimit = uint64_t{1} << 20;

/// The path a location's file goes by in the module: lexically normalised
/// and, if it would still climb out of the current directory (`../m.mlir`),
/// absolute, since kiln-dump --extract-sources refuses paths with `..` but
/// writes absolute ones below its target directory.
std::string getStoredPath(StringRef filename);

} // namespace mlir::kiln

#endif // KILN_CAPTURE_INPUTFILES_H_
