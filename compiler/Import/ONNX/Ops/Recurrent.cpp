//===- Recurrent.cpp - ONNX's LSTM, GRU and RNN ----------------------------===//
//
// The recurrences unrolled over their time steps, which must be known when
// importing. For each direction the input's projection of every step is one
// linalg.matmul ([steps * batch, input] x [input, gates]); each step then
// multiplies the previous hidden state by the recurrence weights (a
// [batch, hidden] x [hidden, gates] linalg.matmul) and computes its gates
// and new states in linalg.generic ops over [batch, hidden]. The steps'
// states are assembled into Y, Y_h and Y_c with tensor.insert_slice.
// sequence_lens, constant or not, masks the steps past each sequence's end
// as ONNX Runtime does: the states stay and Y holds zeros there.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

namespace {

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

enum class ActivationKind {
  Relu,
  Tanh,
  Sigmoid,
  Affine,
  LeakyRelu,
  ThresholdedRelu,
  ScaledTanh,
  HardSigmoid,
  Elu,
  Softsign,
  Softplus,
};

struct Activation {
  ActivationKind kind;
  double alpha = 0;
  double beta = 0;
};

/// An activation the recurrences name (case-insensitively), whether it
/// takes an alpha and a beta, and their defaults (those of the ONNX ops of
/// the same names).
struct ActivationInfo {
  StringLiteral name;
  ActivationKind kind;
  bool takesAlpha;
  bool takesBeta;
  double alpha;
  double beta;
};

const ActivationInfo kActivations[] = {
    {"relu", ActivationKind::Relu, false, false, 0, 0},
    {"tanh", ActivationKind::Tanh, false, false, 0, 0},
    {"sigmoid", ActivationKind::Sigmoid, false, false, 0, 0},
    {"affine", ActivationKind::Affine, true, true, 1.0, 0},
    {"leakyrelu", ActivationKind::LeakyRelu, true, false, 0.01, 0},
    {"thresholdedrelu", ActivationKind::ThresholdedRelu, true, false, 1.0, 0},
    {"scaledtanh", ActivationKind::ScaledTanh, true, true, 1.0, 1.0},
    {"hardsigmoid", ActivationKind::HardSigmoid, true, true, 0.2, 0.5},
    {"elu", ActivationKind::Elu, true, false, 1.0, 0},
    {"softsign", ActivationKind::Softsign, false, false, 0, 0},
    {"softplus", ActivationKind::Softplus, false, false, 0, 0},
};

/// The activations of every direction, `defaults.size()` of them each (f,
/// g, h in the spec's order), forward first. activation_alpha and
/// activation_beta are consumed in order by the functions that take them,
/// as ONNX Runtime reads them; one set of functions for a bidirectional
/// node serves both directions.
FailureOr<SmallVector<Activation>> getActivations(NodeContext &ctx,
                                                  ArrayRef<StringRef> defaults,
                                                  int64_t numDirections) {
  SmallVector<std::string> names;
  if (const onnx::AttributeProto *attribute = ctx.getAttribute("activations"))
    names.assign(attribute->strings().begin(), attribute->strings().end());
  if (names.empty())
    for (int64_t d = 0; d < numDirections; ++d)
      for (StringRef name : defaults)
        names.push_back(name.str());
  SmallVector<float> alphas = ctx.getFloats("activation_alpha");
  SmallVector<float> betas = ctx.getFloats("activation_beta");
  unsigned nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> parsed;
  for (const std::string &name : names) {
    const ActivationInfo *info =
        llvm::find_if(kActivations, [&](const ActivationInfo &candidate) {
          return StringRef(name).equals_insensitive(candidate.name);
        });
    if (info == std::end(kActivations))
      return ctx.fail("unknown activation function '" + name + "'");
    Activation activation{info->kind, info->alpha, info->beta};
    if (info->takesAlpha && nextAlpha < alphas.size())
      activation.alpha = alphas[nextAlpha++];
    if (info->takesBeta && nextBeta < betas.size())
      activation.beta = betas[nextBeta++];
    parsed.push_back(activation);
  }
  size_t perDirection = defaults.size();
  size_t wanted = perDirection * numDirections;
  if (parsed.size() == perDirection && numDirections == 2)
    parsed.append(SmallVector<Activation>(parsed));
  // RNN's schema default lists two functions even for one direction.
  if (parsed.size() < wanted)
    return ctx.fail("activations lists " + Twine(parsed.size()) +
                    " functions; " + Twine(wanted) + " are needed");
  parsed.resize(wanted);
  return parsed;
}

Value applyActivation(OpBuilder &b, Location loc, const Activation &fn,
                      Value x) {
  auto constant = [&](double value) { return createScalarLike(b, loc, x, value); };
  auto atLeast = [&](double bound) -> Value {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                 constant(bound));
  };
  auto scaled = [&](Value value, double factor) -> Value {
    return arith::MulFOp::create(b, loc, value, constant(factor));
  };
  // Each op built in its own statement: the order of a call's arguments is
  // unspecified, and the printed program should not depend on the compiler.
  switch (fn.kind) {
  case ActivationKind::Relu:
    return arith::MaximumFOp::create(b, loc, x, constant(0));
  case ActivationKind::Tanh:
    return math::TanhOp::create(b, loc, x);
  case ActivationKind::Sigmoid:
    return buildSigmoid(b, loc, x);
  case ActivationKind::Affine: {
    Value product = scaled(x, fn.alpha);
    return arith::AddFOp::create(b, loc, product, constant(fn.beta));
  }
  case ActivationKind::LeakyRelu: {
    Value positive = atLeast(0);
    Value product = scaled(x, fn.alpha);
    return arith::SelectOp::create(b, loc, positive, x, product);
  }
  case ActivationKind::ThresholdedRelu: {
    Value above = atLeast(fn.alpha);
    return arith::SelectOp::create(b, loc, above, x, constant(0));
  }
  case ActivationKind::ScaledTanh:
    return scaled(math::TanhOp::create(b, loc, scaled(x, fn.beta)), fn.alpha);
  case ActivationKind::HardSigmoid: {
    Value product = scaled(x, fn.alpha);
    Value linear = arith::AddFOp::create(b, loc, product, constant(fn.beta));
    Value low = arith::MaximumFOp::create(b, loc, linear, constant(0));
    return arith::MinimumFOp::create(b, loc, low, constant(1));
  }
  case ActivationKind::Elu: {
    Value exp = math::ExpOp::create(b, loc, x);
    Value expm1 = arith::SubFOp::create(b, loc, exp, constant(1));
    Value positive = atLeast(0);
    Value negative = scaled(expm1, fn.alpha);
    return arith::SelectOp::create(b, loc, positive, x, negative);
  }
  case ActivationKind::Softsign: {
    Value one = constant(1);
    Value denominator =
        arith::AddFOp::create(b, loc, one, math::AbsFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, x, denominator);
  }
  case ActivationKind::Softplus:
    return math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
  }
  llvm_unreachable("unknown activation");
}

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

/// The slice of `source` at `offsets` of `sizes` (unit strides), without
/// its dimensions `dropped` (each of size 1).
Value extractSlice(OpBuilder &b, Location loc, Value source,
                   ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                   ArrayRef<int64_t> dropped = {}) {
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (!llvm::is_contained(dropped, static_cast<int64_t>(i)))
      shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(source.getType()).getElementType());
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, type, source, offsets, sizes,
                                        strides);
}

//===----------------------------------------------------------------------===//
// The recurrences
//===----------------------------------------------------------------------===//

enum class CellKind { RNN, GRU, LSTM };

/// The operands of one step's elementwise op, read back by position.
struct Operands {
  SmallVector<Value> values;
  unsigned add(Value value) {
    values.push_back(value);
    return values.size() - 1;
  }
  std::optional<unsigned> addIfGiven(Value value) {
    if (!value)
      return std::nullopt;
    return add(value);
  }
};

/// Where one gate's terms are among a step's operands: the input's and the
/// hidden state's projections and, if given, the two biases.
struct GateTerms {
  unsigned input;
  unsigned hidden;
  std::optional<unsigned> inputBias;
  std::optional<unsigned> hiddenBias;
};

/// What one direction of a node works on, sliced from the node's inputs.
struct Direction {
  /// The input's projection for every step: [steps, batch, gates * hidden]
  /// ([batch, steps, ...] when batch-major), without biases.
  Value projection;
  /// R transposed: [hidden, gates * hidden].
  Value recurrence;
  /// GRU's without linear_before_reset, split: z and r's columns, h's.
  Value recurrenceZR, recurrenceH;
  /// Each gate's W and R biases ([hidden]), or null.
  SmallVector<Value> inputBias, hiddenBias;
  /// LSTM's peepholes for i, o, f ([hidden]), or null.
  SmallVector<Value> peepholes;
  /// Activations f, g (, h).
  SmallVector<Activation> activations;
};

class RecurrenceBuilder {
public:
  RecurrenceBuilder(NodeContext &ctx, CellKind kind)
      : ctx(ctx), b(ctx.builder), loc(ctx.loc), kind(kind) {}

  LogicalResult convert();

private:
  NodeContext &ctx;
  OpBuilder &b;
  Location loc;
  CellKind kind;
  int64_t gates = 0;
  int64_t hidden = 0;
  int64_t steps = 0;
  int64_t numDirections = 1;
  bool batchMajor = false;
  std::optional<double> clip;
  bool linearBeforeReset = false;
  bool inputForget = false;
  Type elementType;
  OpFoldResult batch;
  /// sequence_lens as [batch, 1], or null where every sequence is whole.
  Value lengths;
  /// W and R transposed: [directions, input or hidden, gates * hidden].
  Value wT, rT;

  OpFoldResult index(int64_t value) { return b.getIndexAttr(value); }

  /// Gate `gate`'s [batch, hidden] columns of a [batch, n * hidden] tensor.
  Value gateColumns(Value tensor, int64_t gate) {
    return extractSlice(b, loc, tensor, {index(0), index(gate * hidden)},
                        {getSizes(b, loc, tensor)[0], index(hidden)});
  }

  /// [batch, k] x [k, n], accumulated from zero.
  Value matmul(Value lhs, Value rhs) {
    OpFoldResult n = getSizes(b, loc, rhs)[1];
    Value init = createFilled(b, loc, {getSizes(b, loc, lhs)[0], n},
                              createScalar(b, loc, elementType, 0));
    return linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs}, init)
        .getResult(0);
  }

  /// A [batch, hidden] state of direction `d` from a [directions, batch,
  /// hidden] input (batch-major: [batch, directions, hidden]), or zeros.
  Value getInitialState(unsigned input, int64_t d) {
    if (!ctx.hasInput(input))
      return createFilled(b, loc, {batch, index(hidden)},
                          createScalar(b, loc, elementType, 0));
    // Sized by its own batch dimension: kiln's dispatches do not relate
    // sizes read from different tensors.
    Value state = ctx.getInput(input);
    OpFoldResult own = getSizes(b, loc, state)[batchMajor ? 0 : 1];
    if (batchMajor)
      return extractSlice(b, loc, state, {index(0), index(d), index(0)},
                          {own, index(1), index(hidden)}, {1});
    return extractSlice(b, loc, state, {index(d), index(0), index(0)},
                        {index(1), own, index(hidden)}, {0});
  }

  /// Pieces `first`.. of `count` [hidden] pieces of row `d` of a 2-D input.
  SmallVector<Value> getRowPieces(unsigned input, int64_t d, int64_t first,
                                  int64_t count) {
    SmallVector<Value> pieces;
    if (!ctx.hasInput(input)) {
      pieces.assign(count, Value());
      return pieces;
    }
    Value value = ctx.getInput(input);
    for (int64_t i = 0; i < count; ++i)
      pieces.push_back(extractSlice(b, loc, value,
                                    {index(d), index((first + i) * hidden)},
                                    {index(1), index(hidden)}, {0}));
    return pieces;
  }

  /// One gate's terms added into `operands`, for columns `gate` of the
  /// step's projections.
  GateTerms addGate(Operands &operands, const Direction &dir,
                    Value inputProjection, Value hiddenProjection, int64_t gate,
                    int64_t hiddenGate) {
    GateTerms terms;
    terms.input = operands.add(gateColumns(inputProjection, gate));
    terms.hidden = operands.add(
        hiddenGate < 0 ? hiddenProjection
                       : gateColumns(hiddenProjection, hiddenGate));
    terms.inputBias = operands.addIfGiven(dir.inputBias[gate]);
    terms.hiddenBias = operands.addIfGiven(dir.hiddenBias[gate]);
    return terms;
  }

  /// input + hidden + biases, of a step's elements `x`.
  Value sumGate(OpBuilder &nb, Location nl, ValueRange x,
                const GateTerms &terms, bool withHiddenBias = true) {
    Value sum = arith::AddFOp::create(nb, nl, x[terms.input], x[terms.hidden]);
    if (terms.inputBias)
      sum = arith::AddFOp::create(nb, nl, sum, x[*terms.inputBias]);
    if (terms.hiddenBias && withHiddenBias)
      sum = arith::AddFOp::create(nb, nl, sum, x[*terms.hiddenBias]);
    return sum;
  }

  /// `activation` of `value` clipped to [-clip, clip] if clip is given.
  Value activate(OpBuilder &nb, Location nl, const Activation &activation,
                 Value value) {
    if (clip) {
      value = arith::MinimumFOp::create(nb, nl, value,
                                        createScalarLike(nb, nl, value, *clip));
      value = arith::MaximumFOp::create(nb, nl, value,
                                        createScalarLike(nb, nl, value, -*clip));
    }
    return applyActivation(nb, nl, activation, value);
  }

  /// Whether time step `t` is within the sequence of the step's batch
  /// entry (always, without sequence_lens).
  Value isValid(OpBuilder &nb, Location nl, ValueRange x,
                std::optional<unsigned> lengthsOperand, int64_t t) {
    Value length = x[*lengthsOperand];
    return arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sgt, length,
                                 createIntScalar(nb, nl, length.getType(), t));
  }

  /// An elementwise op over [batch, hidden], the batch size read from its
  /// first operand: kiln's dispatches do not relate sizes read from
  /// different tensors.
  Value elementwise(ArrayRef<Value> operands, ElementBody body) {
    return *buildElementwise(b, loc, operands, elementType, body,
                             {getSizes(b, loc, operands[0])[0], index(hidden)});
  }

  /// The step's output: its hidden state, zero past the sequence's end.
  Value maskOutput(Value state, int64_t t) {
    if (!lengths)
      return state;
    return elementwise({state, lengths},
                       [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                         Value valid = isValid(nb, nl, x, 1u, t);
                         return arith::SelectOp::create(
                             nb, nl, valid, x[0],
                             createScalarLike(nb, nl, x[0], 0));
                       });
  }

  Direction prepareDirection(int64_t d);
  /// One step at time `t`: the new hidden (and, for LSTM, cell) state.
  void step(const Direction &dir, int64_t t, Value &state, Value &cell);
  void stepRNN(const Direction &dir, int64_t t, Value xg, Value &state);
  void stepGRU(const Direction &dir, int64_t t, Value xg, Value &state);
  void stepLSTM(const Direction &dir, int64_t t, Value xg, Value &state,
                Value &cell);
  /// Y_h or Y_c from each direction's final [batch, hidden] state.
  Value assembleFinal(ArrayRef<Value> states);
};

Direction RecurrenceBuilder::prepareDirection(int64_t d) {
  Direction dir;
  int64_t gateWidth = gates * hidden;
  OpFoldResult inputSize = getSizes(b, loc, wT)[1];
  Value w = extractSlice(b, loc, wT, {index(d), index(0), index(0)},
                         {index(1), inputSize, index(gateWidth)}, {0});
  dir.recurrence =
      extractSlice(b, loc, rT, {index(d), index(0), index(0)},
                   {index(1), index(hidden), index(gateWidth)}, {0});
  if (kind == CellKind::GRU && !linearBeforeReset) {
    dir.recurrenceZR =
        extractSlice(b, loc, dir.recurrence, {index(0), index(0)},
                     {index(hidden), index(2 * hidden)});
    dir.recurrenceH =
        extractSlice(b, loc, dir.recurrence, {index(0), index(2 * hidden)},
                     {index(hidden), index(hidden)});
  }
  // Every step's input projection as one matmul.
  Value x = ctx.getInput(0);
  SmallVector<OpFoldResult> xSizes = getSizes(b, loc, x);
  OpFoldResult rows = getProduct(b, loc, {xSizes[0], xSizes[1]});
  Value flat = reshape(b, loc, x, {rows, xSizes[2]});
  Value init = createFilled(b, loc, {rows, index(gateWidth)},
                            createScalar(b, loc, elementType, 0));
  Value product =
      linalg::MatmulOp::create(b, loc, ValueRange{flat, w}, init).getResult(0);
  dir.projection =
      reshape(b, loc, product, {xSizes[0], xSizes[1], index(gateWidth)});
  dir.inputBias = getRowPieces(3, d, 0, gates);
  dir.hiddenBias = getRowPieces(3, d, gates, gates);
  if (kind == CellKind::LSTM)
    dir.peepholes = getRowPieces(7, d, 0, 3);
  return dir;
}

void RecurrenceBuilder::stepRNN(const Direction &dir, int64_t t, Value xg,
                                Value &state) {
  Value hg = matmul(state, dir.recurrence);
  Operands operands;
  GateTerms terms = addGate(operands, dir, xg, hg, 0, 0);
  // Past a sequence's end the state stays.
  std::optional<unsigned> previous, lengthsOperand;
  if (lengths) {
    previous = operands.add(state);
    lengthsOperand = operands.add(lengths);
  }
  state = elementwise(
      operands.values, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        Value h =
            activate(nb, nl, dir.activations[0], sumGate(nb, nl, x, terms));
        if (!lengthsOperand)
          return h;
        return arith::SelectOp::create(
            nb, nl, isValid(nb, nl, x, lengthsOperand, t), h, x[*previous]);
      });
}

void RecurrenceBuilder::stepGRU(const Direction &dir, int64_t t, Value xg,
                                Value &state) {
  // Gates z, r, h.
  Value hg, hiddenCandidate;
  if (linearBeforeReset) {
    hg = matmul(state, dir.recurrence);
  } else {
    // h's recurrence multiplies r (.) H, known only once r is.
    hg = matmul(state, dir.recurrenceZR);
    Operands operands;
    GateTerms r = addGate(operands, dir, xg, hg, 1, 1);
    unsigned previous = operands.add(state);
    Value resetState = elementwise(
        operands.values, [&](OpBuilder &nb, Location nl, ValueRange x) {
          Value gate =
              activate(nb, nl, dir.activations[0], sumGate(nb, nl, x, r));
          return arith::MulFOp::create(nb, nl, gate, x[previous]);
        });
    hiddenCandidate = matmul(resetState, dir.recurrenceH);
  }
  Operands operands;
  GateTerms z = addGate(operands, dir, xg, hg, 0, 0);
  std::optional<GateTerms> r;
  if (linearBeforeReset)
    r = addGate(operands, dir, xg, hg, 1, 1);
  GateTerms h = linearBeforeReset
                    ? addGate(operands, dir, xg, hg, 2, 2)
                    : addGate(operands, dir, xg, hiddenCandidate, 2, -1);
  unsigned previous = operands.add(state);
  std::optional<unsigned> lengthsOperand = operands.addIfGiven(lengths);
  state = elementwise(
      operands.values, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        const Activation &f = dir.activations[0], &g = dir.activations[1];
        Value zt = activate(nb, nl, f, sumGate(nb, nl, x, z));
        Value pre;
        if (linearBeforeReset) {
          // g(Xh + Wbh + r (.) (H Rh + Rbh))
          Value rt = activate(nb, nl, f, sumGate(nb, nl, x, *r));
          Value recurrent = x[h.hidden];
          if (h.hiddenBias)
            recurrent =
                arith::AddFOp::create(nb, nl, recurrent, x[*h.hiddenBias]);
          pre = arith::AddFOp::create(
              nb, nl, x[h.input], arith::MulFOp::create(nb, nl, rt, recurrent));
          if (h.inputBias)
            pre = arith::AddFOp::create(nb, nl, pre, x[*h.inputBias]);
        } else {
          pre = sumGate(nb, nl, x, h);
        }
        Value ht = activate(nb, nl, g, pre);
        // (1 - z) (.) h + z (.) H
        Value keep =
            arith::SubFOp::create(nb, nl, createScalarLike(nb, nl, zt, 1.0), zt);
        Value fresh = arith::MulFOp::create(nb, nl, keep, ht);
        Value kept = arith::MulFOp::create(nb, nl, zt, x[previous]);
        Value next = arith::AddFOp::create(nb, nl, fresh, kept);
        if (!lengthsOperand)
          return next;
        return arith::SelectOp::create(
            nb, nl, isValid(nb, nl, x, lengthsOperand, t), next, x[previous]);
      });
}

void RecurrenceBuilder::stepLSTM(const Direction &dir, int64_t t, Value xg,
                                 Value &state, Value &cell) {
  // Gates i, o, f, c; peepholes i, o, f.
  const Activation &f = dir.activations[0], &g = dir.activations[1],
                   &h = dir.activations[2];
  Value hg = matmul(state, dir.recurrence);
  Operands cellOperands;
  GateTerms i = addGate(cellOperands, dir, xg, hg, 0, 0);
  GateTerms forget = addGate(cellOperands, dir, xg, hg, 2, 2);
  GateTerms c = addGate(cellOperands, dir, xg, hg, 3, 3);
  std::optional<unsigned> pi = cellOperands.addIfGiven(dir.peepholes[0]);
  std::optional<unsigned> pf = cellOperands.addIfGiven(dir.peepholes[2]);
  unsigned previousCell = cellOperands.add(cell);
  std::optional<unsigned> cellLengths = cellOperands.addIfGiven(lengths);
  auto withPeephole = [](OpBuilder &nb, Location nl, ValueRange x, Value pre,
                         std::optional<unsigned> peephole, Value c) -> Value {
    if (!peephole)
      return pre;
    return arith::AddFOp::create(
        nb, nl, pre, arith::MulFOp::create(nb, nl, x[*peephole], c));
  };
  Value nextCell = elementwise(
      cellOperands.values,
      [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        Value previous = x[previousCell];
        Value it = activate(
            nb, nl, f,
            withPeephole(nb, nl, x, sumGate(nb, nl, x, i), pi, previous));
        Value ft;
        if (inputForget)
          ft = arith::SubFOp::create(nb, nl, createScalarLike(nb, nl, it, 1.0), it);
        else
          ft = activate(nb, nl, f,
                        withPeephole(nb, nl, x, sumGate(nb, nl, x, forget), pf,
                                     previous));
        Value ct = activate(nb, nl, g, sumGate(nb, nl, x, c));
        Value kept = arith::MulFOp::create(nb, nl, ft, previous);
        Value fresh = arith::MulFOp::create(nb, nl, it, ct);
        Value next = arith::AddFOp::create(nb, nl, kept, fresh);
        if (!cellLengths)
          return next;
        return arith::SelectOp::create(
            nb, nl, isValid(nb, nl, x, cellLengths, t), next, previous);
      });
  // The output gate looks at the new cell.
  Operands operands;
  GateTerms o = addGate(operands, dir, xg, hg, 1, 1);
  std::optional<unsigned> po = operands.addIfGiven(dir.peepholes[1]);
  unsigned newCell = operands.add(nextCell);
  std::optional<unsigned> previous, lengthsOperand;
  if (lengths) {
    previous = operands.add(state);
    lengthsOperand = operands.add(lengths);
  }
  state = elementwise(
      operands.values, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        Value ct = x[newCell];
        Value ot = activate(
            nb, nl, f, withPeephole(nb, nl, x, sumGate(nb, nl, x, o), po, ct));
        Value next =
            arith::MulFOp::create(nb, nl, ot, applyActivation(nb, nl, h, ct));
        if (!lengthsOperand)
          return next;
        return arith::SelectOp::create(
            nb, nl, isValid(nb, nl, x, lengthsOperand, t), next, x[*previous]);
      });
  cell = nextCell;
}

void RecurrenceBuilder::step(const Direction &dir, int64_t t, Value &state,
                             Value &cell) {
  int64_t gateWidth = gates * hidden;
  OpFoldResult rows = getSizes(b, loc, dir.projection)[batchMajor ? 0 : 1];
  Value xg =
      batchMajor
          ? extractSlice(b, loc, dir.projection, {index(0), index(t), index(0)},
                         {rows, index(1), index(gateWidth)}, {1})
          : extractSlice(b, loc, dir.projection, {index(t), index(0), index(0)},
                         {index(1), rows, index(gateWidth)}, {0});
  switch (kind) {
  case CellKind::RNN:
    return stepRNN(dir, t, xg, state);
  case CellKind::GRU:
    return stepGRU(dir, t, xg, state);
  case CellKind::LSTM:
    return stepLSTM(dir, t, xg, state, cell);
  }
}

Value RecurrenceBuilder::assembleFinal(ArrayRef<Value> states) {
  SmallVector<OpFoldResult> sizes =
      batchMajor ? SmallVector<OpFoldResult>{batch, index(numDirections),
                                             index(hidden)}
                 : SmallVector<OpFoldResult>{index(numDirections), batch,
                                             index(hidden)};
  if (numDirections == 1)
    return reshape(b, loc, states[0], sizes);
  Value result = createEmpty(b, loc, sizes, elementType);
  SmallVector<OpFoldResult> pieceSizes =
      batchMajor ? SmallVector<OpFoldResult>{batch, index(1), index(hidden)}
                 : SmallVector<OpFoldResult>{index(1), batch, index(hidden)};
  SmallVector<OpFoldResult> strides(3, index(1));
  for (auto [d, state] : llvm::enumerate(states)) {
    SmallVector<OpFoldResult> offsets =
        batchMajor ? SmallVector<OpFoldResult>{index(0), index(d), index(0)}
                   : SmallVector<OpFoldResult>{index(d), index(0), index(0)};
    result = tensor::InsertSliceOp::create(b, loc, state, result, offsets,
                                           pieceSizes, strides);
  }
  return result;
}

LogicalResult RecurrenceBuilder::convert() {
  gates = kind == CellKind::LSTM ? 4 : kind == CellKind::GRU ? 3 : 1;
  std::string direction = ctx.getString("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return ctx.fail("direction must be forward, reverse or bidirectional, "
                    "got '" +
                    direction + "'");
  numDirections = direction == "bidirectional" ? 2 : 1;
  int64_t layout = ctx.getInt("layout", 0);
  if (layout != 0 && layout != 1)
    return ctx.fail("layout must be 0 or 1, got " + Twine(layout));
  batchMajor = layout == 1;
  if (ctx.hasAttribute("clip"))
    clip = ctx.getFloat("clip", 0);
  linearBeforeReset = ctx.getInt("linear_before_reset", 0) != 0;
  inputForget = ctx.getInt("input_forget", 0) != 0;

  RankedTensorType xType = ctx.getInputType(0);
  RankedTensorType wType = ctx.getInputType(1);
  RankedTensorType rType = ctx.getInputType(2);
  if (xType.getRank() != 3 || wType.getRank() != 3 || rType.getRank() != 3)
    return ctx.fail("X, W and R must have rank 3");
  elementType = xType.getElementType();
  if (!isa<FloatType>(elementType))
    return ctx.fail("X must hold floats");
  steps = xType.getDimSize(batchMajor ? 1 : 0);
  if (ShapedType::isDynamic(steps))
    return ctx.fail("the sequence length (dimension " +
                    Twine(batchMajor ? 1 : 0) +
                    " of X) must be known when importing: kiln unrolls the "
                    "time steps");
  if (steps == 0)
    return ctx.fail("X holds no time steps");
  hidden = rType.getDimSize(2);
  if (ctx.hasAttribute("hidden_size")) {
    int64_t attribute = ctx.getInt("hidden_size", 0);
    if (!ShapedType::isDynamic(hidden) && hidden != attribute)
      return ctx.fail("hidden_size " + Twine(attribute) +
                      " differs from R's last dimension, " + Twine(hidden));
    hidden = attribute;
  }
  if (ShapedType::isDynamic(hidden) || hidden <= 0)
    return ctx.fail("the hidden size must be known when importing (give "
                    "hidden_size or an R of static shape)");
  for (RankedTensorType type : {wType, rType}) {
    if (!type.isDynamicDim(0) && type.getDimSize(0) != numDirections)
      return ctx.fail("W and R must hold " + Twine(numDirections) +
                      " direction(s) for direction " + direction);
    if (!type.isDynamicDim(1) && type.getDimSize(1) != gates * hidden)
      return ctx.fail("W and R must have " + Twine(gates * hidden) + " rows (" +
                      Twine(gates) + " gates of hidden size " + Twine(hidden) +
                      ")");
  }
  batch = getSizes(b, loc, ctx.getInput(0))[batchMajor ? 0 : 1];
  // Transposed as a whole, a constant while importing.
  wT = transpose(b, loc, ctx.getInput(1), {0, 2, 1});
  rT = transpose(b, loc, ctx.getInput(2), {0, 2, 1});

  static const StringRef lstmDefaults[] = {"Sigmoid", "Tanh", "Tanh"};
  static const StringRef gruDefaults[] = {"Sigmoid", "Tanh"};
  static const StringRef rnnDefaults[] = {"Tanh"};
  ArrayRef<StringRef> defaults = kind == CellKind::LSTM ? ArrayRef(lstmDefaults)
                                 : kind == CellKind::GRU
                                     ? ArrayRef(gruDefaults)
                                     : ArrayRef(rnnDefaults);
  FailureOr<SmallVector<Activation>> activations =
      getActivations(ctx, defaults, numDirections);
  if (failed(activations))
    return failure();

  // sequence_lens: steps past a sequence's end keep its states and output
  // zeros. Lengths known to be whole need no masks.
  if (ctx.hasInput(4)) {
    std::optional<SmallVector<int64_t>> known = ctx.getConstantInts(4);
    bool whole = known && llvm::all_of(*known, [&](int64_t length) {
                   return length == steps;
                 });
    if (!whole) {
      Value lens = ctx.getInput(4);
      if (cast<RankedTensorType>(lens.getType()).getRank() != 1)
        return ctx.fail("sequence_lens must have rank 1");
      lengths = reshape(b, loc, lens, {getSizes(b, loc, lens)[0], index(1)});
    }
  }

  SmallVector<OpFoldResult> ySizes =
      batchMajor
          ? SmallVector<OpFoldResult>{batch, index(steps), index(numDirections),
                                      index(hidden)}
          : SmallVector<OpFoldResult>{index(steps), index(numDirections), batch,
                                      index(hidden)};
  Value y;
  if (ctx.hasOutput(0))
    y = createEmpty(b, loc, ySizes, elementType);
  SmallVector<Value> finalStates, finalCells;
  for (int64_t d = 0; d < numDirections; ++d) {
    bool reverse = d == 1 || direction == "reverse";
    Direction dir = prepareDirection(d);
    size_t perDirection = defaults.size();
    dir.activations.assign(activations->begin() + d * perDirection,
                           activations->begin() + (d + 1) * perDirection);
    Value state = getInitialState(5, d);
    Value cell = kind == CellKind::LSTM ? getInitialState(6, d) : Value();
    for (int64_t s = 0; s < steps; ++s) {
      int64_t t = reverse ? steps - 1 - s : s;
      step(dir, t, state, cell);
      if (!y)
        continue;
      SmallVector<OpFoldResult> offsets =
          batchMajor ? SmallVector<OpFoldResult>{index(0), index(t), index(d),
                                                 index(0)}
                     : SmallVector<OpFoldResult>{index(t), index(d), index(0),
                                                 index(0)};
      SmallVector<OpFoldResult> sizes =
          batchMajor ? SmallVector<OpFoldResult>{batch, index(1), index(1),
                                                 index(hidden)}
                     : SmallVector<OpFoldResult>{index(1), index(1), batch,
                                                 index(hidden)};
      y = tensor::InsertSliceOp::create(b, loc, maskOutput(state, t), y,
                                        offsets, sizes,
                                        SmallVector<OpFoldResult>(4, index(1)));
    }
    finalStates.push_back(state);
    finalCells.push_back(cell);
  }
  if (y)
    ctx.setOutput(0, y);
  if (ctx.hasOutput(1))
    ctx.setOutput(1, assembleFinal(finalStates));
  if (kind == CellKind::LSTM && ctx.hasOutput(2))
    ctx.setOutput(2, assembleFinal(finalCells));
  return success();
}

LogicalResult convertRNN(NodeContext &ctx) {
  return RecurrenceBuilder(ctx, CellKind::RNN).convert();
}

LogicalResult convertGRU(NodeContext &ctx) {
  return RecurrenceBuilder(ctx, CellKind::GRU).convert();
}

LogicalResult convertLSTM(NodeContext &ctx) {
  return RecurrenceBuilder(ctx, CellKind::LSTM).convert();
}

} // namespace

void registerRecurrentConverters(ConverterTable &table) {
  table["RNN"] = convertRNN;
  table["GRU"] = convertGRU;
  table["LSTM"] = convertLSTM;
}

} // namespace mlir::kiln::onnx_import
