//===- KilnDialect.h - kiln dialect -------------------------------*- C++ -*-===//

#ifndef KILN_DIALECT_KILN_IR_KILNDIALECT_H_
#define KILN_DIALECT_KILN_IR_KILNDIALECT_H_

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "Dialect/Kiln/IR/KilnDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/Kiln/IR/KilnAttrs.h.inc"

namespace mlir::kiln {

/// Debug information the pipeline attaches to executables, by name.
/// On variants: the captured stage texts, {path = dense_resource<...>}.
inline constexpr StringLiteral kSourcesAttrName = "kiln.sources";
/// On variants: where each op line of each stage text came from,
/// {path = {previous = "<previous stage's path>", input_files = [...],
/// rows = array<i32: line, previous line, input file, input line, ...>}}.
inline constexpr StringLiteral kLineOriginsAttrName = "kiln.line_origins";
inline constexpr StringLiteral kLineOriginsPreviousName = "previous";
inline constexpr StringLiteral kLineOriginsInputFilesName = "input_files";
inline constexpr StringLiteral kLineOriginsRowsName = "rows";
/// On exports: the entry's location in each stage text, {stage = loc(...)}.
inline constexpr StringLiteral kSourceLocsAttrName = "kiln.source_locs";
/// On exports: the input ops fused into the dispatch, [loc("op"(...))].
inline constexpr StringLiteral kProvenanceAttrName = "kiln.provenance";
/// On exports: for each provenance entry, the kernel op computing it (its
/// position among the kernel's ops), array<i32: ...>.
inline constexpr StringLiteral kProvenanceKernelOpsAttrName =
    "kiln.provenance_kernel_ops";
/// On exports that identical kernels were merged into: for each provenance
/// entry, the dispatch it came from (0: the export's own; 1, ...: each
/// merged one's), array<i32: ...>.
inline constexpr StringLiteral kProvenanceSitesAttrName =
    "kiln.provenance_sites";
/// On the module: the input files embedded (kiln-capture-input-files),
/// {path = dense_resource<...>}.
inline constexpr StringLiteral kInputFilesAttrName = "kiln.input_files";
/// On public functions' arguments and results: what the model they were
/// imported from calls them (an ONNX graph's inputs and outputs).
inline constexpr StringLiteral kValueNameAttrName = "kiln.name";
/// On captured standalone executables: the stage they were captured at.
inline constexpr StringLiteral kStageAttrName = "kiln.stage";

} // namespace mlir::kiln

#endif // KILN_DIALECT_KILN_IR_KILNDIALECT_H_
