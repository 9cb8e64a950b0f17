//===- GraphImporter.h - an ONNX graph to a function --------------*- C++ -*-===//

#ifndef KILN_IMPORT_ONNX_GRAPHIMPORTER_H_
#define KILN_IMPORT_ONNX_GRAPHIMPORTER_H_

#include "Import/ONNX/Importer.h"
#include "Import/ONNX/ModelLoader.h"
#include "Import/ONNX/NodeConverter.h"
#include "Import/ONNX/ShapeArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

#include <map>

namespace mlir::kiln::onnx_import {

class GraphImporter {
public:
  /// Errors are reported at `modelLoc` (the model file); ops are located in
  /// the text at `textPath`.
  GraphImporter(MLIRContext *context, LoadedModel &model,
                const ImportOptions &options, FileLineColLoc modelLoc,
                StringRef textPath);

  /// Builds the function of the graph; errors name the node at fault.
  FailureOr<OwningOpRef<ModuleOp>> import();

  //===------------------------------------------------------------------===//
  // What a NodeContext reads of the graph
  //===------------------------------------------------------------------===//

  /// The value named `name`, made from an initializer on first use.
  FailureOr<TensorValue> lookup(StringRef name);
  /// The type ONNX inferred for `name` (or, where it could not tell the
  /// rank, that of the value imported), or null if it has no ranked tensor
  /// type.
  RankedTensorType getInferredType(StringRef name);
  /// The inferred type as ONNX gives it (symbolic sizes by name), or null.
  const onnx::TypeProto *getValueTypeProto(StringRef name);
  /// Its ONNX element type, or 0.
  int32_t getInferredElementType(StringRef name);
  /// The contents of `name` where known while importing, or null.
  DenseElementsAttr getConstant(StringRef name);
  /// What ONNX's data propagation computed of the contents of `name`.
  const onnx::TensorShapeProto *getShapeData(StringRef name);
  /// The elements of a small integer tensor as index values where known
  /// while importing or computable from the sizes of tensors.
  std::optional<ShapeElements> getShapeElements(StringRef name);
  /// The size a symbolic dimension (dim_param) of a graph input stands
  /// for, or null.
  Value getSymbol(StringRef dimParam);
  /// Where errors about the model or one of its nodes are reported.
  FileLineColLoc getModelLoc() const { return fileLoc; }
  /// Records `value` as the value of `name`.
  void define(StringRef name, TensorValue value);

private:
  /// One error listing every op type the importer cannot convert, or
  /// success.
  LogicalResult checkOpsSupported();
  LogicalResult importInputs(func::FuncOp funcOp);
  LogicalResult importNode(const onnx::NodeProto &node, unsigned index);
  /// Constants for the outputs of `node` whose contents data propagation
  /// computed; whether that covered all of them.
  bool foldKnownOutputs(const onnx::NodeProto &node);
  /// The outputs of a node computing shapes as index values; whether it is
  /// one.
  bool evaluateShapes(NodeContext &ctx);
  /// The type of the tensor of index values kept for `name`.
  RankedTensorType getShapeElementsType(StringRef name,
                                        const ShapeElements &elements);
  /// The tensor of index values kept for `name`.
  TensorValue materializeShapeElements(StringRef name,
                                       const ShapeElements &elements);
  FailureOr<TensorValue> importInitializer(const onnx::TensorProto &tensor);
  FailureOr<TensorValue> importWeight(StringRef name, const TensorData &data);
  /// Points each op's location at its line in the printed text.
  LogicalResult locateOpsInText(ModuleOp moduleOp);

  MLIRContext *context;
  LoadedModel &model;
  const ImportOptions &options;
  FileLineColLoc fileLoc;
  StringAttr textPath;
  OpBuilder builder;
  /// Every value of the graph made so far.
  llvm::StringMap<TensorValue> values;
  /// Inferred types (inputs, outputs, value_info) by name.
  std::map<std::string, const onnx::TypeProto *> types;
  /// Initializers still in the proto, by name.
  std::map<std::string, const onnx::TensorProto *> initializers;
  /// Small integer tensors kept as index values, made into tensors only
  /// when an op reads them as such.
  llvm::StringMap<ShapeElements> shapeElements;
  /// Symbolic sizes of the graph's inputs.
  llvm::StringMap<Value> symbols;
  /// Where new ops go: the entry block's end.
  Block *body = nullptr;
};

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_GRAPHIMPORTER_H_
