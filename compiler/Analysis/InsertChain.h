//===- InsertChain.h - the inserts of a pad or concat -----------*- C++ -*-===//
//
// A pad or concat as a chain of tensor.insert_slice ops: dispatch formation
// fuses the chain that pads a convolution's image into the convolution's
// dispatch, and workgroup distribution slices such chains per tile.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_ANALYSIS_INSERTCHAIN_H_
#define KILN_ANALYSIS_INSERTCHAIN_H_

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::kiln {

/// The inserts of a pad or concat: a chain of unit-stride insert_slices at
/// static offsets (their sizes may be known only at run time: a batch) that
/// keep the rank (first first) into a fill or an empty tensor, `base`.
struct InsertChain {
  SmallVector<tensor::InsertSliceOp> inserts;
  Value base;
};

/// The chain of inserts that ends in `root`, if it is one.
std::optional<InsertChain> matchInsertChain(tensor::InsertSliceOp root);

} // namespace mlir::kiln

#endif // KILN_ANALYSIS_INSERTCHAIN_H_
