//===- NodeContext.cpp - what converting one ONNX node sees ---------------===//

#include "Import/ONNX/GraphImporter.h"
#include "Import/ONNX/NodeConverter.h"
#include "Import/ONNX/ShapeArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace mlir::kiln::onnx_import {

bool isUnsignedType(int32_t elementType) {
  switch (elementType) {
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::UINT4:
  case onnx::TensorProto::UINT2:
  case onnx::TensorProto::BOOL:
    return true;
  default:
    return false;
  }
}

bool isFloatType(int32_t elementType) {
  switch (elementType) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::FLOAT8E4M3FN:
  case onnx::TensorProto::FLOAT8E4M3FNUZ:
  case onnx::TensorProto::FLOAT8E5M2:
  case onnx::TensorProto::FLOAT8E5M2FNUZ:
  case onnx::TensorProto::FLOAT8E8M0:
  case onnx::TensorProto::FLOAT4E2M1:
    return true;
  default:
    return false;
  }
}

Type getMLIRElementType(MLIRContext *context, int32_t elementType) {
  Builder b(context);
  switch (elementType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return b.getI8Type();
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return b.getI16Type();
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return b.getI64Type();
  case onnx::TensorProto::FLOAT8E4M3FN:
    return b.getType<Float8E4M3FNType>();
  case onnx::TensorProto::FLOAT8E4M3FNUZ:
    return b.getType<Float8E4M3FNUZType>();
  case onnx::TensorProto::FLOAT8E5M2:
    return b.getType<Float8E5M2Type>();
  case onnx::TensorProto::FLOAT8E5M2FNUZ:
    return b.getType<Float8E5M2FNUZType>();
  case onnx::TensorProto::FLOAT8E8M0:
    return b.getType<Float8E8M0FNUType>();
  case onnx::TensorProto::FLOAT4E2M1:
    return b.getType<Float4E2M1FNType>();
  default:
    return nullptr;
  }
}

NodeContext::NodeContext(GraphImporter &importer, const onnx::NodeProto &node,
                         OpBuilder &builder, int64_t opset)
    : builder(builder), loc(builder.getUnknownLoc()), node(node),
      opset(opset), importer(importer) {}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

bool NodeContext::hasInput(unsigned i) const {
  return i < getNumInputs() && !node.input(i).empty();
}

Value NodeContext::getInput(unsigned i) const {
  assert(hasInput(i) && "reading an input the node does not give");
  FailureOr<TensorValue> value = importer.lookup(node.input(i));
  return succeeded(value) ? value->value : Value();
}

RankedTensorType NodeContext::getInputType(unsigned i) const {
  return cast<RankedTensorType>(getInput(i).getType());
}

int32_t NodeContext::getInputElementType(unsigned i) const {
  FailureOr<TensorValue> value = importer.lookup(node.input(i));
  return succeeded(value) ? value->elementType : 0;
}

DenseElementsAttr NodeContext::getConstantInput(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  return importer.getConstant(node.input(i));
}

std::optional<SmallVector<int64_t>>
NodeContext::getConstantInts(unsigned i) const {
  DenseElementsAttr attr = getConstantInput(i);
  if (!attr || !isa<IntegerType>(attr.getElementType()))
    return std::nullopt;
  bool isUnsigned = isUnsignedInput(i);
  SmallVector<int64_t> values;
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(isUnsigned ? int64_t(value.getZExtValue())
                                : value.getSExtValue());
  return values;
}

std::optional<SmallVector<double>>
NodeContext::getConstantFloats(unsigned i) const {
  DenseElementsAttr attr = getConstantInput(i);
  if (!attr || !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  SmallVector<double> values;
  for (const APFloat &value : attr.getValues<APFloat>())
    values.push_back(value.convertToDouble());
  return values;
}

FailureOr<SmallVector<OpFoldResult>> NodeContext::getIndexValues(unsigned i) {
  if (std::optional<ShapeElements> elements =
          importer.getShapeElements(node.input(i)))
    return *elements;
  // Read by the host as the program runs (host.extract).
  RankedTensorType type = getInputType(i);
  if (!type.hasStaticShape() || type.getRank() > 1 ||
      !isa<IntegerType>(type.getElementType()) ||
      type.getNumElements() > kMaxShapeElements)
    return fail("input " + Twine(i) + " ('" + node.input(i) +
                "') must be known while importing, computed from the sizes "
                "of tensors, or a 1-D integer tensor of static size (of at "
                "most " +
                Twine(kMaxShapeElements) + " elements)");
  Value input = getInput(i);
  bool isUnsigned = isUnsignedInput(i);
  SmallVector<OpFoldResult> values;
  for (int64_t e = 0; e < type.getNumElements(); ++e) {
    SmallVector<Value> position;
    if (type.getRank() == 1)
      position.push_back(arith::ConstantIndexOp::create(builder, loc, e));
    Value element = tensor::ExtractOp::create(builder, loc, input, position);
    values.push_back(isUnsigned
                         ? arith::IndexCastUIOp::create(
                               builder, loc, builder.getIndexType(), element)
                               .getResult()
                         : arith::IndexCastOp::create(
                               builder, loc, builder.getIndexType(), element)
                               .getResult());
  }
  return values;
}

std::optional<SmallVector<OpFoldResult>>
NodeContext::findIndexValues(unsigned i) {
  if (!hasInput(i))
    return std::nullopt;
  return importer.getShapeElements(node.input(i));
}

RankedTensorType NodeContext::getInferredInputType(unsigned i) const {
  return importer.getInferredType(node.input(i));
}

bool NodeContext::isUnsignedInferredInput(unsigned i) const {
  return isUnsignedType(importer.getInferredElementType(node.input(i)));
}

SmallVector<OpFoldResult> NodeContext::getInferredInputSizes(unsigned i) {
  RankedTensorType type = getInferredInputType(i);
  const onnx::TypeProto *proto = importer.getValueTypeProto(node.input(i));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(builder.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    Value symbol;
    if (proto && d < proto->tensor_type().shape().dim_size())
      symbol = importer.getSymbol(proto->tensor_type().shape().dim(d).dim_param());
    sizes.push_back(symbol ? OpFoldResult(symbol)
                           : OpFoldResult(tensor::DimOp::create(
                                              builder, loc, getInput(i), d)
                                              .getResult()));
  }
  return sizes;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

const onnx::AttributeProto *NodeContext::getAttribute(StringRef name) const {
  for (const onnx::AttributeProto &attribute : node.attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

int64_t NodeContext::getInt(StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *attribute = getAttribute(name);
  return attribute ? attribute->i() : defaultValue;
}

float NodeContext::getFloat(StringRef name, float defaultValue) const {
  const onnx::AttributeProto *attribute = getAttribute(name);
  return attribute ? attribute->f() : defaultValue;
}

std::string NodeContext::getString(StringRef name,
                                   StringRef defaultValue) const {
  const onnx::AttributeProto *attribute = getAttribute(name);
  return attribute ? attribute->s() : defaultValue.str();
}

SmallVector<int64_t> NodeContext::getInts(StringRef name) const {
  const onnx::AttributeProto *attribute = getAttribute(name);
  if (!attribute)
    return {};
  return SmallVector<int64_t>(attribute->ints().begin(),
                              attribute->ints().end());
}

SmallVector<float> NodeContext::getFloats(StringRef name) const {
  const onnx::AttributeProto *attribute = getAttribute(name);
  if (!attribute)
    return {};
  return SmallVector<float>(attribute->floats().begin(),
                            attribute->floats().end());
}

FailureOr<DenseElementsAttr> NodeContext::getTensorAttribute(StringRef name,
                                                            ShapedType type) {
  const onnx::AttributeProto *attribute = getAttribute(name);
  if (!attribute || !attribute->has_t())
    return fail("attribute '" + name + "' holds no tensor");
  return getTensorConstant(attribute->t(), builder.getContext(),
                           importer.getModelLoc(), type);
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

bool NodeContext::hasOutput(unsigned i) const {
  return i < getNumOutputs() && !node.output(i).empty();
}

RankedTensorType NodeContext::getOutputType(unsigned i) const {
  return importer.getInferredType(node.output(i));
}

int32_t NodeContext::getOutputElementType(unsigned i) const {
  return importer.getInferredElementType(node.output(i));
}

Type NodeContext::getOutputElementMLIRType(unsigned i) const {
  return getMLIRElementType(builder.getContext(), getOutputElementType(i));
}

std::optional<SmallVector<std::optional<OpFoldResult>>>
NodeContext::getKnownOutputSizes(unsigned i) {
  RankedTensorType type = getOutputType(i);
  if (!type)
    return std::nullopt;
  SmallVector<std::optional<OpFoldResult>> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(builder.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    sizes.push_back(std::nullopt);
  }
  // Symbolic sizes named by the graph's inputs.
  if (const onnx::TypeProto *proto = importer.getValueTypeProto(node.output(i)))
    for (auto [d, dim] :
         llvm::enumerate(proto->tensor_type().shape().dim()))
      if (d < sizes.size() && !sizes[d] && !dim.dim_param().empty())
        if (Value symbol = importer.getSymbol(dim.dim_param()))
          sizes[d] = symbol;
  return sizes;
}

std::optional<SmallVector<OpFoldResult>>
NodeContext::findOutputSizes(unsigned i) {
  std::optional<SmallVector<std::optional<OpFoldResult>>> known =
      getKnownOutputSizes(i);
  if (!known)
    return std::nullopt;
  SmallVector<OpFoldResult> sizes;
  for (std::optional<OpFoldResult> &size : *known) {
    if (!size)
      return std::nullopt;
    sizes.push_back(*size);
  }
  return sizes;
}

void NodeContext::setOutput(unsigned i, Value value) {
  RankedTensorType inferred = getOutputType(i);
  auto type = cast<RankedTensorType>(value.getType());
  if (inferred && type != inferred &&
      type.getElementType() == inferred.getElementType() &&
      type.getRank() == inferred.getRank()) {
    // The join: every size either knows.
    SmallVector<int64_t> shape;
    for (auto [have, want] : llvm::zip(type.getShape(), inferred.getShape()))
      shape.push_back(ShapedType::isDynamic(have) ? want : have);
    auto joined = RankedTensorType::get(shape, type.getElementType());
    if (joined != type)
      value = tensor::CastOp::create(builder, loc, joined, value);
  }
  int32_t elementType = getOutputElementType(i);
  importer.define(node.output(i), TensorValue{value, elementType});
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

InFlightDiagnostic NodeContext::emitError() const {
  return mlir::emitError(importer.getModelLoc()) << "node '" << node.name() << "' ("
                              << node.op_type() << "): ";
}

LogicalResult NodeContext::fail(const Twine &message) const {
  return emitError() << message;
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis,
                                              int64_t rank) const {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return fail("axis " + Twine(axis) + " is out of range for rank " +
                Twine(rank));
  return axis < 0 ? axis + rank : axis;
}

} // namespace mlir::kiln::onnx_import
