//===- Tensor.cpp - ONNX ops that move, select and make tensors ----------===//
//
// Shapes and their arithmetic, reshapes, transposes, slices, gathers,
// concatenation, padding, broadcasting and the tensors made from sizes or
// attributes. Sizes known while importing stay static; those known only
// when the program runs are computed by the host as index values.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

namespace {

/// `value` as an index value.
Value index(OpBuilder &b, Location loc, OpFoldResult value) {
  return getIndexValue(b, loc, value);
}

/// A 1-D i64 tensor of the index values `values`.
Value createIndexTensor(OpBuilder &b, Location loc,
                        ArrayRef<OpFoldResult> values, Type elementType) {
  SmallVector<Value> elements;
  for (OpFoldResult value : values)
    elements.push_back(arith::IndexCastOp::create(b, loc, elementType,
                                                  index(b, loc, value)));
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    elementType);
  return tensor::FromElementsOp::create(b, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

LogicalResult convertConstant(NodeContext &ctx) {
  RankedTensorType type = ctx.getOutputType(0);
  Attribute attr;
  if (ctx.hasAttribute("value")) {
    FailureOr<DenseElementsAttr> value = ctx.getTensorAttribute("value", type);
    if (failed(value))
      return failure();
    attr = *value;
  } else if (ctx.hasAttribute("value_float")) {
    attr = DenseElementsAttr::get(
        type, ctx.builder.getF32FloatAttr(ctx.getFloat("value_float", 0)));
  } else if (ctx.hasAttribute("value_int")) {
    attr = DenseElementsAttr::get(
        type, ctx.builder.getI64IntegerAttr(ctx.getInt("value_int", 0)));
  } else if (ctx.hasAttribute("value_floats")) {
    attr = DenseElementsAttr::get(type,
                                  ArrayRef<float>(ctx.getFloats("value_floats")));
  } else if (ctx.hasAttribute("value_ints")) {
    attr = DenseElementsAttr::get(type,
                                  ArrayRef<int64_t>(ctx.getInts("value_ints")));
  } else {
    return ctx.fail("only numeric tensor constants are supported (not "
                    "strings or sparse tensors)");
  }
  ctx.setOutput(0, arith::ConstantOp::create(ctx.builder, ctx.loc,
                                             cast<TypedAttr>(attr)));
  return success();
}

LogicalResult convertShape(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank();
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t start = clampIndex(ctx.getInt("start", 0));
  int64_t end = clampIndex(ctx.getInt("end", rank));
  SmallVector<OpFoldResult> sizes = getSizes(ctx.builder, ctx.loc, input);
  SmallVector<OpFoldResult> selected(
      sizes.begin() + start, sizes.begin() + std::max(start, end));
  ctx.setOutput(0, createIndexTensor(ctx.builder, ctx.loc, selected,
                                     ctx.getOutputElementMLIRType(0)));
  return success();
}

LogicalResult convertSize(NodeContext &ctx) {
  OpFoldResult count = getProduct(
      ctx.builder, ctx.loc, getSizes(ctx.builder, ctx.loc, ctx.getInput(0)));
  Value element =
      arith::IndexCastOp::create(ctx.builder, ctx.loc,
                                 ctx.getOutputElementMLIRType(0),
                                 index(ctx.builder, ctx.loc, count));
  ctx.setOutput(0, tensor::FromElementsOp::create(
                       ctx.builder, ctx.loc,
                       RankedTensorType::get({}, element.getType()), element));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &ctx) {
  FailureOr<SmallVector<OpFoldResult>> sizes = ctx.getIndexValues(0);
  if (failed(sizes))
    return failure();
  Type elementType = ctx.getOutputElementMLIRType(0);
  Attribute value = ctx.builder.getZeroAttr(elementType);
  if (ctx.hasAttribute("value")) {
    FailureOr<DenseElementsAttr> attr = ctx.getTensorAttribute("value");
    if (failed(attr))
      return failure();
    if (attr->getNumElements() != 1)
      return ctx.fail("value must hold one element");
    value = attr->getSplatValue<Attribute>();
    if (!attr->isSplat())
      value = *attr->value_begin<Attribute>();
  }
  Value scalar =
      arith::ConstantOp::create(ctx.builder, ctx.loc, cast<TypedAttr>(value));
  ctx.setOutput(0, createFilled(ctx.builder, ctx.loc, *sizes, scalar));
  return success();
}

LogicalResult convertRange(NodeContext &ctx) {
  Type elementType = ctx.getInputType(0).getElementType();
  auto type = ctx.getOutputType(0)
                  ? ctx.getOutputType(0)
                  : RankedTensorType::get({ShapedType::kDynamic}, elementType);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  bool isUnsigned = ctx.isUnsignedInput(0);
  // Integer bounds known as index values (sizes of tensors): the host
  // counts the elements, each kernel computes its own from the index.
  std::optional<SmallVector<OpFoldResult>> start = ctx.findIndexValues(0);
  std::optional<SmallVector<OpFoldResult>> limit = ctx.findIndexValues(1);
  std::optional<SmallVector<OpFoldResult>> delta = ctx.findIndexValues(2);
  bool fromIndices = isa<IntegerType>(elementType) && start && limit &&
                     delta && start->size() == 1 && limit->size() == 1 &&
                     delta->size() == 1;
  OpFoldResult count;
  if (!type.isDynamicDim(0)) {
    count = b.getIndexAttr(type.getDimSize(0));
  } else if (fromIndices) {
    // max(ceil((limit - start) / delta), 0)
    Value span = arith::SubIOp::create(b, loc, index(b, loc, (*limit)[0]),
                                       index(b, loc, (*start)[0]));
    Value steps =
        arith::CeilDivSIOp::create(b, loc, span, index(b, loc, (*delta)[0]));
    count = arith::MaxSIOp::create(b, loc, steps,
                                   arith::ConstantIndexOp::create(b, loc, 0))
                .getResult();
  } else {
    // Counted by a kernel, max(ceil((limit - start) / delta), 0) (floats
    // in f64, as numpy counts), which the host then reads.
    auto countType = RankedTensorType::get({}, b.getI64Type());
    Value countInit = createEmpty(b, loc, {}, b.getI64Type());
    AffineMap scalarMap = AffineMap::get(b.getContext());
    SmallVector<Value> boundTensors;
    for (unsigned i = 0; i < 3; ++i)
      boundTensors.push_back(reshape(b, loc, ctx.getInput(i), {}));
    auto counted = linalg::GenericOp::create(
        b, loc, countType, boundTensors, countInit,
        SmallVector<AffineMap>(4, scalarMap), {},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Type i64 = nb.getI64Type();
          Value bounds[3] = {args[0], args[1], args[2]};
          Value steps;
          if (isa<FloatType>(elementType)) {
            Type f64 = nb.getF64Type();
            for (Value &bound : bounds)
              bound = convertScalar(nb, nl, bound, f64, false, false);
            Value quotient = arith::DivFOp::create(
                nb, nl, arith::SubFOp::create(nb, nl, bounds[1], bounds[0]),
                bounds[2]);
            steps = arith::FPToSIOp::create(
                nb, nl, i64, math::CeilOp::create(nb, nl, quotient));
          } else {
            for (Value &bound : bounds)
              bound = convertScalar(nb, nl, bound, i64, isUnsigned, false);
            steps = arith::CeilDivSIOp::create(
                nb, nl, arith::SubIOp::create(nb, nl, bounds[1], bounds[0]),
                bounds[2]);
          }
          linalg::YieldOp::create(
              nb, nl,
              arith::MaxSIOp::create(nb, nl, steps,
                                     createIntScalar(nb, nl, i64, 0))
                  .getResult());
        });
    count = arith::IndexCastOp::create(
                b, loc, b.getIndexType(),
                tensor::ExtractOp::create(b, loc, counted.getResult(0),
                                          ValueRange{}))
                .getResult();
  }
  Value empty = createEmpty(b, loc, {count}, elementType);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, b.getContext());
  Value startTensor = ctx.getInput(0), deltaTensor = ctx.getInput(2);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{}, empty, identity,
      utils::IteratorType::parallel,
      [&](OpBuilder &nb, Location nl, ValueRange) {
        Value i = linalg::IndexOp::create(nb, nl, 0);
        Value value;
        if (fromIndices) {
          Value position = arith::AddIOp::create(
              nb, nl, index(nb, nl, (*start)[0]),
              arith::MulIOp::create(nb, nl, i, index(nb, nl, (*delta)[0])));
          value = arith::IndexCastOp::create(nb, nl, elementType, position);
        } else {
          // The bounds are read by the kernel.
          Value first = extractScalar(nb, nl, startTensor);
          Value step = extractScalar(nb, nl, deltaTensor);
          Value steps = convertScalar(nb, nl, i, elementType, false,
                                      isUnsigned);
          value = isa<FloatType>(elementType)
                      ? arith::AddFOp::create(
                            nb, nl, first,
                            arith::MulFOp::create(nb, nl, steps, step))
                            .getResult()
                      : arith::AddIOp::create(
                            nb, nl, first,
                            arith::MulIOp::create(nb, nl, steps, step))
                            .getResult();
        }
        linalg::YieldOp::create(nb, nl, value);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// Whether `value` was read from a tensor's contents (not computed from
/// sizes of tensors): an element made an index.
bool isReadFromContents(OpFoldResult value) {
  auto v = dyn_cast<Value>(value);
  return v &&
         isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(
             v.getDefiningOp()) &&
         v.getDefiningOp()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
}

LogicalResult convertReshape(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<std::optional<OpFoldResult>> known =
      ctx.getKnownOutputSizes(0).value_or(
          SmallVector<std::optional<OpFoldResult>>());
  SmallVector<OpFoldResult> sizes;
  if (std::optional<SmallVector<OpFoldResult>> all = ctx.findOutputSizes(0)) {
    sizes = std::move(*all);
  } else {
    FailureOr<SmallVector<OpFoldResult>> target = ctx.getIndexValues(1);
    if (failed(target))
      return failure();
    bool allowZero = ctx.getInt("allowzero", 0);
    SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
    std::optional<unsigned> inferred;
    // Entries read from the shape's contents as the program runs may be 0
    // or -1 too: what they mean is computed by the host, without branches.
    IndexMath math(b, loc);
    SmallVector<OpFoldResult> isInferred(target->size(), math.constant(0));
    for (auto [i, value] : llvm::enumerate(*target)) {
      std::optional<int64_t> constant = getConstantIntValue(value);
      if (i < known.size() && known[i]) {
        sizes.push_back(*known[i]);
      } else if (!constant && isReadFromContents(value)) {
        // 0 copies the input's size (unless allowzero); -1 is inferred,
        // counting as 1 in the others' product.
        OpFoldResult size = value;
        if (!allowZero && i < inputSizes.size())
          size = math.select(math.isZero(value), inputSizes[i], value);
        isInferred[i] = math.isNegative(value);
        sizes.push_back(math.select(isInferred[i], math.constant(1), size));
      } else if (constant == 0 && !allowZero) {
        if (i >= inputSizes.size())
          return ctx.fail("shape copies dimension " + Twine(i) +
                          " of a rank-" + Twine(inputSizes.size()) + " input");
        sizes.push_back(inputSizes[i]);
      } else if (constant == -1) {
        inferred = i;
        sizes.push_back(b.getIndexAttr(1));
      } else {
        sizes.push_back(value);
      }
    }
    bool readsContents = llvm::any_of(isInferred, [](OpFoldResult flag) {
      return !isConstantIntValue(flag, 0);
    });
    if (inferred || readsContents) {
      Value total = index(b, loc, getProduct(b, loc, inputSizes));
      Value others = index(b, loc, getProduct(b, loc, sizes));
      OpFoldResult quotient = getAsOpFoldResult(
          arith::DivUIOp::create(b, loc, total, others).getResult());
      if (inferred)
        sizes[*inferred] = quotient;
      for (auto [size, flag] : llvm::zip(sizes, isInferred))
        size = math.select(flag, quotient, size);
    }
  }
  ctx.setOutput(0, reshape(b, loc, input, sizes));
  return success();
}

LogicalResult convertFlatten(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank();
  FailureOr<int64_t> axis = ctx.getInt("axis", 1) == rank
                                ? FailureOr<int64_t>(rank)
                                : ctx.normalizeAxis(ctx.getInt("axis", 1), rank);
  if (failed(axis))
    return failure();
  SmallVector<OpFoldResult> sizes = getSizes(ctx.builder, ctx.loc, input);
  OpFoldResult outer = getProduct(ctx.builder, ctx.loc,
                                  ArrayRef(sizes).take_front(*axis));
  OpFoldResult inner = getProduct(ctx.builder, ctx.loc,
                                  ArrayRef(sizes).drop_front(*axis));
  ctx.setOutput(0, reshape(ctx.builder, ctx.loc, input, {outer, inner}));
  return success();
}

LogicalResult convertTranspose(NodeContext &ctx) {
  int64_t rank = ctx.getInputType(0).getRank();
  SmallVector<int64_t> perm = ctx.getInts("perm");
  if (perm.empty())
    perm = llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank)));
  if (static_cast<int64_t>(perm.size()) != rank)
    return ctx.fail("perm has " + Twine(perm.size()) + " entries for rank " +
                    Twine(rank));
  for (int64_t &dim : perm) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(dim, rank);
    if (failed(normalized))
      return failure();
    dim = *normalized;
  }
  ctx.setOutput(0, transpose(ctx.builder, ctx.loc, ctx.getInput(0), perm));
  return success();
}

/// The axes of Squeeze and Unsqueeze: the second input (the attribute before
/// opset 13), normalized for `rank`.
FailureOr<SmallVector<int64_t>> getAxes(NodeContext &ctx, int64_t rank,
                                        bool required) {
  SmallVector<int64_t> axes;
  if (ctx.hasInput(1)) {
    std::optional<SmallVector<int64_t>> values = ctx.getConstantInts(1);
    if (!values)
      return ctx.fail("axes must be a constant");
    axes = *values;
  } else if (ctx.hasAttribute("axes")) {
    axes = ctx.getInts("axes");
  } else if (required) {
    return ctx.fail("axes are required");
  }
  for (int64_t &axis : axes) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    axis = *normalized;
  }
  return axes;
}

/// Whether Squeeze's or Unsqueeze's axes are read as the program runs.
bool hasReadAxes(NodeContext &ctx) {
  return ctx.hasInput(1) && !ctx.getConstantInts(1);
}

LogicalResult convertSqueeze(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  if (hasReadAxes(ctx)) {
    // The dimensions the axes name dropped, as many as they list.
    FailureOr<SmallVector<OpFoldResult>> axes = ctx.getIndexValues(1);
    if (failed(axes))
      return failure();
    int64_t count = type.getRank() - axes->size();
    if (count < 0)
      return ctx.fail("lists more axes than the input has dimensions");
    OpBuilder &b = ctx.builder;
    Location loc = ctx.loc;
    ctx.setOutput(
        0, reshape(b, loc, input,
                   getUnmarkedSizes(b, loc, getSizes(b, loc, input),
                                    getAxesMask(b, loc, *axes, type.getRank()),
                                    count)));
    return success();
  }
  FailureOr<SmallVector<int64_t>> axes =
      getAxes(ctx, type.getRank(), /*required=*/false);
  if (failed(axes))
    return failure();
  if (axes->empty()) {
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) == 1)
        axes->push_back(d);
    if (llvm::any_of(type.getShape(), ShapedType::isDynamic))
      return ctx.fail("squeezing every dimension of size 1 needs static "
                      "sizes; give axes");
  }
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(getSizes(ctx.builder, ctx.loc, input))) {
    if (!llvm::is_contained(*axes, static_cast<int64_t>(d))) {
      sizes.push_back(size);
      continue;
    }
    if (!type.isDynamicDim(d) && type.getDimSize(d) != 1)
      return ctx.fail("dimension " + Twine(d) + " has size " +
                      Twine(type.getDimSize(d)) + ", not 1");
  }
  ctx.setOutput(0, reshape(ctx.builder, ctx.loc, input, sizes));
  return success();
}

LogicalResult convertUnsqueeze(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  // The output's rank: the input's and one per axis.
  int64_t rank = ctx.getInputType(0).getRank();
  if (ctx.hasInput(1))
    rank += ctx.getInputType(1).getNumElements();
  else
    rank += ctx.getInts("axes").size();
  SmallVector<OpFoldResult> inputSizes = getSizes(ctx.builder, ctx.loc, input);
  if (hasReadAxes(ctx)) {
    // Ones where the axes name the output's dimensions, the input's sizes
    // in order between them.
    FailureOr<SmallVector<OpFoldResult>> axes = ctx.getIndexValues(1);
    if (failed(axes))
      return failure();
    OpBuilder &b = ctx.builder;
    Location loc = ctx.loc;
    ctx.setOutput(
        0, reshape(b, loc, input,
                   getSizesAroundMarked(b, loc, inputSizes,
                                        getAxesMask(b, loc, *axes, rank))));
    return success();
  }
  FailureOr<SmallVector<int64_t>> axes = getAxes(ctx, rank, /*required=*/true);
  if (failed(axes))
    return failure();
  SmallVector<OpFoldResult> sizes;
  unsigned next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(*axes, d))
      sizes.push_back(ctx.builder.getIndexAttr(1));
    else if (next < inputSizes.size())
      sizes.push_back(inputSizes[next++]);
    else
      return ctx.fail("axes do not fit the output's rank");
  }
  ctx.setOutput(0, reshape(ctx.builder, ctx.loc, input, sizes));
  return success();
}

//===----------------------------------------------------------------------===//
// Joining and splitting
//===----------------------------------------------------------------------===//

LogicalResult convertConcat(NodeContext &ctx) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    if (ctx.hasInput(i))
      inputs.push_back(ctx.getInput(i));
  int64_t rank = cast<RankedTensorType>(inputs[0].getType()).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  // Empty pieces add nothing.
  SmallVector<Value> pieces;
  for (Value input : inputs)
    if (cast<RankedTensorType>(input.getType()).getDimSize(*axis) != 0)
      pieces.push_back(input);
  if (pieces.empty())
    pieces.push_back(inputs[0]);
  if (pieces.size() == 1) {
    ctx.setOutput(0, pieces[0]);
    return success();
  }
  ctx.setOutput(0,
                tensor::ConcatOp::create(ctx.builder, ctx.loc, *axis, pieces));
  return success();
}

LogicalResult convertSplit(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  unsigned outputs = ctx.getNumOutputs();
  SmallVector<OpFoldResult> lengths;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<OpFoldResult>> split = ctx.getIndexValues(1);
    if (failed(split))
      return failure();
    lengths = *split;
  } else if (ctx.hasAttribute("split")) {
    for (int64_t length : ctx.getInts("split"))
      lengths.push_back(b.getIndexAttr(length));
  } else {
    // Equal parts, the last one smaller: ceil(size / outputs) each.
    OpFoldResult size = sizes[*axis];
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    for (unsigned i = 0; i < outputs; ++i) {
      if (!staticSize)
        return ctx.fail("splitting a dimension of dynamic size needs split "
                        "lengths");
      int64_t part = (*staticSize + outputs - 1) / outputs;
      int64_t begin = std::min<int64_t>(part * i, *staticSize);
      lengths.push_back(
          b.getIndexAttr(std::min<int64_t>(part, *staticSize - begin)));
    }
  }
  if (lengths.size() != outputs)
    return ctx.fail("split has " + Twine(lengths.size()) +
                    " lengths for " + Twine(outputs) + " outputs");
  OpFoldResult offset = b.getIndexAttr(0);
  for (unsigned i = 0; i < outputs; ++i) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> partSizes = sizes;
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    offsets[*axis] = offset;
    partSizes[*axis] = lengths[i];
    if (ctx.hasOutput(i))
      ctx.setOutput(i, createSlice(b, loc, input, offsets, partSizes, strides));
    offset = IndexMath(b, loc).add(offset, lengths[i]);
  }
  return success();
}

/// Clamps an ONNX slice bound (negative: from the end) into [low, size +
/// high], where `high` is 0 for starts and ends of positive steps and -1
/// for those of negative steps (`low` -1 for their ends).
OpFoldResult clampBound(IndexMath &math, OpFoldResult bound, OpFoldResult size,
                        OpFoldResult low, OpFoldResult high) {
  OpFoldResult value = math.add(bound, math.mul(math.isNegative(bound), size));
  return math.max(math.min(value, math.add(size, high)), low);
}

LogicalResult convertSlice(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  // Starts, ends, axes and steps are constants or read as the program runs.
  FailureOr<SmallVector<OpFoldResult>> starts = ctx.getIndexValues(1);
  if (failed(starts))
    return failure();
  FailureOr<SmallVector<OpFoldResult>> ends = ctx.getIndexValues(2);
  if (failed(ends))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> axes;
  if (ctx.hasInput(3)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(3);
    if (failed(values))
      return failure();
    axes = std::move(*values);
  } else {
    for (size_t i = 0; i < starts->size(); ++i)
      axes.push_back(math.constant(i));
  }
  SmallVector<OpFoldResult> steps(starts->size(), math.constant(1));
  if (ctx.hasInput(4)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(4);
    if (failed(values))
      return failure();
    steps = std::move(*values);
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size())
    return ctx.fail("starts, ends, axes and steps differ in length");
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  // Each dimension's start, end and step as given: those of the axis
  // naming it, else the whole dimension.
  SmallVector<std::optional<OpFoldResult>> dimStarts(rank), dimEnds(rank),
      dimSteps(rank);
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (std::optional<int64_t> known = getConstantIntValue(axis)) {
      FailureOr<int64_t> normalized = ctx.normalizeAxis(*known, rank);
      if (failed(normalized))
        return failure();
      dimStarts[*normalized] = (*starts)[i];
      dimEnds[*normalized] = (*ends)[i];
      dimSteps[*normalized] = steps[i];
      continue;
    }
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult names = math.namesDimension(axis, d, rank);
      auto pick = [&](std::optional<OpFoldResult> &current, OpFoldResult given,
                      OpFoldResult otherwise) {
        current = math.select(names, given, current.value_or(otherwise));
      };
      pick(dimStarts[d], (*starts)[i], math.constant(0));
      pick(dimEnds[d], (*ends)[i], sizes[d]);
      pick(dimSteps[d], steps[i], math.constant(1));
    }
  }
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> lengths = sizes;
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    if (!dimStarts[d])
      continue;
    OpFoldResult step = *dimSteps[d];
    if (isConstantIntValue(step, 0))
      return ctx.fail("steps must not be 0");
    OpFoldResult size = sizes[d];
    // Bounds of negative steps clamp one lower.
    OpFoldResult backwards = math.isNegative(step);
    OpFoldResult high = math.sub(math.constant(0), backwards);
    OpFoldResult start =
        clampBound(math, *dimStarts[d], size, math.constant(0), high);
    OpFoldResult end = clampBound(math, *dimEnds[d], size, high, high);
    // count = max(ceil((end - start) / step), 0), ceil(x / m) = -floor(-x / m)
    OpFoldResult count =
        math.sub(math.constant(0), math.floorDiv(math.sub(start, end), step));
    offsets[d] = start;
    lengths[d] = math.max(count, math.constant(0));
    strides[d] = step;
  }
  auto isPositive = [](OpFoldResult stride) {
    std::optional<int64_t> value = getConstantIntValue(stride);
    return value && *value > 0;
  };
  if (llvm::all_of(strides, isPositive)) {
    ctx.setOutput(0, createSlice(b, loc, input, offsets, lengths, strides));
    return success();
  }
  // A negative step (or one read as the program runs) reads backwards:
  // each element gathered from its place.
  Value empty = createEmpty(b, loc, lengths, type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{}, empty, identity, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = linalg::IndexOp::create(nested, nestedLoc, d);
          Value offset = index(nested, nestedLoc, offsets[d]);
          Value stride = index(nested, nestedLoc, strides[d]);
          indices.push_back(arith::AddIOp::create(
              nested, nestedLoc, offset,
              arith::MulIOp::create(nested, nestedLoc, i, stride)));
        }
        Value element =
            tensor::ExtractOp::create(nested, nestedLoc, input, indices);
        linalg::YieldOp::create(nested, nestedLoc, element);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

LogicalResult convertGather(NodeContext &ctx) {
  Value data = ctx.getInput(0);
  Value indices = ctx.getInput(1);
  RankedTensorType dataType = ctx.getInputType(0);
  RankedTensorType indicesType = ctx.getInputType(1);
  int64_t rank = dataType.getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> dataSizes = getSizes(b, loc, data);
  SmallVector<OpFoldResult> indexSizes = getSizes(b, loc, indices);
  // A constant scalar index is a slice.
  if (std::optional<SmallVector<int64_t>> constant = ctx.getConstantInts(1);
      constant && indicesType.getRank() == 0) {
    std::optional<int64_t> size = getConstantIntValue(dataSizes[*axis]);
    int64_t position = (*constant)[0];
    if (size && position < 0)
      position += *size;
    if (size && position >= 0 && position < *size) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes = dataSizes;
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      offsets[*axis] = b.getIndexAttr(position);
      sizes[*axis] = b.getIndexAttr(1);
      SmallVector<OpFoldResult> resultSizes = dataSizes;
      resultSizes.erase(resultSizes.begin() + *axis);
      Value slice = createSlice(b, loc, data, offsets, sizes, strides);
      ctx.setOutput(0, reshape(b, loc, slice, resultSizes));
      return success();
    }
  }
  // result[a..., i..., b...] = data[a..., indices[i...], b...]
  SmallVector<OpFoldResult> resultSizes(dataSizes.begin(),
                                        dataSizes.begin() + *axis);
  llvm::append_range(resultSizes, indexSizes);
  resultSizes.append(dataSizes.begin() + *axis + 1, dataSizes.end());
  int64_t resultRank = resultSizes.size();
  int64_t indexRank = indicesType.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> indexExprs;
  for (int64_t d = 0; d < indexRank; ++d)
    indexExprs.push_back(getAffineDimExpr(*axis + d, context));
  AffineMap indexMap = AffineMap::get(resultRank, 0, indexExprs, context);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(resultRank, context);
  Value empty = createEmpty(b, loc, resultSizes, dataType.getElementType());
  Value axisSize = index(b, loc, dataSizes[*axis]);
  bool isUnsigned = ctx.isUnsignedInput(1);
  SmallVector<utils::IteratorType> iterators(resultRank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), indices, empty,
      ArrayRef<AffineMap>{indexMap, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> dataIndices;
        for (int64_t d = 0; d < *axis; ++d)
          dataIndices.push_back(linalg::IndexOp::create(nested, nestedLoc, d));
        dataIndices.push_back(
            normalizeIndex(nested, nestedLoc, args[0], axisSize, isUnsigned));
        for (int64_t d = *axis + 1; d < rank; ++d)
          dataIndices.push_back(linalg::IndexOp::create(
              nested, nestedLoc, d - 1 + indexRank));
        Value element =
            tensor::ExtractOp::create(nested, nestedLoc, data, dataIndices);
        linalg::YieldOp::create(nested, nestedLoc, element);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

LogicalResult convertGatherElements(NodeContext &ctx) {
  Value data = ctx.getInput(0);
  Value indices = ctx.getInput(1);
  int64_t rank = ctx.getInputType(0).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value axisSize = index(b, loc, getSizes(b, loc, data)[*axis]);
  bool isUnsigned = ctx.isUnsignedInput(1);
  Value empty = createEmpty(b, loc, getSizes(b, loc, indices),
                            ctx.getInputType(0).getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), indices, empty,
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> dataIndices;
        for (int64_t d = 0; d < rank; ++d)
          dataIndices.push_back(
              d == *axis ? normalizeIndex(nested, nestedLoc, args[0], axisSize,
                                          isUnsigned)
                         : linalg::IndexOp::create(nested, nestedLoc, d)
                               .getResult());
        Value element =
            tensor::ExtractOp::create(nested, nestedLoc, data, dataIndices);
        linalg::YieldOp::create(nested, nestedLoc, element);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting, tiling, padding
//===----------------------------------------------------------------------===//

LogicalResult convertExpand(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<std::optional<OpFoldResult>> known =
      ctx.getKnownOutputSizes(0).value_or(
          SmallVector<std::optional<OpFoldResult>>());
  SmallVector<OpFoldResult> sizes;
  if (std::optional<SmallVector<OpFoldResult>> all = ctx.findOutputSizes(0)) {
    sizes = std::move(*all);
  } else {
    FailureOr<SmallVector<OpFoldResult>> shape = ctx.getIndexValues(1);
    if (failed(shape))
      return failure();
    SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
    int64_t rank = std::max(shape->size(), inputSizes.size());
    for (int64_t d = 0; d < rank; ++d) {
      int64_t shapeDim = d - (rank - shape->size());
      int64_t inputDim = d - (rank - inputSizes.size());
      if (d < static_cast<int64_t>(known.size()) && known[d]) {
        sizes.push_back(*known[d]);
        continue;
      }
      OpFoldResult fromShape =
          shapeDim >= 0 ? (*shape)[shapeDim] : b.getIndexAttr(1);
      OpFoldResult fromInput =
          inputDim >= 0 ? inputSizes[inputDim] : b.getIndexAttr(1);
      if (getConstantIntValue(fromShape) == 1)
        sizes.push_back(fromInput);
      else if (getConstantIntValue(fromInput) == 1)
        sizes.push_back(fromShape);
      else
        sizes.push_back(arith::MaxSIOp::create(b, loc, index(b, loc, fromShape),
                                               index(b, loc, fromInput))
                            .getResult());
    }
  }
  FailureOr<Value> result = broadcastTo(b, loc, input, sizes);
  if (failed(result))
    return ctx.fail("the input does not broadcast to the shape");
  ctx.setOutput(0, *result);
  return success();
}

LogicalResult convertTile(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  FailureOr<SmallVector<OpFoldResult>> repeats = ctx.getIndexValues(1);
  if (failed(repeats))
    return failure();
  if (static_cast<int64_t>(repeats->size()) != rank)
    return ctx.fail("repeats has " + Twine(repeats->size()) +
                    " entries for rank " + Twine(rank));
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  // Broadcast to [r0, d0, r1, d1, ...], then merge each pair.
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> wideSizes, sizes;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    wideSizes.push_back((*repeats)[d]);
    wideSizes.push_back(inputSizes[d]);
    exprs.push_back(getAffineDimExpr(2 * d + 1, b.getContext()));
    sizes.push_back(IndexMath(b, loc).mul((*repeats)[d], inputSizes[d]));
  }
  Value empty = createEmpty(b, loc, wideSizes, type.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(2 * rank, 0, exprs, b.getContext()),
      AffineMap::getMultiDimIdentityMap(2 * rank, b.getContext())};
  SmallVector<utils::IteratorType> iterators(2 * rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), input, empty, maps, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  ctx.setOutput(0, reshape(b, loc, generic.getResult(0), sizes));
  return success();
}

LogicalResult convertPad(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  std::string mode = ctx.getString("mode", "constant");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  IndexMath math(b, loc);
  // Pads and axes are constants or read as the program runs.
  SmallVector<OpFoldResult> pads;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(1);
    if (failed(values))
      return failure();
    pads = std::move(*values);
  } else {
    for (int64_t pad : ctx.getInts("pads"))
      pads.push_back(math.constant(pad));
  }
  SmallVector<OpFoldResult> axes;
  for (int64_t d = 0; d < rank; ++d)
    axes.push_back(math.constant(d));
  if (ctx.hasInput(3)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(3);
    if (failed(values))
      return failure();
    axes = std::move(*values);
  }
  if (pads.size() != 2 * axes.size())
    return ctx.fail("pads has " + Twine(pads.size()) + " entries for " +
                    Twine(axes.size()) + " axes");
  // Dimension d takes the pads of the axes naming it (d or d - rank).
  SmallVector<OpFoldResult> low(rank, math.constant(0)),
      high(rank, math.constant(0));
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (std::optional<int64_t> known = getConstantIntValue(axis)) {
      FailureOr<int64_t> normalized = ctx.normalizeAxis(*known, rank);
      if (failed(normalized))
        return failure();
      low[*normalized] = pads[i];
      high[*normalized] = pads[i + axes.size()];
      continue;
    }
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult names = math.namesDimension(axis, d, rank);
      low[d] = math.add(low[d], math.mul(names, pads[i]));
      high[d] = math.add(high[d], math.mul(names, pads[i + axes.size()]));
    }
  }
  // Negative pads crop first.
  auto isNonNegative = [](OpFoldResult pad) {
    std::optional<int64_t> value = getConstantIntValue(pad);
    return value && *value >= 0;
  };
  if (!llvm::all_of(low, isNonNegative) || !llvm::all_of(high, isNonNegative)) {
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult cropLow =
          math.max(math.sub(math.constant(0), low[d]), math.constant(0));
      OpFoldResult cropHigh =
          math.max(math.sub(math.constant(0), high[d]), math.constant(0));
      offsets[d] = cropLow;
      sizes[d] = math.sub(sizes[d], math.add(cropLow, cropHigh));
      low[d] = math.max(low[d], math.constant(0));
      high[d] = math.max(high[d], math.constant(0));
    }
    input = createSlice(b, loc, input, offsets, sizes, strides);
  }
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      mode != "wrap")
    return ctx.fail("mode must be constant, reflect, edge or wrap, got '" +
                    mode + "'");
  bool staticPads =
      llvm::all_of(low, isNonNegative) && llvm::all_of(high, isNonNegative);
  // Padded by a value: tensor.pad where the pads are constants and the
  // value given, not computed; else the generic below (the host can pad
  // neither by pads read as the program runs nor by a computed value).
  Value padValue;
  if (mode == "constant") {
    if (ctx.hasInput(2))
      padValue = ctx.getInput(2);
    else
      padValue = createFilled(b, loc, {},
                              createScalar(b, loc, type.getElementType(), 0));
    bool givenValue = isa<BlockArgument>(padValue) ||
                      matchPattern(padValue, m_Constant()) ||
                      padValue.getDefiningOp<linalg::FillOp>();
    if (staticPads && givenValue) {
      ctx.setOutput(0, tensor::PadOp::create(b, loc, Type(), input, low, high,
                                             extractScalar(b, loc, padValue)));
      return success();
    }
    padValue = reshape(b, loc, padValue, {});
  }
  // Each element read from the place its mode maps it to.
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(math.add(inputSizes[d], math.add(low[d], high[d])));
  Value empty = createEmpty(b, loc, sizes, type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  if (padValue) {
    inputs.push_back(padValue);
    maps.push_back(AffineMap::get(rank, 0, {}, b.getContext()));
  }
  maps.push_back(identity);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), inputs, empty, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> indices;
        Value inside;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = linalg::IndexOp::create(nb, nl, d);
          Value size = index(nb, nl, inputSizes[d]);
          Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
          Value one = arith::ConstantIndexOp::create(nb, nl, 1);
          // Position in the input, before wrapping: i - low.
          Value position =
              arith::SubIOp::create(nb, nl, i, index(nb, nl, low[d]));
          Value last = arith::SubIOp::create(nb, nl, size, one);
          Value source;
          if (mode == "constant") {
            // Read at the nearest place; chosen where inside.
            Value fits = arith::AndIOp::create(
                nb, nl,
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge,
                                      position, zero),
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt,
                                      position, size));
            inside =
                inside ? arith::AndIOp::create(nb, nl, inside, fits).getResult()
                       : fits;
          }
          if (mode == "edge" || mode == "constant") {
            source = arith::MinSIOp::create(
                nb, nl, arith::MaxSIOp::create(nb, nl, position, zero), last);
          } else if (mode == "wrap") {
            Value remainder = arith::RemSIOp::create(nb, nl, position, size);
            Value negative = arith::CmpIOp::create(
                nb, nl, arith::CmpIPredicate::slt, remainder, zero);
            source = arith::SelectOp::create(
                nb, nl, negative,
                arith::AddIOp::create(nb, nl, remainder, size), remainder);
          } else {
            // Reflect without repeating the edge: period 2 * (size - 1).
            Value period = arith::MulIOp::create(
                nb, nl, last, arith::ConstantIndexOp::create(nb, nl, 2));
            period = arith::MaxSIOp::create(nb, nl, period, one);
            Value remainder = arith::RemSIOp::create(nb, nl, position, period);
            Value negative = arith::CmpIOp::create(
                nb, nl, arith::CmpIPredicate::slt, remainder, zero);
            remainder = arith::SelectOp::create(
                nb, nl, negative,
                arith::AddIOp::create(nb, nl, remainder, period), remainder);
            Value beyond = arith::CmpIOp::create(
                nb, nl, arith::CmpIPredicate::sgt, remainder, last);
            source = arith::SelectOp::create(
                nb, nl, beyond, arith::SubIOp::create(nb, nl, period, remainder),
                remainder);
            source = arith::MinSIOp::create(nb, nl, source, last);
          }
          indices.push_back(source);
        }
        Value element = tensor::ExtractOp::create(nb, nl, input, indices);
        if (inside)
          element = arith::SelectOp::create(nb, nl, inside, element, args[0]);
        linalg::YieldOp::create(nb, nl, element);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Made from indices
//===----------------------------------------------------------------------===//

/// Trilu, EyeLike and OneHot: each element from its indices.
using IndexBody = function_ref<Value(OpBuilder &, Location, ValueRange indices,
                                     ValueRange inputs)>;

Value buildFromIndices(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                       Type elementType, ValueRange inputs, IndexBody body) {
  int64_t rank = sizes.size();
  Value empty = createEmpty(b, loc, sizes, elementType);
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::getMultiDimIdentityMap(rank,
                                                                b.getContext()));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), inputs, empty, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(nb, nl, d));
        linalg::YieldOp::create(nb, nl,
                                body(nb, nl, indices, args.drop_back()));
      });
  return generic.getResult(0);
}

LogicalResult convertTrilu(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  bool upper = ctx.getInt("upper", 1);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value k = ctx.hasInput(1)
                ? convertScalar(b, loc, extractScalar(b, loc, ctx.getInput(1)),
                                b.getIndexType(), false, false)
                : arith::ConstantIndexOp::create(b, loc, 0).getResult();
  Type elementType = ctx.getInputType(0).getElementType();
  ctx.setOutput(
      0, buildFromIndices(
             b, loc, getSizes(b, loc, input), elementType, input,
             [&](OpBuilder &nb, Location nl, ValueRange indices,
                 ValueRange inputs) -> Value {
               Value row = indices[indices.size() - 2];
               Value column = indices.back();
               // Kept: column - row >= k (upper), <= k (lower).
               Value diagonal = arith::AddIOp::create(nb, nl, row, k);
               Value keep = arith::CmpIOp::create(
                   nb, nl,
                   upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
                   column, diagonal);
               Value zero = arith::ConstantOp::create(
                   nb, nl, nb.getZeroAttr(elementType));
               return arith::SelectOp::create(nb, nl, keep, inputs[0], zero);
             }));
  return success();
}

LogicalResult convertEyeLike(NodeContext &ctx) {
  int64_t k = ctx.getInt("k", 0);
  Type elementType = ctx.getOutputElementMLIRType(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  ctx.setOutput(
      0, buildFromIndices(
             b, loc, getSizes(b, loc, ctx.getInput(0)), elementType, {},
             [&](OpBuilder &nb, Location nl, ValueRange indices,
                 ValueRange) -> Value {
               Value diagonal = arith::AddIOp::create(
                   nb, nl, indices[0], arith::ConstantIndexOp::create(nb, nl, k));
               Value on = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::eq, indices[1], diagonal);
               return arith::SelectOp::create(
                   nb, nl, on, createScalar(nb, nl, elementType, 1),
                   createScalar(nb, nl, elementType, 0));
             }));
  return success();
}

LogicalResult convertOneHot(NodeContext &ctx) {
  Value indices = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank() + 1;
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value depth = convertScalar(b, loc, extractScalar(b, loc, ctx.getInput(1)),
                              b.getIndexType(), false, false);
  // values = [off, on]
  Value values = ctx.getInput(2);
  Value off = tensor::ExtractOp::create(
      b, loc, values, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  Value on = tensor::ExtractOp::create(
      b, loc, values, ValueRange{arith::ConstantIndexOp::create(b, loc, 1)});
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, indices);
  sizes.insert(sizes.begin() + *axis, depth);
  // The indices read at every position but the axis.
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      exprs.push_back(getAffineDimExpr(d, b.getContext()));
  Type elementType = ctx.getOutputElementMLIRType(0);
  Value empty = createEmpty(b, loc, sizes, elementType);
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, exprs, b.getContext()),
      AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  bool isUnsigned = ctx.isUnsignedInput(0);
  bool isFloatIndex = isa<FloatType>(ctx.getInputType(0).getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), indices, empty, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value position = args[0];
        if (isFloatIndex)
          position = convertScalar(nb, nl, position, nb.getI64Type(), false,
                                   false);
        Value wanted = normalizeIndex(nb, nl, position, depth, isUnsigned);
        Value here = linalg::IndexOp::create(nb, nl, *axis);
        Value hot =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, here, wanted);
        linalg::YieldOp::create(nb, nl,
                                arith::SelectOp::create(nb, nl, hot, on, off)
                                    .getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

/// DepthToSpace and SpaceToDepth: a reshape, a transpose and a reshape.
LogicalResult convertDepthToSpace(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t block = ctx.getInt("blocksize", 0);
  bool crd = ctx.getString("mode", "DCR") == "CRD";
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> s = getSizes(b, loc, input);
  if (s.size() != 4 || block <= 0)
    return ctx.fail("needs a 4-D input and a positive blocksize");
  OpFoldResult bs = b.getIndexAttr(block);
  std::optional<int64_t> channels = getConstantIntValue(s[1]);
  if (!channels)
    return ctx.fail("needs a static channel count");
  OpFoldResult c = b.getIndexAttr(*channels / (block * block));
  SmallVector<OpFoldResult> split =
      crd ? SmallVector<OpFoldResult>{s[0], c, bs, bs, s[2], s[3]}
          : SmallVector<OpFoldResult>{s[0], bs, bs, c, s[2], s[3]};
  SmallVector<int64_t> perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
                                  : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
  Value moved = transpose(b, loc, reshape(b, loc, input, split), perm);
  ctx.setOutput(0, reshape(b, loc, moved,
                           {s[0], c, IndexMath(b, loc).mul(s[2], bs),
                            IndexMath(b, loc).mul(s[3], bs)}));
  return success();
}

LogicalResult convertSpaceToDepth(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t block = ctx.getInt("blocksize", 0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> s = getSizes(b, loc, input);
  std::optional<int64_t> height = getConstantIntValue(s[2]);
  std::optional<int64_t> width = getConstantIntValue(s[3]);
  if (s.size() != 4 || block <= 0 || !height || !width)
    return ctx.fail("needs a 4-D input of static height and width and a "
                    "positive blocksize");
  OpFoldResult bs = b.getIndexAttr(block);
  OpFoldResult h = b.getIndexAttr(*height / block);
  OpFoldResult w = b.getIndexAttr(*width / block);
  bool crd = ctx.getString("mode", "DCR") == "CRD";
  Value split = reshape(b, loc, input, {s[0], s[1], h, bs, w, bs});
  Value moved = transpose(b, loc, split,
                          crd ? ArrayRef<int64_t>{0, 1, 3, 5, 2, 4}
                              : ArrayRef<int64_t>{0, 3, 5, 1, 2, 4});
  ctx.setOutput(
      0,
      reshape(b, loc, moved,
              {s[0], IndexMath(b, loc).mul(s[1], b.getIndexAttr(block * block)),
               h, w}));
  return success();
}

} // namespace

void registerTensorConverters(ConverterTable &table) {
  table["Constant"] = convertConstant;
  table["Shape"] = convertShape;
  table["Size"] = convertSize;
  table["ConstantOfShape"] = convertConstantOfShape;
  table["Range"] = convertRange;
  table["Reshape"] = convertReshape;
  table["Flatten"] = convertFlatten;
  table["Transpose"] = convertTranspose;
  table["Squeeze"] = convertSqueeze;
  table["Unsqueeze"] = convertUnsqueeze;
  table["Concat"] = convertConcat;
  table["Split"] = convertSplit;
  table["Slice"] = convertSlice;
  table["Gather"] = convertGather;
  table["GatherElements"] = convertGatherElements;
  table["Expand"] = convertExpand;
  table["Tile"] = convertTile;
  table["Pad"] = convertPad;
  table["Trilu"] = convertTrilu;
  table["EyeLike"] = convertEyeLike;
  table["OneHot"] = convertOneHot;
  table["DepthToSpace"] = convertDepthToSpace;
  table["SpaceToDepth"] = convertSpaceToDepth;
}

} // namespace mlir::kiln::onnx_import
