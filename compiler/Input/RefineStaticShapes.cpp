//===- RefineStaticShapes.cpp - static types for values of known shape ----===//
//
// Upstream canonicalization already moves a static shape from a tensor.cast
// into the linalg and tensor ops that read it; the patterns here carry it
// through the ops it does not know: IREE's shape ties, barriers and checks.
//
//===----------------------------------------------------------------------===//

#include "Input/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_REFINESTATICSHAPESPASS
#include "Input/Passes.h.inc"

namespace {

/// `type` with each dynamic dimension that `other` knows made static.
RankedTensorType joinShapes(RankedTensorType type, Type other) {
  auto otherType = dyn_cast<RankedTensorType>(other);
  if (!otherType || otherType.getRank() != type.getRank())
    return type;
  SmallVector<int64_t> shape(type.getShape());
  for (auto [size, otherSize] : llvm::zip(shape, otherType.getShape()))
    if (ShapedType::isDynamic(size))
      size = otherSize;
  return type.clone(shape);
}

/// The type `value` had before a cast erased dimensions from it.
Type typeBeforeCast(Value value) {
  if (auto castOp = value.getDefiningOp<tensor::CastOp>())
    return castOp.getSource().getType();
  return value.getType();
}

/// A tie with constant dimensions becomes casts through the static type;
/// any other tie only restates its operand's type.
struct RefineTieShape : OpRewritePattern<flow::TensorTieShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(flow::TensorTieShapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    SmallVector<int64_t> shape(type.getShape());
    auto dims = op.getDynamicDims().begin();
    for (int64_t &size : shape) {
      if (!ShapedType::isDynamic(size))
        continue;
      APInt value;
      if (matchPattern(*dims++, m_ConstantInt(&value)) && !value.isNegative())
        size = value.getSExtValue();
    }
    Value result = op.getOperand();
    if (RankedTensorType refined = type.clone(shape); refined != type) {
      Value cast =
          tensor::CastOp::create(rewriter, op.getLoc(), refined, result);
      result = tensor::CastOp::create(rewriter, op.getLoc(), type, cast);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// barrier(cast(x)) -> cast(barrier(x)) for casts that erase dimensions:
/// the barrier hides values, not shapes.
struct MoveCastsOutOfBarrier : OpRewritePattern<util::OptimizationBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(util::OptimizationBarrierOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op.getOperands());
    bool changed = false;
    for (Value &operand : operands) {
      auto castOp = operand.getDefiningOp<tensor::CastOp>();
      if (castOp && tensor::canFoldIntoConsumerOp(castOp)) {
        operand = castOp.getSource();
        changed = true;
      }
    }
    if (!changed)
      return failure();
    auto barrier =
        util::OptimizationBarrierOp::create(rewriter, op.getLoc(), operands);
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(barrier.getResults(), op.getResultTypes()))
      results.push_back(result.getType() == type
                            ? Value(result)
                            : Value(tensor::CastOp::create(
                                  rewriter, op.getLoc(), type, result)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A check of two values compares them at the most static type either had.
template <typename CheckOp>
struct RefineCheckOperands : OpRewritePattern<CheckOp> {
  using OpRewritePattern<CheckOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CheckOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getLhs().getType());
    if (!type || type.hasStaticShape())
      return failure();
    RankedTensorType joined =
        joinShapes(joinShapes(type, typeBeforeCast(op.getLhs())),
                   typeBeforeCast(op.getRhs()));
    if (joined == type)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(
          tensor::CastOp::create(rewriter, op.getLoc(), joined, op.getLhs()));
      op.getRhsMutable().assign(
          tensor::CastOp::create(rewriter, op.getLoc(), joined, op.getRhs()));
    });
    return success();
  }
};

/// An elementwise op on tensors (arith, math) computes at the most static
/// type its operands had.
struct RefineElementwiseOp : RewritePattern {
  RefineElementwiseOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || type.hasStaticShape())
      return failure();
    RankedTensorType joined = type;
    for (Value operand : op->getOperands())
      joined = joinShapes(joined, typeBeforeCast(operand));
    if (joined == type)
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto operandType = dyn_cast<RankedTensorType>(operand.getType());
      if (!operandType) {
        operands.push_back(operand); // a scalar condition of a select
        continue;
      }
      operands.push_back(tensor::CastOp::create(
          rewriter, op->getLoc(), operandType.clone(joined.getShape()),
          operand));
    }
    Operation *refined =
        rewriter.create(op->getLoc(), op->getName().getIdentifier(), operands,
                        TypeRange{joined}, op->getAttrs());
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, type,
                                                refined->getResult(0));
    return success();
  }
};

bool hasDynamicShapes(func::FuncOp funcOp) {
  auto isDynamic = [](Type type) {
    auto shapedType = dyn_cast<ShapedType>(type);
    return shapedType && !shapedType.hasStaticShape();
  };
  WalkResult result = funcOp.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), isDynamic))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), isDynamic))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

struct RefineStaticShapesPass
    : impl::RefineStaticShapesPassBase<RefineStaticShapesPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    populateRefineStaticShapesPatterns(patterns);
    frozenPatterns = std::move(patterns);
    return success();
  }
  void runOnOperation() override {
    if (!hasDynamicShapes(getOperation()))
      return;
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }
  FrozenRewritePatternSet frozenPatterns;
};

} // namespace

void populateRefineStaticShapesPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RefineTieShape, MoveCastsOutOfBarrier, RefineElementwiseOp,
               RefineCheckOperands<check::ExpectEqOp>,
               RefineCheckOperands<check::ExpectAlmostEqOp>>(context);
  // The shape folds of the ops that carry tensors: casts into their users,
  // dims of static tensors, empties sized by constants, index arithmetic.
  constexpr StringRef kShapeDialects[] = {"arith", "linalg", "tensor"};
  for (StringRef name : kShapeDialects)
    if (Dialect *dialect = context->getLoadedDialect(name))
      dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    if (llvm::is_contained(kShapeDialects, op.getDialectNamespace()))
      op.getCanonicalizationPatterns(patterns, context);
}

} // namespace mlir::kiln
