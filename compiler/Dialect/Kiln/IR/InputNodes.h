//===- InputNodes.h - model nodes the input program's ops stand for -*- C++ -*-===//
//
// An imported model (ONNX) is compiled as the text of an input program whose
// ops each stand for a node of the model. Each op's location says which, and
// where the op stands in the text:
//
//   loc(fused<{node = "/layer1/layer1.0/conv1/Conv", op_type = "Conv",
//              scope = "layer1.0.conv1", source = "model.py:42"}>
//       ["m.onnx.mlir":12:5])
//
// Every later location derived from it (fused, tagged with stage lines,
// inlined) keeps it, so provenance, traces and profiles name the node.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_INPUTNODES_H_
#define KILN_DIALECT_KILN_IR_INPUTNODES_H_

#include "mlir/IR/Location.h"

#include <optional>

namespace mlir::kiln {

/// A node of the model as the input program's locations record it.
struct InputNode {
  /// The node's name (unnamed nodes are named `<op type>_<index>`).
  StringRef name;
  /// The model's op type (`Conv`).
  StringRef opType;
  /// Where the exporter says the node came from, when it does: the module
  /// path (`layer1.0.conv1`) and the source line (`model.py:42`).
  StringRef scope;
  StringRef source;
};

/// The location of an op standing for `node` at `line` of the input text.
Location getInputNodeLoc(const InputNode &node, FileLineColLoc line);

/// The node `loc` itself records (not one nested in it).
std::optional<InputNode> getInputNode(Location loc);

/// The first node recorded anywhere in `loc`.
std::optional<InputNode> findInputNode(Location loc);

} // namespace mlir::kiln

#endif // KILN_DIALECT_KILN_IR_INPUTNODES_H_
