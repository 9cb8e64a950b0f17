//===- ShapeArithmetic.h - shape tensors as index values ----------*- C++ -*-===//
//
// Models compute shapes with tensor ops: Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape, with Add, Mul, Div, Equal and Where between. The
// importer keeps the elements of such small integer tensors as index
// values instead: constants where known (the chain folds away), and where a
// size is known only when the program runs, index arithmetic the host
// computes from the sizes of the tensors it is given. A tensor of them is
// made only if an op other than these reads it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_
#define KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include <optional>

namespace mlir::kiln::onnx_import {

/// The elements of a small integer or boolean tensor of rank 0 or 1, as
/// index values (booleans as 0 and 1).
using ShapeElements = SmallVector<OpFoldResult>;

/// The most elements a tensor kept as index values holds.
inline constexpr int64_t kMaxShapeElements = 64;

/// What `node` makes of shape elements, for the ops shapes are computed
/// with, or nullopt when it is not one of them or an input it reads is not
/// known as index values (`inputs[i]`, nullopt where unknown). Shape and
/// Size read the sizes of their input tensor through `ctx`.
std::optional<SmallVector<ShapeElements>>
evaluateShapeNode(NodeContext &ctx,
                  ArrayRef<std::optional<ShapeElements>> inputs);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_
