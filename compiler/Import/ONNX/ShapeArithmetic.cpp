//===- ShapeArithmetic.cpp - shape tensors as index values ----------------===//

#include "Import/ONNX/ShapeArithmetic.h"

#include "Import/ONNX/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <functional>

namespace mlir::kiln::onnx_import {

namespace {

/// Elements of a binary op, the one-element side broadcast.
std::optional<ShapeElements>
mapBinary(const ShapeElements &lhs, const ShapeElements &rhs,
          function_ref<OpFoldResult(OpFoldResult, OpFoldResult)> fn) {
  size_t count = std::max(lhs.size(), rhs.size());
  if ((lhs.size() != count && lhs.size() != 1) ||
      (rhs.size() != count && rhs.size() != 1))
    return std::nullopt;
  ShapeElements result;
  for (size_t i = 0; i < count; ++i)
    result.push_back(fn(lhs[lhs.size() == 1 ? 0 : i],
                        rhs[rhs.size() == 1 ? 0 : i]));
  return result;
}

/// Whether a tensor of `type` can be kept as index values (a 1-D one of a
/// length inference could not tell too: evaluating tells it).
bool isShapeTensor(RankedTensorType type) {
  if (!type || type.getRank() > 1 ||
      (type.hasStaticShape() && type.getNumElements() > kMaxShapeElements))
    return false;
  auto integer = dyn_cast<IntegerType>(type.getElementType());
  return integer != nullptr;
}

/// The values of a constant axes-like list: every element static.
std::optional<SmallVector<int64_t>> getStatic(const ShapeElements &elements) {
  SmallVector<int64_t> values;
  for (OpFoldResult element : elements) {
    std::optional<int64_t> value = getConstantIntValue(element);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

} // namespace

std::optional<SmallVector<ShapeElements>>
evaluateShapeNode(NodeContext &ctx,
                  ArrayRef<std::optional<ShapeElements>> inputs) {
  const onnx::NodeProto &node = ctx.node;
  if (node.output_size() != 1 || !ctx.hasOutput(0))
    return std::nullopt;
  RankedTensorType outputType = ctx.getOutputType(0);
  if (!isShapeTensor(outputType))
    return std::nullopt;
  // -1: a length inference could not tell.
  int64_t outputCount =
      outputType.hasStaticShape() ? outputType.getNumElements() : -1;
  StringRef op = node.op_type();
  IndexMath math(ctx.builder, ctx.loc);
  auto known = [&](unsigned i) -> const ShapeElements * {
    if (i >= inputs.size() || !inputs[i])
      return nullptr;
    return &*inputs[i];
  };
  auto finish = [&](ShapeElements elements)
      -> std::optional<SmallVector<ShapeElements>> {
    if ((outputCount >= 0 &&
         static_cast<int64_t>(elements.size()) != outputCount) ||
        static_cast<int64_t>(elements.size()) > kMaxShapeElements)
      return std::nullopt;
    // Narrower integers wrap as the tensor op would; only exact values
    // are kept.
    if (!outputType.getElementType().isInteger(64))
      for (OpFoldResult element : elements)
        if (!getConstantIntValue(element))
          if (!outputType.getElementType().isInteger(32))
            return std::nullopt;
    return SmallVector<ShapeElements>{std::move(elements)};
  };

  // Sizes of a tensor of any kind.
  if (op == "Shape" || op == "Size") {
    SmallVector<OpFoldResult> sizes = ctx.getInferredInputSizes(0);
    if (op == "Size") {
      OpFoldResult count = math.constant(1);
      for (OpFoldResult size : sizes)
        count = math.mul(count, size);
      return finish({count});
    }
    int64_t rank = sizes.size();
    auto clampIndex = [&](int64_t i) {
      return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank);
    };
    int64_t start = clampIndex(ctx.getInt("start", 0));
    int64_t end = clampIndex(ctx.getInt("end", rank));
    return finish(ShapeElements(sizes.begin() + start,
                                sizes.begin() + std::max(start, end)));
  }

  // Every other op reads index values only.
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    if (ctx.hasInput(i) && !known(i))
      return std::nullopt;
  const ShapeElements *x = known(0);
  if (!x)
    return std::nullopt;

  if (op == "Identity" || op == "Unsqueeze" || op == "Squeeze" ||
      op == "Reshape" || op == "Flatten")
    return finish(*x);
  if (op == "Cast" || op == "CastLike") {
    if (isa<FloatType>(ctx.getInferredInputType(0).getElementType()))
      return std::nullopt;
    if (outputType.getElementType().isInteger(1)) {
      ShapeElements result;
      for (OpFoldResult element : *x)
        result.push_back(math.compare(arith::CmpIPredicate::ne, element,
                                      math.constant(0)));
      return finish(result);
    }
    return finish(*x);
  }
  if (op == "Neg" || op == "Abs" || op == "Not") {
    ShapeElements result;
    for (OpFoldResult element : *x) {
      if (op == "Neg")
        result.push_back(math.sub(math.constant(0), element));
      else if (op == "Abs")
        result.push_back(math.max(element, math.sub(math.constant(0), element)));
      else
        result.push_back(math.sub(math.constant(1), element));
    }
    return finish(result);
  }
  if (op == "Concat") {
    ShapeElements result;
    for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
      if (const ShapeElements *part = known(i))
        llvm::append_range(result, *part);
    return finish(result);
  }
  if (op == "Gather") {
    const ShapeElements *indices = known(1);
    std::optional<SmallVector<int64_t>> positions = getStatic(*indices);
    if (!positions)
      return std::nullopt;
    ShapeElements result;
    for (int64_t position : *positions) {
      if (position < 0)
        position += x->size();
      if (position < 0 || position >= static_cast<int64_t>(x->size()))
        return std::nullopt;
      result.push_back((*x)[position]);
    }
    return finish(result);
  }
  if (op == "Slice") {
    std::optional<SmallVector<int64_t>> starts = getStatic(*known(1));
    std::optional<SmallVector<int64_t>> ends = getStatic(*known(2));
    std::optional<SmallVector<int64_t>> steps =
        known(4) ? getStatic(*known(4)) : SmallVector<int64_t>{1};
    if (!starts || !ends || !steps || starts->size() != 1 ||
        ends->size() != 1 || steps->size() != 1 || (*steps)[0] == 0)
      return std::nullopt;
    int64_t size = x->size(), step = (*steps)[0];
    auto clamp = [&](int64_t v, int64_t low, int64_t high) {
      return std::clamp<int64_t>(v < 0 ? v + size : v, low, high);
    };
    int64_t start = step > 0 ? clamp((*starts)[0], 0, size)
                             : clamp((*starts)[0], 0, size - 1);
    int64_t end = step > 0 ? clamp((*ends)[0], 0, size)
                           : clamp((*ends)[0], -1, size - 1);
    ShapeElements result;
    for (int64_t i = start; step > 0 ? i < end : i > end; i += step)
      result.push_back((*x)[i]);
    return finish(result);
  }
  if (op == "Expand" || op == "ConstantOfShape") {
    // A value repeated to the output's length.
    OpFoldResult value;
    if (op == "ConstantOfShape") {
      FailureOr<DenseElementsAttr> attr =
          ctx.hasAttribute("value")
              ? ctx.getTensorAttribute("value")
              : FailureOr<DenseElementsAttr>(DenseElementsAttr());
      if (failed(attr))
        return std::nullopt;
      int64_t fill = 0;
      if (*attr) {
        if (!isa<IntegerType>(attr->getElementType()))
          return std::nullopt;
        fill = (*attr->value_begin<APInt>()).getSExtValue();
      }
      value = math.constant(fill);
    } else {
      if (x->size() != 1)
        return std::nullopt;
      value = (*x)[0];
    }
    // The length: the output's, else what the shape input says.
    int64_t count = outputCount;
    const ShapeElements *shape = op == "Expand" ? known(1) : x;
    if (count < 0 && shape && shape->size() == 1)
      if (std::optional<int64_t> length = getConstantIntValue((*shape)[0]))
        count = op == "Expand" ? std::max<int64_t>(*length, x->size())
                               : *length;
    if (count < 0 || count > kMaxShapeElements)
      return std::nullopt;
    return finish(ShapeElements(count, value));
  }
  if (op == "Range") {
    std::optional<SmallVector<int64_t>> start = getStatic(*known(0));
    std::optional<SmallVector<int64_t>> delta = getStatic(*known(2));
    if (!start || !delta || (*delta)[0] == 0)
      return std::nullopt;
    int64_t count = outputCount;
    if (count < 0) {
      std::optional<SmallVector<int64_t>> limit = getStatic(*known(1));
      if (!limit)
        return std::nullopt;
      int64_t span = (*limit)[0] - (*start)[0], step = (*delta)[0];
      count = std::max<int64_t>(
          step > 0 ? (span + step - 1) / step : (span + step + 1) / step, 0);
    }
    ShapeElements result;
    for (int64_t i = 0; i < count && i <= kMaxShapeElements; ++i)
      result.push_back(math.constant((*start)[0] + i * (*delta)[0]));
    return finish(result);
  }
  if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMax" ||
      op == "ReduceMin") {
    // Over the one dimension of a 1-D shape.
    if (ctx.getInferredInputType(0).getRank() != 1 || x->empty())
      return std::nullopt;
    OpFoldResult result = (*x)[0];
    for (OpFoldResult element : ArrayRef(*x).drop_front()) {
      if (op == "ReduceProd")
        result = math.mul(result, element);
      else if (op == "ReduceSum")
        result = math.add(result, element);
      else if (op == "ReduceMax")
        result = math.max(result, element);
      else
        result = math.min(result, element);
    }
    return finish({result});
  }
  if (op == "Where") {
    const ShapeElements *lhs = known(1), *rhs = known(2);
    size_t count = std::max({x->size(), lhs->size(), rhs->size()});
    ShapeElements result;
    for (size_t i = 0; i < count; ++i) {
      auto at = [&](const ShapeElements &v) { return v[v.size() == 1 ? 0 : i]; };
      if ((x->size() != count && x->size() != 1) ||
          (lhs->size() != count && lhs->size() != 1) ||
          (rhs->size() != count && rhs->size() != 1))
        return std::nullopt;
      result.push_back(math.select(at(*x), at(*lhs), at(*rhs)));
    }
    return finish(result);
  }
  // Binary and variadic ops.
  std::function<OpFoldResult(OpFoldResult, OpFoldResult)> fn;
  if (op == "Add" || op == "Sum")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.add(a, b); };
  else if (op == "Sub")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.sub(a, b); };
  else if (op == "Mul")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.mul(a, b); };
  else if (op == "Div")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.div(a, b); };
  else if (op == "Mod" && !ctx.getInt("fmod", 0))
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.mod(a, b); };
  else if (op == "Max")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.max(a, b); };
  else if (op == "Min")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.min(a, b); };
  else if (op == "Equal")
    fn = [&](OpFoldResult a, OpFoldResult b) {
      return math.compare(arith::CmpIPredicate::eq, a, b);
    };
  else if (op == "Less")
    fn = [&](OpFoldResult a, OpFoldResult b) {
      return math.compare(arith::CmpIPredicate::slt, a, b);
    };
  else if (op == "LessOrEqual")
    fn = [&](OpFoldResult a, OpFoldResult b) {
      return math.compare(arith::CmpIPredicate::sle, a, b);
    };
  else if (op == "Greater")
    fn = [&](OpFoldResult a, OpFoldResult b) {
      return math.compare(arith::CmpIPredicate::sgt, a, b);
    };
  else if (op == "GreaterOrEqual")
    fn = [&](OpFoldResult a, OpFoldResult b) {
      return math.compare(arith::CmpIPredicate::sge, a, b);
    };
  else if (op == "And")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.mul(a, b); };
  else if (op == "Or")
    fn = [&](OpFoldResult a, OpFoldResult b) { return math.max(a, b); };
  else
    return std::nullopt;
  // Unsigned operands compare and divide otherwise.
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    if (ctx.hasInput(i) && ctx.isUnsignedInferredInput(i) &&
        !ctx.getInferredInputType(i).getElementType().isInteger(1))
      return std::nullopt;
  std::optional<ShapeElements> result = *x;
  for (unsigned i = 1; i < ctx.getNumInputs() && result; ++i)
    if (const ShapeElements *next = known(i))
      result = mapBinary(*result, *next, fn);
  if (!result)
    return std::nullopt;
  return finish(*result);
}

} // namespace mlir::kiln::onnx_import
