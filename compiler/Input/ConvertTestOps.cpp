//===- ConvertTestOps.cpp - IREE test-format helpers to kiln ops ----------===//

#include "Input/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTTESTOPSPASS
#include "Input/Passes.h.inc"

namespace {

/// `value` as an arith.constant behind a barrier: no dispatch folds it.
Value createUnfoldableConstant(PatternRewriter &rewriter, Location loc,
                               TypedAttr value) {
  Value constant = arith::ConstantOp::create(rewriter, loc, value);
  return util::OptimizationBarrierOp::create(rewriter, loc, constant)
      .getResult(0);
}

struct LowerUnfoldableConstant : OpRewritePattern<util::UnfoldableConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(util::UnfoldableConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createUnfoldableConstant(rewriter, op.getLoc(), op.getValue()));
    return success();
  }
};

/// An unfoldable constant whose type then forgets its shape.
struct LowerDynamicConstant : OpRewritePattern<flow::TensorDynamicConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(flow::TensorDynamicConstantOp op,
                                PatternRewriter &rewriter) const override {
    Value constant =
        createUnfoldableConstant(rewriter, op.getLoc(), op.getValue());
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(), constant);
    return success();
  }
};

/// `value` reshaped to `type`, one of the two 1-D: every dimension of the
/// other folds into it (none of a 0-d tensor).
Value reshapeFlat(PatternRewriter &rewriter, Location loc, Value value,
                  RankedTensorType type) {
  auto valueType = cast<RankedTensorType>(value.getType());
  if (valueType == type)
    return value;
  int64_t rank =
      valueType.getRank() == 1 ? type.getRank() : valueType.getRank();
  SmallVector<ReassociationIndices> reassociation;
  if (rank != 0)
    reassociation.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  if (type.getRank() > valueType.getRank())
    return tensor::ExpandShapeOp::create(rewriter, loc, type, value,
                                         reassociation);
  return tensor::CollapseShapeOp::create(rewriter, loc, type, value,
                                         reassociation);
}

/// `value` as a 1-D tensor.
Value flatten(PatternRewriter &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return reshapeFlat(
      rewriter, loc, value,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()));
}

/// The integer of the bits of `value`, a scalar.
Value toBits(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (!isa<FloatType>(type))
    return value;
  return arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
}

/// A reinterpretation of bits as elementwise integer ops: each wide element
/// split into (or assembled from) narrow ones, lowest bits first.
struct LowerTensorBitCast : OpRewritePattern<flow::TensorBitCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(flow::TensorBitCastOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = op.getSource().getType();
    RankedTensorType resultType = op.getType();
    if (!sourceType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    const unsigned from = sourceType.getElementTypeBitWidth();
    const unsigned to = resultType.getElementTypeBitWidth();
    if (from % to != 0 && to % from != 0)
      return rewriter.notifyMatchFailure(op, "widths that do not divide");
    Location loc = op.getLoc();
    Value flat = flatten(rewriter, loc, op.getSource());
    Type toInt = rewriter.getIntegerType(to);
    auto parallel = utils::IteratorType::parallel;
    Value bits = flat;
    if (from > to) {
      // Element (i, j) of an n x k tensor holds bits j*to.. of element i.
      const int64_t n = sourceType.getNumElements(), k = from / to;
      Value init = tensor::EmptyOp::create(rewriter, loc, {n, k}, toInt);
      SmallVector<AffineMap> maps = {
          AffineMap::get(2, 0, rewriter.getAffineDimExpr(0)),
          rewriter.getMultiDimIdentityMap(2)};
      auto generic = linalg::GenericOp::create(
          rewriter, loc, init.getType(), flat, init, maps, {parallel, parallel},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value element = toBits(b, l, args[0]);
            Value j = arith::IndexCastOp::create(
                b, l, element.getType(), linalg::IndexOp::create(b, l, 1));
            Value width = arith::ConstantOp::create(
                b, l, b.getIntegerAttr(element.getType(), to));
            Value shift = arith::MulIOp::create(b, l, j, width);
            Value part = arith::TruncIOp::create(
                b, l, toInt, arith::ShRUIOp::create(b, l, element, shift));
            linalg::YieldOp::create(b, l, part);
          });
      bits = flatten(rewriter, loc, generic.getResult(0));
    } else if (from < to) {
      // Element i assembles the k elements i*k.. of the source.
      const int64_t m = resultType.getNumElements(), k = to / from;
      Value grouped = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({m, k}, sourceType.getElementType()), flat,
          SmallVector<ReassociationIndices>{{0, 1}});
      SmallVector<Value> inputs(k, grouped);
      SmallVector<AffineMap> maps;
      for (int64_t j = 0; j < k; ++j)
        maps.push_back(AffineMap::get(
            1, 0,
            {rewriter.getAffineDimExpr(0), rewriter.getAffineConstantExpr(j)},
            rewriter.getContext()));
      maps.push_back(rewriter.getMultiDimIdentityMap(1));
      Value init = tensor::EmptyOp::create(rewriter, loc, {m}, toInt);
      auto generic = linalg::GenericOp::create(
          rewriter, loc, init.getType(), inputs, init, maps, {parallel},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value word;
            for (int64_t j = 0; j < k; ++j) {
              Value part =
                  arith::ExtUIOp::create(b, l, toInt, toBits(b, l, args[j]));
              if (j != 0)
                part = arith::ShLIOp::create(
                    b, l, part,
                    arith::ConstantOp::create(
                        b, l, b.getIntegerAttr(toInt, j * from)));
              word = word ? arith::OrIOp::create(b, l, word, part).getResult()
                          : part;
            }
            linalg::YieldOp::create(b, l, word);
          });
      bits = generic.getResult(0);
    }
    auto bitsType = cast<RankedTensorType>(bits.getType());
    if (bitsType.getElementType() != resultType.getElementType())
      bits = arith::BitcastOp::create(
          rewriter, loc, bitsType.clone(resultType.getElementType()), bits);
    rewriter.replaceOp(op, reshapeFlat(rewriter, loc, bits, resultType));
    return success();
  }
};

struct LowerExpectEqConst : OpRewritePattern<check::ExpectEqConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(check::ExpectEqConstOp op,
                                PatternRewriter &rewriter) const override {
    Value expected = arith::ConstantOp::create(rewriter, op.getLoc(),
                                               cast<TypedAttr>(op.getValue()));
    rewriter.replaceOpWithNewOp<check::ExpectEqOp>(op, op.getLhs(), expected);
    return success();
  }
};

struct LowerExpectAlmostEqConst
    : OpRewritePattern<check::ExpectAlmostEqConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(check::ExpectAlmostEqConstOp op,
                                PatternRewriter &rewriter) const override {
    Value expected = arith::ConstantOp::create(rewriter, op.getLoc(),
                                               cast<TypedAttr>(op.getValue()));
    rewriter.replaceOpWithNewOp<check::ExpectAlmostEqOp>(
        op, op.getLhs(), expected, op.getAtolAttr(), op.getRtolAttr());
    return success();
  }
};

} // namespace

void populateConvertTestOpsPatterns(RewritePatternSet &patterns) {
  patterns
      .add<LowerUnfoldableConstant, LowerDynamicConstant, LowerTensorBitCast,
           LowerExpectEqConst, LowerExpectAlmostEqConst>(patterns.getContext());
}

namespace {
struct ConvertTestOpsPass : impl::ConvertTestOpsPassBase<ConvertTestOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateConvertTestOpsPatterns(patterns);
    // Only these ops: a full greedy run would also fold the constants the
    // barrier is there to protect.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<util::UnfoldableConstantOp, flow::TensorDynamicConstantOp,
              flow::TensorBitCastOp, check::ExpectEqConstOp,
              check::ExpectAlmostEqConstOp>(op))
        ops.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

} // namespace mlir::kiln
