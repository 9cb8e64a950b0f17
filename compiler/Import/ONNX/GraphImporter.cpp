//===- GraphImporter.cpp - an ONNX graph to a function --------------------===//

#include "Import/ONNX/GraphImporter.h"

#include "Dialect/Kiln/IR/InputNodes.h"
#include "Dialect/Kiln/IR/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <map>

namespace mlir::kiln::onnx_import {

namespace {

/// How many times the text is printed to place the locations at most (two
/// suffice: the locations, printed after the program, do not move it).
constexpr int kMaxLocatingRounds = 4;

/// A name usable as a resource key: letters, digits, '_' and '.'.
std::string getResourceKey(StringRef name) {
  std::string key;
  for (char c : name)
    key += llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_';
  if (key.empty() || llvm::isDigit(key[0]))
    key = "w_" + key;
  return key;
}

/// A tensor type from ONNX's, or null without a rank.
RankedTensorType getTensorType(MLIRContext *context,
                               const onnx::TypeProto &type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return nullptr;
  Type elementType =
      getMLIRElementType(context, type.tensor_type().elem_type());
  if (!elementType)
    return nullptr;
  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto_Dimension &dim :
       type.tensor_type().shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return RankedTensorType::get(shape, elementType);
}

/// A tensor of elements kiln holds whose rank inference could not tell.
bool isTensorOfUnknownRank(MLIRContext *context, const onnx::TypeProto &type) {
  return type.has_tensor_type() && !type.tensor_type().has_shape() &&
         getMLIRElementType(context, type.tensor_type().elem_type());
}

/// What the type of a value says when it is not one kiln can hold.
std::string describeType(const onnx::TypeProto &type) {
  if (type.has_tensor_type()) {
    if (!type.tensor_type().has_shape())
      return "a tensor of unknown rank";
    return getElementTypeName(type.tensor_type().elem_type()) + " tensor";
  }
  if (type.has_sequence_type())
    return "a sequence";
  if (type.has_optional_type())
    return "an optional";
  if (type.has_map_type())
    return "a map";
  if (type.has_sparse_tensor_type())
    return "a sparse tensor";
  return "an unknown type";
}

/// Elements of a 4-bit or 2-bit type, and booleans, are not stored in
/// MLIR's dense layout as ONNX stores them.
bool hasRawByteLayout(int32_t elementType) {
  return elementType != onnx::TensorProto::BOOL &&
         getElementBytes(elementType) != 0;
}

/// A dense constant of `type` from ONNX's raw bytes.
FailureOr<DenseElementsAttr> getDenseConstant(RankedTensorType type,
                                              int32_t elementType,
                                              StringRef bytes, Location loc) {
  int64_t count = type.getNumElements();
  if (elementType == onnx::TensorProto::BOOL) {
    if (static_cast<int64_t>(bytes.size()) != count)
      return emitError(loc) << "boolean tensor of " << bytes.size()
                            << " bytes for " << count << " elements";
    SmallVector<bool> values;
    for (char c : bytes)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  size_t elementBytes = getElementBytes(elementType);
  if (elementBytes == 0)
    return emitError(loc) << "constants of element type "
                          << getElementTypeName(elementType)
                          << " are not supported";
  if (bytes.size() != count * elementBytes)
    return emitError(loc) << "tensor of " << bytes.size() << " bytes for "
                          << count << " elements of "
                          << getElementTypeName(elementType);
  ArrayRef<char> raw(bytes.data(), bytes.size());
  // A single element is read as a splat; an empty tensor has no bytes.
  if (count == 0)
    return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

} // namespace

FailureOr<DenseElementsAttr> getTensorConstant(const onnx::TensorProto &tensor,
                                               MLIRContext *context,
                                               Location loc,
                                               ShapedType type) {
  if (!type) {
    Type elementType = getMLIRElementType(context, tensor.data_type());
    if (!elementType)
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has element type "
                            << getElementTypeName(tensor.data_type())
                            << ", which kiln does not support";
    type = RankedTensorType::get(
        SmallVector<int64_t>(tensor.dims().begin(), tensor.dims().end()),
        elementType);
  }
  FailureOr<std::string> bytes = getTensorBytes(tensor, loc);
  if (failed(bytes))
    return failure();
  return getDenseConstant(cast<RankedTensorType>(type), tensor.data_type(),
                          *bytes, loc);
}

GraphImporter::GraphImporter(MLIRContext *context, LoadedModel &model,
                             const ImportOptions &options,
                             FileLineColLoc modelLoc, StringRef textPath)
    : context(context), model(model), options(options), fileLoc(modelLoc),
      textPath(StringAttr::get(context, textPath)), builder(context) {
  const onnx::GraphProto &graph = model.model.graph();
  for (const auto *list : {&graph.input(), &graph.value_info(),
                           &graph.output()})
    for (const onnx::ValueInfoProto &info : *list)
      types[info.name()] = &info.type();
  for (const onnx::TensorProto &tensor : graph.initializer())
    initializers[tensor.name()] = &tensor;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

FailureOr<TensorValue> GraphImporter::lookup(StringRef name) {
  auto found = values.find(name);
  if (found != values.end())
    return found->second;
  auto initializer = initializers.find(name.str());
  if (initializer != initializers.end())
    return importInitializer(*initializer->second);
  auto weight = model.weights.find(name.str());
  if (weight != model.weights.end())
    return importWeight(name, weight->second);
  auto elements = shapeElements.find(name);
  if (elements != shapeElements.end())
    return materializeShapeElements(name, elements->second);
  return emitError(fileLoc) << "value '" << name
                            << "' is used before it is defined";
}

RankedTensorType GraphImporter::getInferredType(StringRef name) {
  auto type = types.find(name.str());
  if (type != types.end()) {
    if (RankedTensorType inferred = getTensorType(context, *type->second))
      return inferred;
    // A rank inference could not tell, found by the converter.
    auto value = values.find(name);
    return value != values.end()
               ? cast<RankedTensorType>(value->second.value.getType())
               : nullptr;
  }
  auto initializer = initializers.find(name.str());
  if (initializer != initializers.end()) {
    Type elementType =
        getMLIRElementType(context, initializer->second->data_type());
    if (!elementType)
      return nullptr;
    return RankedTensorType::get(
        SmallVector<int64_t>(initializer->second->dims().begin(),
                             initializer->second->dims().end()),
        elementType);
  }
  return nullptr;
}

const onnx::TypeProto *GraphImporter::getValueTypeProto(StringRef name) {
  auto type = types.find(name.str());
  if (type == types.end() || !type->second->has_tensor_type())
    return nullptr;
  return type->second;
}

int32_t GraphImporter::getInferredElementType(StringRef name) {
  auto type = types.find(name.str());
  if (type != types.end() && type->second->has_tensor_type())
    return type->second->tensor_type().elem_type();
  auto initializer = initializers.find(name.str());
  if (initializer != initializers.end())
    return initializer->second->data_type();
  return 0;
}

DenseElementsAttr GraphImporter::getConstant(StringRef name) {
  auto found = values.find(name);
  DenseElementsAttr attr;
  auto elements = shapeElements.find(name);
  if (found == values.end() && elements != shapeElements.end()) {
    RankedTensorType type = getShapeElementsType(name, elements->second);
    SmallVector<APInt> contents;
    for (OpFoldResult element : elements->second) {
      std::optional<int64_t> value = getConstantIntValue(element);
      if (!value || !type)
        return nullptr;
      contents.push_back(APInt(64, *value, /*isSigned=*/true)
                             .sextOrTrunc(type.getElementTypeBitWidth()));
    }
    return DenseElementsAttr::get(type, contents);
  }
  if (found != values.end() &&
      matchPattern(found->second.value, m_Constant(&attr)))
    return attr;
  if (found == values.end()) {
    // An initializer not imported yet.
    auto initializer = initializers.find(name.str());
    if (initializer != initializers.end()) {
      FailureOr<TensorValue> value = importInitializer(*initializer->second);
      if (succeeded(value) &&
          matchPattern(value->value, m_Constant(&attr)))
        return attr;
      return nullptr;
    }
  }
  // Shape tensors whose every value data propagation computed.
  const onnx::TensorShapeProto *data = getShapeData(name);
  RankedTensorType type = getInferredType(name);
  if (!data || !type || !type.hasStaticShape() ||
      !type.getElementType().isInteger(64) ||
      type.getNumElements() != data->dim_size())
    return nullptr;
  SmallVector<int64_t> contents;
  for (const onnx::TensorShapeProto_Dimension &dim : data->dim()) {
    if (!dim.has_dim_value())
      return nullptr;
    contents.push_back(dim.dim_value());
  }
  return DenseElementsAttr::get(type, ArrayRef<int64_t>(contents));
}

std::optional<ShapeElements> GraphImporter::getShapeElements(StringRef name) {
  auto elements = shapeElements.find(name);
  if (elements != shapeElements.end())
    return elements->second;
  RankedTensorType type = getInferredType(name);
  if (!type || type.getRank() > 1 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxShapeElements ||
      !isa<IntegerType>(type.getElementType()))
    return std::nullopt;
  bool isUnsigned = isUnsignedType(getInferredElementType(name));
  if (DenseElementsAttr attr = getConstant(name)) {
    ShapeElements result;
    for (const APInt &value : attr.getValues<APInt>())
      result.push_back(builder.getIndexAttr(
          isUnsigned ? int64_t(value.getZExtValue()) : value.getSExtValue()));
    return result;
  }
  // Symbolic sizes data propagation traced to the graph's inputs.
  if (const onnx::TensorShapeProto *data = getShapeData(name);
      data && data->dim_size() == type.getNumElements()) {
    ShapeElements result;
    for (const onnx::TensorShapeProto_Dimension &dim : data->dim()) {
      if (dim.has_dim_value())
        result.push_back(builder.getIndexAttr(dim.dim_value()));
      else if (Value symbol = getSymbol(dim.dim_param()))
        result.push_back(symbol);
      else
        return std::nullopt;
    }
    return result;
  }
  return std::nullopt;
}

RankedTensorType
GraphImporter::getShapeElementsType(StringRef name,
                                    const ShapeElements &elements) {
  RankedTensorType type = getInferredType(name);
  if (!type || type.hasStaticShape())
    return type;
  // A length only evaluating told.
  return RankedTensorType::get({static_cast<int64_t>(elements.size())},
                               type.getElementType());
}

TensorValue
GraphImporter::materializeShapeElements(StringRef name,
                                        const ShapeElements &elements) {
  RankedTensorType type = getShapeElementsType(name, elements);
  TensorValue value;
  value.elementType = getInferredElementType(name);
  if (DenseElementsAttr attr = getConstant(name)) {
    value.value =
        arith::ConstantOp::create(builder, builder.getUnknownLoc(), attr);
  } else {
    Location loc = builder.getUnknownLoc();
    SmallVector<Value> scalars;
    for (OpFoldResult element : elements) {
      Value index = getValueOrCreateConstantIndexOp(builder, loc, element);
      scalars.push_back(arith::IndexCastOp::create(
          builder, loc, type.getElementType(), index));
    }
    value.value = tensor::FromElementsOp::create(builder, loc, type, scalars);
  }
  values[name] = value;
  return value;
}

const onnx::TensorShapeProto *GraphImporter::getShapeData(StringRef name) {
  auto found = model.shapeData.find(name.str());
  return found == model.shapeData.end() ? nullptr : &found->second;
}

Value GraphImporter::getSymbol(StringRef dimParam) {
  return symbols.lookup(dimParam);
}

void GraphImporter::define(StringRef name, TensorValue value) {
  values[name] = value;
}

FailureOr<TensorValue>
GraphImporter::importInitializer(const onnx::TensorProto &tensor) {
  Location loc = builder.getUnknownLoc();
  RankedTensorType type = getInferredType(tensor.name());
  if (!type)
    return emitError(fileLoc) << "initializer '" << tensor.name()
                              << "' has element type "
                              << getElementTypeName(tensor.data_type())
                              << ", which kiln does not support";
  FailureOr<DenseElementsAttr> attr =
      getTensorConstant(tensor, context, fileLoc, type);
  if (failed(attr))
    return failure();
  TensorValue value{arith::ConstantOp::create(builder, loc, *attr),
                    tensor.data_type()};
  values[tensor.name()] = value;
  return value;
}

FailureOr<TensorValue> GraphImporter::importWeight(StringRef name,
                                                   const TensorData &data) {
  Type elementType = getMLIRElementType(context, data.elementType);
  if (!elementType)
    return emitError(fileLoc) << "initializer '" << name
                              << "' has element type "
                              << getElementTypeName(data.elementType)
                              << ", which kiln does not support";
  auto type = RankedTensorType::get(data.dims, elementType);
  Attribute attr;
  size_t elementBytes = getElementBytes(data.elementType);
  if (hasRawByteLayout(data.elementType) &&
      data.bytes->size() ==
          static_cast<uint64_t>(type.getNumElements()) * elementBytes &&
      reinterpret_cast<uintptr_t>(data.bytes->data()) % elementBytes == 0) {
    // The bytes as they came from the file, shared, never copied: the
    // blob keeps them alive.
    std::shared_ptr<const std::string> bytes = data.bytes;
    AsmResourceBlob blob(
        ArrayRef<char>(bytes->data(), bytes->size()), elementBytes,
        [bytes](void *, size_t, size_t) {}, /*dataIsMutable=*/false);
    attr = DenseResourceElementsAttr::get(type, getResourceKey(name),
                                          std::move(blob));
  } else {
    FailureOr<DenseElementsAttr> dense =
        getDenseConstant(type, data.elementType, *data.bytes, fileLoc);
    if (failed(dense))
      return failure();
    attr = *dense;
  }
  TensorValue value{
      arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                cast<TypedAttr>(attr)),
      data.elementType};
  values[name] = value;
  return value;
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

LogicalResult GraphImporter::checkOpsSupported() {
  struct Missing {
    std::string domain;
    int64_t opset = 0;
    int count = 0;
    std::string firstNode;
  };
  std::map<std::string, Missing> missing;
  std::map<std::string, int64_t> opsets;
  for (const onnx::OperatorSetIdProto &opset : model.model.opset_import())
    opsets[opset.domain()] = opset.version();
  const ConverterTable &converters = getConverters();
  for (const onnx::NodeProto &node : model.model.graph().node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (defaultDomain && converters.count(node.op_type()))
      continue;
    std::string key =
        defaultDomain ? node.op_type() : node.domain() + "." + node.op_type();
    Missing &entry = missing[key];
    if (entry.count++ == 0) {
      entry.domain = defaultDomain ? "" : node.domain();
      entry.opset = defaultDomain ? model.opset : opsets[node.domain()];
      entry.firstNode = node.name();
    }
  }
  if (missing.empty())
    return success();
  int nodes = 0;
  for (auto &entry : missing)
    nodes += entry.second.count;
  InFlightDiagnostic diag = emitError(fileLoc);
  diag << "kiln cannot import " << missing.size() << " op type"
       << (missing.size() == 1 ? "" : "s") << " of this model (" << nodes
       << " node" << (nodes == 1 ? "" : "s") << "):";
  bool quantized = false;
  for (auto &[op, entry] : missing) {
    diag << "\n  " << op << " (opset " << entry.opset << "): " << entry.count
         << " node" << (entry.count == 1 ? "" : "s") << ", first '"
         << entry.firstNode << "'";
    quantized |= StringRef(op).starts_with("QLinear") ||
                 StringRef(op).contains("Integer");
  }
  if (quantized)
    diag << "\nquantized ops (QLinear*, *Integer) are not supported: kiln "
            "runs QuantizeLinear and DequantizeLinear, so a model quantized "
            "as QDQ pairs around float ops runs (in float)";
  return diag;
}

LogicalResult GraphImporter::importInputs(func::FuncOp funcOp) {
  const onnx::GraphProto &graph = model.model.graph();
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  SmallVector<const onnx::ValueInfoProto *> inputs;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    // Initializers (in the proto or moved out) are constants, even where
    // the graph lists them as inputs too.
    if (initializers.count(input.name()) || model.weights.count(input.name()))
      continue;
    RankedTensorType type = getTensorType(context, input.type());
    if (!type)
      return emitError(fileLoc)
             << "graph input '" << input.name() << "' is "
             << describeType(input.type())
             << "; kiln functions take tensors of known rank and element "
                "types f32, f64, f16, bf16, the 8-bit floats, bool and "
                "integers";
    inputs.push_back(&input);
    argTypes.push_back(type);
    argAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        kValueNameAttrName, builder.getStringAttr(input.name()))));
  }
  funcOp.setType(FunctionType::get(context, argTypes, {}));
  funcOp.setAllArgAttrs(argAttrs);
  body = funcOp.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments())) {
    values[input->name()] =
        TensorValue{arg, input->type().tensor_type().elem_type()};
    for (auto [index, dim] :
         llvm::enumerate(input->type().tensor_type().shape().dim())) {
      if (dim.has_dim_value() || dim.dim_param().empty() ||
          symbols.count(dim.dim_param()))
        continue;
      symbols[dim.dim_param()] =
          tensor::DimOp::create(builder, funcOp.getLoc(), arg, index);
    }
  }
  return success();
}

bool GraphImporter::foldKnownOutputs(const onnx::NodeProto &node) {
  SmallVector<DenseElementsAttr> known;
  for (const std::string &output : node.output()) {
    DenseElementsAttr attr = output.empty() ? nullptr : getConstant(output);
    if (!output.empty() && !attr)
      return false;
    known.push_back(attr);
  }
  for (auto [output, attr] : llvm::zip(node.output(), known))
    if (attr)
      values[output] = TensorValue{
          arith::ConstantOp::create(builder, builder.getUnknownLoc(), attr),
          getInferredElementType(output)};
  return true;
}

bool GraphImporter::evaluateShapes(NodeContext &ctx) {
  SmallVector<std::optional<ShapeElements>> inputs;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    inputs.push_back(ctx.hasInput(i) ? getShapeElements(ctx.node.input(i))
                                     : std::nullopt);
  std::optional<SmallVector<ShapeElements>> outputs =
      evaluateShapeNode(ctx, inputs);
  if (!outputs)
    return false;
  for (auto [name, elements] : llvm::zip(ctx.node.output(), *outputs))
    shapeElements[name] = elements;
  return true;
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        unsigned index) {
  const NodeOrigin &origin = model.origins[index];
  InputNode inputNode{origin.name, origin.opType, origin.scope,
                      origin.source};
  // Placed on its line once the text is printed.
  Location loc =
      getInputNodeLoc(inputNode, FileLineColLoc::get(textPath, /*line=*/0, 0));
  builder.setInsertionPointToEnd(body);
  // Values a converter reads, on demand (initializers are made then).
  for (const std::string &input : node.input()) {
    if (input.empty())
      continue;
    if (!values.count(input) && !initializers.count(input) &&
        !model.weights.count(input) && !shapeElements.count(input))
      return emitError(fileLoc) << "node '" << node.name() << "' (" << node.op_type()
                            << ") reads '" << input
                            << "', which nothing defines before it";
    // Values of types kiln cannot hold are refused here, by name.
    if (!values.count(input) && !getInferredType(input))
      return emitError(fileLoc) << "node '" << node.name() << "' ("
                            << node.op_type() << ") reads '" << input
                            << "' of a type kiln does not support";
  }
  for (const std::string &output : node.output()) {
    if (output.empty())
      continue;
    auto type = types.find(output);
    if (type == types.end())
      return emitError(fileLoc) << "node '" << node.name() << "' ("
                            << node.op_type() << "): ONNX's shape inference "
                            << "gave output '" << output << "' no type";
    // A rank inference could not tell is the converter's to find.
    if (!getTensorType(context, *type->second) &&
        !isTensorOfUnknownRank(context, *type->second))
      return emitError(fileLoc)
             << "node '" << node.name() << "' (" << node.op_type()
             << "): output '" << output << "' is "
             << describeType(*type->second)
             << ", which kiln cannot hold (tensors of known rank and "
                "numeric or bool elements)";
  }
  // Ops made before the converter's (constants of initializers first read
  // here) are located at the node once it is done.
  Block::iterator before = body->empty() ? body->end() : std::prev(body->end());
  bool wasEmpty = body->empty();
  LogicalResult converted = success();
  NodeContext nodeContext(*this, node, builder, model.opset);
  nodeContext.loc = loc;
  if (!foldKnownOutputs(node) && !evaluateShapes(nodeContext)) {
    const ConverterTable &converters = getConverters();
    auto converter = converters.find(node.op_type());
    converted = converter->second(nodeContext);
    if (succeeded(converted))
      for (auto [i, output] : llvm::enumerate(node.output()))
        if (!output.empty() && !values.count(output) &&
            !shapeElements.count(output))
          return emitError(fileLoc) << "internal error: converting node '"
                                << node.name() << "' (" << node.op_type()
                                << ") made no value for output " << i;
  }
  // Ops the lookups made at an unknown location stand at the node.
  Block::iterator first = wasEmpty ? body->begin() : std::next(before);
  for (Operation &op : llvm::make_range(first, body->end()))
    op.walk([&](Operation *nested) {
      if (isa<UnknownLoc>(nested->getLoc()))
        nested->setLoc(loc);
    });
  return converted;
}

LogicalResult GraphImporter::locateOpsInText(ModuleOp moduleOp) {
  StringAttr path = textPath;
  AsmState::LocationMap positions, previous;
  for (int round = 0; round < kMaxLocatingRounds; ++round) {
    std::string text;
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    // The weights' bytes follow the program: they move no line, and
    // printed they would take twice their size.
    flags.enableDebugInfo(true, /*prettyForm=*/false)
        .elideLargeResourceString(0);
    positions.clear();
    AsmState state(moduleOp, flags, &positions);
    moduleOp->print(os, state);
    if (round > 0 && positions == previous)
      return success();
    moduleOp.walk([&](Operation *op) {
      auto position = positions.find(op);
      if (position == positions.end())
        return;
      auto line = FileLineColLoc::get(path, position->second.first,
                                      position->second.second);
      if (std::optional<InputNode> node = findInputNode(op->getLoc()))
        op->setLoc(getInputNodeLoc(*node, line));
      else
        op->setLoc(line);
      // A function's arguments stand on its line; the block arguments of
      // element computations need no place of their own.
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setLoc(isa<func::FuncOp>(op) ? Location(line)
                                              : UnknownLoc::get(context));
    });
    previous = positions;
  }
  return emitError(fileLoc)
         << "internal error: the imported text's lines do not settle";
}

FailureOr<OwningOpRef<ModuleOp>> GraphImporter::import() {
  if (failed(checkOpsSupported()))
    return failure();
  const onnx::GraphProto &graph = model.model.graph();
  Location textLoc = FileLineColLoc::get(textPath, 0, 0);
  OwningOpRef<ModuleOp> moduleOp = ModuleOp::create(textLoc);
  builder.setInsertionPointToEnd(moduleOp->getBody());
  auto funcOp = func::FuncOp::create(builder, textLoc, options.functionName,
                                     FunctionType::get(context, {}, {}));
  if (failed(importInputs(funcOp)))
    return failure();
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return failure();

  // The graph's outputs.
  SmallVector<Value> results;
  SmallVector<Attribute> resultAttrs;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    FailureOr<TensorValue> value = lookup(output.name());
    if (failed(value))
      return failure();
    results.push_back(value->value);
    resultAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        kValueNameAttrName, builder.getStringAttr(output.name()))));
  }
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, textLoc, results);
  funcOp.setType(FunctionType::get(context, funcOp.getArgumentTypes(),
                                   ValueRange(results).getTypes()));
  funcOp.setAllResultAttrs(resultAttrs);

  // What no output needs goes: unused sizes, constants, and nodes whose
  // results nothing reads (a Dropout's mask).
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (isOpTriviallyDead(&op))
      op.erase();

  if (failed(verify(*moduleOp)))
    return emitError(fileLoc)
           << "internal error: the imported program does not verify";
  if (failed(locateOpsInText(*moduleOp)))
    return failure();
  return moduleOp;
}

} // namespace mlir::kiln::onnx_import
