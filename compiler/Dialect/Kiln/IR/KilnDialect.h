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
/// On exports: the entry's location in each stage text, {stage = loc(...)}.
inline constexpr StringLiteral kSourceLocsAttrName = "kiln.source_locs";
/// On exports: the input ops fused into the dispatch, [loc("op"(...))].
inline constexpr StringLiteral kProvenanceAttrName = "kiln.provenance";
/// On captured standalone executables: the stage they were captured at.
inline constexpr StringLiteral kStageAttrName = "kiln.stage";

}  // namespace mlir::kiln

#endif  // KILN_DIALECT_KILN_IR_KILNDIALECT_H_
