//===- NodeConverter.h - what converting one ONNX node sees -------*- C++ -*-===//
//
// Each ONNX op is converted in one place (a function in Ops/<Family>.cpp),
// which reads the node through a NodeContext: its inputs as tensors, its
// attributes with the spec's defaults, the types ONNX's shape inference gave
// its outputs, and a builder whose ops are located at the node.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_NODECONVERTER_H_
#define KILN_IMPORT_ONNX_NODECONVERTER_H_

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <optional>

namespace mlir::kiln::onnx_import {

class GraphImporter;

/// An ONNX value in the program being built.
struct TensorValue {
  /// A ranked tensor; scalars are 0-d tensors.
  Value value;
  /// Its ONNX element type (onnx::TensorProto::DataType), which also says
  /// whether its integers are unsigned (MLIR's integers are signless).
  int32_t elementType = 0;
};

/// Whether an ONNX element type is an unsigned integer.
bool isUnsignedType(int32_t elementType);
/// Whether an ONNX element type is a float of any width.
bool isFloatType(int32_t elementType);
/// The MLIR element type of an ONNX one, or null if kiln has none.
Type getMLIRElementType(MLIRContext *context, int32_t elementType);

/// The contents of a tensor proto held in the proto (not external data), as
/// a constant of `type` (by default its own shape and element type).
/// Errors are reported at `loc`.
FailureOr<DenseElementsAttr> getTensorConstant(const onnx::TensorProto &tensor,
                                               MLIRContext *context,
                                               Location loc,
                                               ShapedType type = nullptr);

class NodeContext {
public:
  NodeContext(GraphImporter &importer, const onnx::NodeProto &node,
              OpBuilder &builder, int64_t opset);

  /// Builds at the end of the function, located at the node.
  OpBuilder &builder;
  Location loc;
  const onnx::NodeProto &node;
  int64_t opset;

  //===------------------------------------------------------------------===//
  // Inputs
  //===------------------------------------------------------------------===//

  unsigned getNumInputs() const { return node.input_size(); }
  /// Whether input `i` is given (optional inputs may be missing or empty).
  bool hasInput(unsigned i) const;
  Value getInput(unsigned i) const;
  RankedTensorType getInputType(unsigned i) const;
  int32_t getInputElementType(unsigned i) const;
  bool isUnsignedInput(unsigned i) const {
    return isUnsignedType(getInputElementType(i));
  }
  /// What ONNX's shape inference says of input `i`, without making it.
  RankedTensorType getInferredInputType(unsigned i) const;
  bool isUnsignedInferredInput(unsigned i) const;
  /// The sizes of input `i` as inference knows them: static, or a symbolic
  /// size of a graph input; otherwise read from the tensor (tensor.dim).
  SmallVector<OpFoldResult> getInferredInputSizes(unsigned i);
  /// The input's contents when known while importing: initializers,
  /// Constant nodes, folded constants and shape tensors whose values ONNX's
  /// data propagation computed. Null otherwise.
  DenseElementsAttr getConstantInput(unsigned i) const;
  /// A constant integer input's values, widened to int64.
  std::optional<SmallVector<int64_t>> getConstantInts(unsigned i) const;
  /// A constant float input's values.
  std::optional<SmallVector<double>> getConstantFloats(unsigned i) const;
  /// The values of a 1-D integer input as index values (sizes, starts,
  /// ...): constants where known, else computed by the host from the sizes
  /// of tensors (ShapeArithmetic.h), else read by the host from the
  /// contents of a statically shaped integer tensor of at most 1 dimension
  /// when the program runs. Fails, with an error, for other tensors.
  FailureOr<SmallVector<OpFoldResult>> getIndexValues(unsigned i);
  /// The same, or nullopt (reporting nothing) when they are not known so.
  std::optional<SmallVector<OpFoldResult>> findIndexValues(unsigned i);

  //===------------------------------------------------------------------===//
  // Attributes, with the spec's default when absent
  //===------------------------------------------------------------------===//

  const onnx::AttributeProto *getAttribute(StringRef name) const;
  bool hasAttribute(StringRef name) const { return getAttribute(name); }
  int64_t getInt(StringRef name, int64_t defaultValue) const;
  float getFloat(StringRef name, float defaultValue) const;
  std::string getString(StringRef name, StringRef defaultValue) const;
  SmallVector<int64_t> getInts(StringRef name) const;
  SmallVector<float> getFloats(StringRef name) const;
  /// A tensor attribute's contents (`value` of Constant), of `type` or of
  /// the type the tensor gives.
  FailureOr<DenseElementsAttr> getTensorAttribute(StringRef name,
                                                  ShapedType type = nullptr);

  //===------------------------------------------------------------------===//
  // Outputs
  //===------------------------------------------------------------------===//

  unsigned getNumOutputs() const { return node.output_size(); }
  bool hasOutput(unsigned i) const;
  /// The type ONNX inferred for output `i` (dynamic where it could not
  /// tell a size); null where it could not tell the rank.
  RankedTensorType getOutputType(unsigned i) const;
  int32_t getOutputElementType(unsigned i) const;
  Type getOutputElementMLIRType(unsigned i) const;
  /// The sizes of output `i` where ONNX's inference knows them, statically
  /// or as a symbolic size of a graph input; nullopt for a size it could not
  /// tell, and for the whole where it could not tell the rank.
  std::optional<SmallVector<std::optional<OpFoldResult>>>
  getKnownOutputSizes(unsigned i);
  /// Every size of output `i`, where ONNX's inference knows them all; else
  /// nullopt.
  std::optional<SmallVector<OpFoldResult>> findOutputSizes(unsigned i);
  /// Records `value` as output `i`, cast to the inferred type where that
  /// knows more sizes.
  void setOutput(unsigned i, Value value);

  //===------------------------------------------------------------------===//
  // Errors
  //===------------------------------------------------------------------===//

  /// An error at the node: what kiln cannot do with it, with a reason.
  InFlightDiagnostic emitError() const;
  /// `emitError() << message`, as a failure.
  LogicalResult fail(const Twine &message) const;

  /// Normalizes a possibly negative axis of a rank-`rank` tensor.
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank) const;

private:
  GraphImporter &importer;
};

/// Converts one node; reports an error at the node on failure.
using NodeConverter = LogicalResult (*)(NodeContext &);
using ConverterTable = llvm::StringMap<NodeConverter>;

/// The converters of each op family (Ops/<Family>.cpp).
void registerElementwiseConverters(ConverterTable &table);
void registerTensorConverters(ConverterTable &table);
void registerReductionConverters(ConverterTable &table);
void registerLinearConverters(ConverterTable &table);
void registerPoolingConverters(ConverterTable &table);
void registerNormalizationConverters(ConverterTable &table);
void registerResizeConverters(ConverterTable &table);
void registerConvTransposeConverters(ConverterTable &table);
void registerEinsumConverters(ConverterTable &table);
void registerIndexingConverters(ConverterTable &table);
void registerRecurrentConverters(ConverterTable &table);
void registerQuantizationConverters(ConverterTable &table);
void registerSpectralConverters(ConverterTable &table);

/// Every op the importer converts, by op type (default domain).
const ConverterTable &getConverters();

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_NODECONVERTER_H_
