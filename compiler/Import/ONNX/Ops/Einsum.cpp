//===- Einsum.cpp - ONNX Einsum -------------------------------------------===//
//
// Einsum's equation gives every operand dimension a label (a letter, or one
// of the dimensions an ellipsis stands for); the op is then one
// linalg.generic with a loop per label: the output's parallel, the others
// summed, a label repeated within an operand reading its diagonal and a
// size of 1 broadcast. Three or more operands contract pairwise, left to
// right, where that takes fewer multiplications. Floats narrower than f32
// accumulate in f32 and round once, as the reference does for bf16.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace mlir::kiln::onnx_import {

namespace {

/// Letters label themselves; dimension i of the broadcast the ellipses
/// stand for (counted from the left, as numpy aligns them on the right) is
/// kEllipsis + i.
constexpr int kEllipsis = 256;

std::string describeLabel(int label) {
  if (label >= kEllipsis)
    return "ellipsis dimension " + std::to_string(label - kEllipsis);
  return "'" + std::string(1, char(label)) + "'";
}

/// One term of the equation: its letters before and after an ellipsis.
struct Term {
  std::string head, tail;
  bool ellipsis = false;
};

FailureOr<Term> parseTerm(NodeContext &ctx, StringRef text) {
  Term term;
  size_t dots = text.find("...");
  term.ellipsis = dots != StringRef::npos;
  term.head = text.take_front(dots).str();
  if (term.ellipsis)
    term.tail = text.drop_front(dots + 3).str();
  for (char c : term.head + term.tail)
    if (!llvm::isAlpha(c))
      return ctx.fail("the equation's term '" + text + "' has '" + Twine(c) +
                      "', which is neither a letter nor one "
                      "ellipsis");
  return term;
}

/// The labels of each operand's dimensions and of the output's.
struct Equation {
  SmallVector<SmallVector<int>> inputs;
  SmallVector<int> output;
};

FailureOr<Equation> parseEquation(NodeContext &ctx) {
  std::string text = ctx.getString("equation", "");
  llvm::erase(text, ' ');
  StringRef equation(text);
  StringRef lhs = equation, rhs;
  size_t arrow = equation.find("->");
  bool explicitOutput = arrow != StringRef::npos;
  if (explicitOutput) {
    lhs = equation.take_front(arrow);
    rhs = equation.drop_front(arrow + 2);
  }
  SmallVector<StringRef> texts;
  lhs.split(texts, ',');
  if (texts.size() != ctx.getNumInputs())
    return ctx.fail("the equation has " + Twine(texts.size()) + " terms for " +
                    Twine(ctx.getNumInputs()) + " operands");
  SmallVector<Term> terms;
  SmallVector<int64_t> ellipsisDims;
  int64_t broadcastDims = 0;
  for (auto [i, termText] : llvm::enumerate(texts)) {
    FailureOr<Term> term = parseTerm(ctx, termText);
    if (failed(term))
      return failure();
    int64_t rank = ctx.getInputType(i).getRank();
    int64_t letters = term->head.size() + term->tail.size();
    if (term->ellipsis ? rank < letters : rank != letters)
      return ctx.fail("operand " + Twine(i) + " has rank " + Twine(rank) +
                      " but its term '" + termText + "' names " +
                      Twine(letters) + " dimensions");
    ellipsisDims.push_back(rank - letters);
    broadcastDims = std::max(broadcastDims, rank - letters);
    terms.push_back(std::move(*term));
  }

  Equation result;
  std::map<char, int> counts;
  for (auto [term, dims] : llvm::zip(terms, ellipsisDims)) {
    SmallVector<int> &labels = result.inputs.emplace_back();
    for (char c : term.head)
      labels.push_back(c);
    for (int64_t j = 0; j < dims; ++j)
      labels.push_back(kEllipsis + broadcastDims - dims + j);
    for (char c : term.tail)
      labels.push_back(c);
    for (char c : term.head + term.tail)
      ++counts[c];
  }
  if (!explicitOutput) {
    // The broadcast dimensions, then the letters seen once, in ASCII order
    // (upper case first).
    for (int64_t j = 0; j < broadcastDims; ++j)
      result.output.push_back(kEllipsis + j);
    for (auto [c, count] : counts)
      if (count == 1)
        result.output.push_back(c);
    return result;
  }
  FailureOr<Term> output = parseTerm(ctx, rhs);
  if (failed(output))
    return failure();
  if (!output->ellipsis && broadcastDims > 0)
    return ctx.fail("the output has no ellipsis for the " +
                    Twine(broadcastDims) +
                    " dimensions the operands' ellipses stand for");
  for (char c : output->head)
    result.output.push_back(c);
  for (int64_t j = 0; j < broadcastDims; ++j)
    result.output.push_back(kEllipsis + j);
  for (char c : output->tail)
    result.output.push_back(c);
  for (char c : output->head + output->tail) {
    if (!counts.count(c))
      return ctx.fail("the output's label '" + Twine(c) + "' is no operand's");
    if (llvm::count(result.output, int(c)) > 1)
      return ctx.fail("the output repeats label '" + Twine(c) + "'");
  }
  return result;
}

/// The labels of `labels` (operands' or the output's), each once, in the
/// order they first appear.
SmallVector<int> getUniqueLabels(ArrayRef<SmallVector<int>> labels) {
  SmallVector<int> unique;
  for (ArrayRef<int> operand : labels)
    for (int label : operand)
      if (!llvm::is_contained(unique, label))
        unique.push_back(label);
  return unique;
}

/// One linalg.generic: out[outputLabels] = sum of the product of
/// operands[i][labels[i]] over the labels not in the output, in the
/// operands' element type.
FailureOr<Value> buildContraction(NodeContext &ctx, ArrayRef<Value> operands,
                                  ArrayRef<SmallVector<int>> labels,
                                  ArrayRef<int> outputLabels) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  MLIRContext *context = b.getContext();
  Type type = cast<RankedTensorType>(operands[0].getType()).getElementType();
  // Loops: the output's labels, then the summed ones.
  SmallVector<int> loops(outputLabels);
  for (int label : getUniqueLabels(labels))
    if (!llvm::is_contained(loops, label))
      loops.push_back(label);
  int64_t numLoops = loops.size();
  auto loopOf = [&](int label) {
    return llvm::find(loops, label) - loops.begin();
  };
  // A loop's size: a static size other than 1 where some operand has one,
  // else one known at run time (taken to match the others), else 1.
  SmallVector<int64_t> loopSizes(numLoops, 1);
  SmallVector<OpFoldResult> loopValues(numLoops, b.getIndexAttr(1));
  for (auto [operand, operandLabels] : llvm::zip(operands, labels)) {
    auto operandType = cast<RankedTensorType>(operand.getType());
    for (auto [dim, label] : llvm::enumerate(operandLabels)) {
      int64_t size = operandType.getDimSize(dim);
      int64_t &known = loopSizes[loopOf(label)];
      OpFoldResult &value = loopValues[loopOf(label)];
      if (ShapedType::isDynamic(size)) {
        if (known == 1) {
          known = ShapedType::kDynamic;
          value = getSizes(b, loc, operand)[dim];
        }
        continue;
      }
      if (size == 1 || size == known)
        continue;
      if (known != 1 && !ShapedType::isDynamic(known))
        return ctx.fail("label " + describeLabel(label) + " has sizes " +
                        Twine(known) + " and " + Twine(size));
      known = size;
      value = b.getIndexAttr(size);
    }
  }
  SmallVector<AffineMap> maps;
  for (auto [operand, operandLabels] : llvm::zip(operands, labels)) {
    auto operandType = cast<RankedTensorType>(operand.getType());
    SmallVector<AffineExpr> exprs;
    for (auto [dim, label] : llvm::enumerate(operandLabels)) {
      int64_t size = operandType.getDimSize(dim);
      // A diagonal's dimensions agree; they do not broadcast.
      for (auto [other, otherLabel] : llvm::enumerate(operandLabels)) {
        int64_t otherSize = operandType.getDimSize(other);
        if (otherLabel == label && !ShapedType::isDynamic(size) &&
            !ShapedType::isDynamic(otherSize) && otherSize != size)
          return ctx.fail("label " + describeLabel(label) +
                          " repeats within an operand with sizes " +
                          Twine(size) + " and " + Twine(otherSize));
      }
      int64_t loop = loopOf(label);
      // A size of 1 broadcast to a loop of another size.
      if (size == 1 && loopSizes[loop] != 1)
        exprs.push_back(getAffineConstantExpr(0, context));
      else
        exprs.push_back(getAffineDimExpr(loop, context));
    }
    maps.push_back(AffineMap::get(numLoops, 0, exprs, context));
  }
  SmallVector<AffineExpr> outputExprs;
  for (size_t loop = 0; loop < outputLabels.size(); ++loop)
    outputExprs.push_back(getAffineDimExpr(loop, context));
  maps.push_back(AffineMap::get(numLoops, 0, outputExprs, context));
  SmallVector<utils::IteratorType> iterators(outputLabels.size(),
                                             utils::IteratorType::parallel);
  iterators.append(numLoops - outputLabels.size(),
                   utils::IteratorType::reduction);
  bool reduces = numLoops > static_cast<int64_t>(outputLabels.size());
  ArrayRef<OpFoldResult> outputSizes =
      ArrayRef(loopValues).take_front(outputLabels.size());
  Value init =
      reduces ? createFilled(b, loc, outputSizes, createScalar(b, loc, type, 0))
              : createEmpty(b, loc, outputSizes, type);
  bool fp = isa<FloatType>(type);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), operands, init, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value value = args[0];
        for (Value arg : args.drop_front().drop_back())
          value = fp ? arith::MulFOp::create(nb, nl, value, arg).getResult()
                     : arith::MulIOp::create(nb, nl, value, arg).getResult();
        if (reduces)
          value =
              fp ? arith::AddFOp::create(nb, nl, value, args.back()).getResult()
                 : arith::AddIOp::create(nb, nl, value, args.back())
                       .getResult();
        linalg::YieldOp::create(nb, nl, value);
      });
  return generic.getResult(0);
}

/// The multiplications of one generic over `labels`, sizes known at run
/// time counted as 64.
double countProducts(ArrayRef<SmallVector<int>> labels,
                     const llvm::DenseMap<int, int64_t> &sizes) {
  double count = 1;
  for (int label : getUniqueLabels(labels)) {
    int64_t size = sizes.lookup(label);
    count *= ShapedType::isDynamic(size) ? 64 : size;
  }
  return count;
}

LogicalResult convertEinsum(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  FailureOr<Equation> equation = parseEquation(ctx);
  if (failed(equation))
    return failure();
  if (ctx.getNumInputs() == 0)
    return ctx.fail("needs an operand");
  SmallVector<Value> operands;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    operands.push_back(ctx.getInput(i));
  Type elementType = ctx.getOutputElementMLIRType(0);

  // A permutation of one operand's dimensions is a transpose (of a
  // constant, while importing).
  ArrayRef<int> output = equation->output;
  if (operands.size() == 1) {
    ArrayRef<int> labels = equation->inputs[0];
    if (labels.size() == output.size() &&
        getUniqueLabels(equation->inputs).size() == labels.size() &&
        llvm::all_of(output, [&](int label) {
          return llvm::is_contained(labels, label);
        })) {
      SmallVector<int64_t> permutation;
      for (int label : output)
        permutation.push_back(llvm::find(labels, label) - labels.begin());
      ctx.setOutput(0, transpose(b, loc, operands[0], permutation));
      return success();
    }
  }

  // Floats narrower than f32 (f16, bf16, 8-bit ones) sum in f32, rounded
  // once at the end.
  Type computeType = elementType;
  if (isa<FloatType>(elementType) && elementType.getIntOrFloatBitWidth() < 32)
    computeType = b.getF32Type();
  if (computeType != elementType)
    for (Value &operand : operands)
      operand = convertElements(b, loc, operand, computeType, false, false);

  // Left to right, each step keeping the labels later operands or the
  // output read, where that multiplies less than one generic over all.
  llvm::DenseMap<int, int64_t> sizes;
  for (auto [operand, labels] : llvm::zip(operands, equation->inputs))
    for (auto [dim, label] : llvm::enumerate(labels)) {
      int64_t size = cast<RankedTensorType>(operand.getType()).getDimSize(dim);
      auto it = sizes.try_emplace(label, size).first;
      if (it->second == 1 || ShapedType::isDynamic(it->second))
        it->second = size;
    }
  SmallVector<SmallVector<int>> kept;
  double pairwise = 0;
  SmallVector<int> accumulated = equation->inputs[0];
  for (size_t i = 1; i < operands.size(); ++i) {
    SmallVector<SmallVector<int>> pair = {accumulated, equation->inputs[i]};
    pairwise += countProducts(pair, sizes);
    SmallVector<int> &step = kept.emplace_back();
    ArrayRef<SmallVector<int>> later =
        ArrayRef(equation->inputs).drop_front(i + 1);
    if (later.empty())
      step.assign(output.begin(), output.end());
    else
      for (int label : getUniqueLabels(pair))
        if (llvm::is_contained(output, label) ||
            llvm::any_of(later, [&](ArrayRef<int> labels) {
              return llvm::is_contained(labels, label);
            }))
          step.push_back(label);
    accumulated = step;
  }
  FailureOr<Value> result;
  if (operands.size() > 2 &&
      pairwise < countProducts(equation->inputs, sizes)) {
    result = operands[0];
    ArrayRef<int> labels = equation->inputs[0];
    for (size_t i = 1; i < operands.size() && succeeded(result); ++i) {
      SmallVector<SmallVector<int>> pair = {SmallVector<int>(labels),
                                            equation->inputs[i]};
      result = buildContraction(ctx, {*result, operands[i]}, pair, kept[i - 1]);
      labels = kept[i - 1];
    }
  } else {
    result = buildContraction(ctx, operands, equation->inputs, output);
  }
  if (failed(result))
    return failure();
  Value value = *result;
  if (computeType != elementType)
    value = convertElements(b, loc, value, elementType, false, false);

  // Sizes shape inference would disagree with are refused, not cast.
  RankedTensorType inferred = ctx.getOutputType(0);
  auto type = cast<RankedTensorType>(value.getType());
  if (inferred && inferred.getRank() == type.getRank())
    for (auto [have, want] : llvm::zip(type.getShape(), inferred.getShape()))
      if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
          have != want)
        return ctx.fail("computes an output dimension of " + Twine(have) +
                        " where ONNX's shape inference says " + Twine(want));
  ctx.setOutput(0, value);
  return success();
}

} // namespace

void registerEinsumConverters(ConverterTable &table) {
  table["Einsum"] = convertEinsum;
}

} // namespace mlir::kiln::onnx_import
