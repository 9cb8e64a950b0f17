//===- LibraryLines.h - Address -> line rows of a linked library --*- C++ -*-===//
//
// Reads the DWARF line table of a linked shared object (LLVM's DWARF reader
// over its bytes) and the function symbols of its exports, and turns them
// into the rows the module stores so that the runtime maps a code address to
// an export and a line without parsing DWARF (schema/module.fbs,
// LibraryLine).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_LIBRARYLINES_H_
#define KILN_TARGET_CPU_LIBRARYLINES_H_

#include "kiln/module_format.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::kiln {

/// The code from `offset` (in the library's address space) up to the next
/// row's offset.
struct LibraryLineRow {
  uint64_t offset;
  /// Library ordinal of the export whose code this is, or
  /// KILN_LIBRARY_LINE_OUTSIDE_EXPORTS (the ranges before the row end there).
  uint32_t ordinal;
  /// Index into LibraryLines::paths, or -1 with line 0 when the line table
  /// names no line.
  int32_t path;
  uint32_t line;
};

struct LibraryLines {
  /// Sorted by offset, strictly increasing; the last row, if any, is outside
  /// every export.
  std::vector<LibraryLineRow> rows;
  /// The files rows name, as the line table spells them.
  std::vector<std::string> paths;
};

/// The rows of the shared object in `bytes` whose export `i` is the
/// function symbol `exportSymbols[i]`. Code outside those symbols is outside
/// every export; an export without a symbol has no rows. Fails on bytes that
/// are not an object file; a library without DWARF has rows with line 0.
FailureOr<LibraryLines> readLibraryLines(Location loc, StringRef bytes,
                                         ArrayRef<std::string> exportSymbols);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_LIBRARYLINES_H_
