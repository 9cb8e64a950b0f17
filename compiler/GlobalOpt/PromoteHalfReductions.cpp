//===- PromoteHalfReductions.cpp - narrow float reductions in f32 ---------===//
//
// A sum of 4096 f16 values accumulated in f16 loses its low bits once the
// partial sum outgrows the addends (4.03 for 4.098); numpy, PyTorch and
// IREE's tests expect the sum of an f32 accumulator rounded once. The
// reduction's body is rebuilt on f32 values, its accumulator extended before
// and its result truncated after, as elementwise generics that fuse with it.
// Floats of at most 8 bits (3 or fewer mantissa bits, no arithmetic of their
// own) accumulate in f32 always, contractions too.
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_PROMOTEHALFREDUCTIONSPASS
#include "GlobalOpt/Passes.h.inc"

namespace {

bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

bool isSmallFloat(Type type) {
  return isa<FloatType>(type) && type.getIntOrFloatBitWidth() <= 8;
}

/// The types whose reductions accumulate in f32.
bool isNarrow(Type type, bool includeHalf) {
  return isSmallFloat(type) || (includeHalf && isHalf(type));
}

/// Body ops rebuilt on f32 operands: their f16 forms differ only by type.
bool isRetypable(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp>(op))
    return true;
  // A bitcast's result width is its operand's: an f32 operand breaks it.
  if (isa<arith::BitcastOp>(op))
    return false;
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); });
}

/// An elementwise generic applying `convert` to every element of `source`.
Value convertElements(PatternRewriter &rewriter, Location loc, Value source,
                      Type elementType, bool extend) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, source), elementType);
  AffineMap identity = rewriter.getMultiDimIdentityMap(sourceType.getRank());
  SmallVector<utils::IteratorType> iterators(sourceType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), source, empty,
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value converted =
            extend
                ? arith::ExtFOp::create(b, l, elementType, args[0]).getResult()
                : arith::TruncFOp::create(b, l, elementType, args[0])
                      .getResult();
        linalg::YieldOp::create(b, l, converted);
      });
  return generic.getResult(0);
}

struct PromoteHalfReduction : OpRewritePattern<linalg::GenericOp> {
  PromoteHalfReduction(MLIRContext *context, bool includeHalf)
      : OpRewritePattern(context), includeHalf(includeHalf) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 || !op.hasPureTensorSemantics())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    Type halfType = getElementTypeOrSelf(init->get().getType());
    if (!isNarrow(halfType, includeHalf))
      return rewriter.notifyMatchFailure(op, "not a narrow float result");
    if (linalg::isaContractionOpInterface(op) && !isSmallFloat(halfType))
      return rewriter.notifyMatchFailure(op, "an f16 or bf16 contraction");
    // Values of any narrow type in the body become f32.
    auto isNarrowValue = [](Type type) {
      return isNarrow(type, /*includeHalf=*/true);
    };
    Block *body = op.getBody();
    if (!llvm::all_of(body->without_terminator(),
                      [](Operation &inner) { return isRetypable(&inner); }))
      return rewriter.notifyMatchFailure(op, "body op without an f32 form");

    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value wideInit =
        convertElements(rewriter, loc, init->get(), f32, /*extend=*/true);
    auto wideType = cast<RankedTensorType>(wideInit.getType());
    auto wide = linalg::GenericOp::create(
        rewriter, loc, TypeRange{wideType}, op.getDpsInputs(),
        ValueRange{wideInit}, op.getIndexingMapsArray(),
        op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          // Inputs enter at f32; the accumulator already is.
          for (auto [old, arg] : llvm::zip(body->getArguments(), args)) {
            Value value = arg;
            if (isNarrowValue(value.getType()))
              value = arith::ExtFOp::create(b, l, f32, value);
            mapping.map(old, value);
          }
          for (Operation &inner : body->without_terminator()) {
            // Narrow values from outside the body (a constant hoisted out of
            // it) are extended where they are used.
            for (Value operand : inner.getOperands())
              if (!mapping.contains(operand) &&
                  isNarrowValue(operand.getType()))
                mapping.map(operand, arith::ExtFOp::create(b, l, f32, operand));
            Value result = inner.getResult(0);
            Type type = result.getType();
            // An f32 value from outside the body is not mapped: itself.
            Value source = mapping.lookupOrDefault(inner.getOperand(0));
            if (isa<arith::ExtFOp, arith::TruncFOp>(inner) &&
                source.getType() == f32 &&
                (isNarrowValue(type) || type.isF32())) {
              // Conversions between a narrow type and f32 vanish at f32.
              mapping.map(result, source);
              continue;
            }
            if (auto constant = dyn_cast<arith::ConstantOp>(inner);
                constant && isNarrowValue(type)) {
              double value =
                  cast<FloatAttr>(constant.getValue()).getValueAsDouble();
              mapping.map(result, arith::ConstantOp::create(
                                      b, l, b.getF32FloatAttr(value)));
              continue;
            }
            Operation *clone = b.clone(inner, mapping);
            if (isNarrowValue(type))
              clone->getResult(0).setType(f32);
          }
          Value yielded =
              mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
          if (isNarrowValue(yielded.getType()))
            yielded = arith::ExtFOp::create(b, l, f32, yielded);
          linalg::YieldOp::create(b, l, yielded);
        });
    rewriter.replaceOp(op, convertElements(rewriter, loc, wide.getResult(0),
                                           halfType, /*extend=*/false));
    return success();
  }

private:
  bool includeHalf;
};

struct PromoteHalfReductionsPass
    : impl::PromoteHalfReductionsPassBase<PromoteHalfReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    IRRewriter rewriter(&getContext());
    // Named reductions (linalg.reduce) and small float contractions become
    // generics first.
    SmallVector<linalg::LinalgOp> named;
    funcOp.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp>(op) || op.getNumDpsInits() != 1)
        return;
      Type type = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if ((isa<linalg::ReduceOp>(op) && isNarrow(type, half)) ||
          (isSmallFloat(type) && linalg::isaContractionOpInterface(op)))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<PromoteHalfReduction>(&getContext(), half);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
