//===- ConvertToHost.cpp - dispatch-level functions to host ops -----------===//
//
// One pattern per kind of host op. scf.if and scf.while become blocks, as
// upstream's SCF-to-ControlFlow lowering makes them, except that the
// branches test the 0-d tensor<i1> the condition was read from and pass
// no values to a conditional branch's destinations: an if's branches join
// through host.br, and a loop's after-block and exit read the condition's
// values directly, which dominate them. The pass refuses, naming them, the
// ops the patterns do not lower before it applies them.
//
//===----------------------------------------------------------------------===//

#include "Host/Passes.h"

#include "Dialect/IREETestFormat/Check/IR/CheckDialect.h"
#include "Dialect/IREETestFormat/Util/IR/UtilDialect.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTTOHOSTPASS
#include "Host/Passes.h.inc"

namespace {

/// The 0-d tensor<i1> a branch condition was read from, or null.
Value getConditionTensor(Value condition) {
  auto extractOp = condition.getDefiningOp<tensor::ExtractOp>();
  if (!extractOp)
    return {};
  auto type = extractOp.getTensor().getType();
  if (type.getRank() != 0 || !type.getElementType().isInteger(1))
    return {};
  return extractOp.getTensor();
}

/// Branches to `dest` with `operands`, viewing first any operand that is an
/// argument of `dest` itself (host.br's rule).
void createBranch(RewriterBase &rewriter, Location loc, Block *dest,
                  ValueRange operands) {
  SmallVector<Value> values(operands);
  for (Value &value : values) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == dest)
      value = host::ReshapeOp::create(rewriter, loc, value.getType(), value);
  }
  host::BranchOp::create(rewriter, loc, values, dest);
}

struct ConvertConstant : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto value = dyn_cast<ElementsAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "not a tensor constant");
    rewriter.replaceOpWithNewOp<host::ConstantOp>(op, op.getType(), value);
    return success();
  }
};

/// An uninitialized tensor that reaches the host reads as zeros.
struct ConvertEmpty : OpRewritePattern<tensor::EmptyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::EmptyOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Type elementType = type.getElementType();
    Attribute zero = elementType.isIntOrIndex()
                         ? Attribute(IntegerAttr::get(elementType, 0))
                         : Attribute(FloatAttr::get(elementType, 0.0));
    rewriter.replaceOpWithNewOp<host::ConstantOp>(
        op, type, cast<ElementsAttr>(SplatElementsAttr::get(type, zero)));
    return success();
  }
};

/// Every result in new storage; kiln-plan-buffers moves what it can.
struct ConvertDispatch : OpRewritePattern<DispatchOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DispatchOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> buffers;
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      buffers.push_back(host::AllocateOp::create(
          rewriter, op.getLoc(), rewriter.getType<host::BufferType>()));
    rewriter.replaceOpWithNewOp<host::DispatchOp>(
        op, op.getResultTypes(), op.getEntryPoint(), op.getArguments(),
        op.getConstants(), buffers, op.getResultDims());
    return success();
  }
};

struct ConvertDim : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::DimOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> index = op.getConstantIndex();
    if (!index)
      return rewriter.notifyMatchFailure(op, "dimension not a constant");
    rewriter.replaceOpWithNewOp<host::DimOp>(op, rewriter.getIndexType(),
                                             op.getSource(),
                                             rewriter.getIndexAttr(*index));
    return success();
  }
};

/// An element of an integer tensor made an index (arith.index_cast of a
/// tensor.extract at constant indices): read by the host.
template <typename CastOp>
struct ConvertIndexOfElement : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto extractOp = op.getIn().template getDefiningOp<tensor::ExtractOp>();
    if (!extractOp || !op.getType().isIndex())
      return rewriter.notifyMatchFailure(op, "not an index of an element");
    auto type = cast<RankedTensorType>(extractOp.getTensor().getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t element = 0;
    for (auto [index, size] :
         llvm::zip(extractOp.getIndices(), type.getShape())) {
      std::optional<int64_t> position = getConstantIntValue(index);
      if (!position)
        return rewriter.notifyMatchFailure(op, "a computed position");
      element = element * size + *position;
    }
    rewriter.replaceOpWithNewOp<host::ExtractOp>(
        op, rewriter.getIndexType(), extractOp.getTensor(),
        rewriter.getIndexAttr(element),
        std::is_same_v<CastOp, arith::IndexCastUIOp> ? rewriter.getUnitAttr()
                                                     : UnitAttr());
    if (extractOp->use_empty())
      rewriter.eraseOp(extractOp);
    return success();
  }
};

/// Dimension `dim` of `value` on the host: a constant where static.
Value getHostDim(RewriterBase &rewriter, Location loc, Value value,
                 int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(dim));
  return host::DimOp::create(rewriter, loc, rewriter.getIndexType(), value,
                             rewriter.getIndexAttr(dim));
}

/// The dynamic dimensions of the result of reshape `op`, as host values;
/// failure for a reshape whose result sizes the host cannot compute.
FailureOr<SmallVector<Value>> getReshapeResultDims(RewriterBase &rewriter,
                                                   Operation *op) {
  Location loc = op->getLoc();
  Value source = op->getOperand(0);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> dims;
  if (resultType.hasStaticShape())
    return dims;
  if (isa<tensor::CastOp>(op)) {
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d))
        dims.push_back(getHostDim(rewriter, loc, source, d));
    return dims;
  }
  if (auto expandOp = dyn_cast<tensor::ExpandShapeOp>(op)) {
    for (auto [d, size] : llvm::enumerate(expandOp.getMixedOutputShape()))
      if (resultType.isDynamicDim(d))
        dims.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
    return dims;
  }
  if (auto collapseOp = dyn_cast<tensor::CollapseShapeOp>(op)) {
    for (auto [d, group] :
         llvm::enumerate(collapseOp.getReassociationIndices())) {
      if (!resultType.isDynamicDim(d))
        continue;
      Value product;
      for (int64_t sourceDim : group) {
        Value size = getHostDim(rewriter, loc, source, sourceDim);
        product = product ? arith::MulIOp::create(rewriter, loc, product, size)
                          : size;
      }
      dims.push_back(product);
    }
    return dims;
  }
  return failure();
}

/// Reshapes of every kind view the same bytes.
template <typename OpTy>
struct ConvertReshape : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> dims = getReshapeResultDims(rewriter, op);
    if (failed(dims))
      return rewriter.notifyMatchFailure(op, "result sizes unknown");
    rewriter.replaceOpWithNewOp<host::ReshapeOp>(op, op->getResult(0).getType(),
                                                 op->getOperand(0), *dims);
    return success();
  }
};

/// Index arithmetic the host runs: `expr` over `dims` and `symbols` (a
/// result size reified as an affine map) in the arith ops of
/// host::isIndexArithmetic. Affine mod is floored: a - b * floordiv(a, b).
Value buildAffineExpr(OpBuilder &builder, Location loc, AffineExpr expr,
                      ValueRange dims, ValueRange symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(builder, loc, constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = buildAffineExpr(builder, loc, binary.getLHS(), dims, symbols);
  Value rhs = buildAffineExpr(builder, loc, binary.getRHS(), dims, symbols);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return arith::FloorDivSIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return arith::CeilDivSIOp::create(builder, loc, lhs, rhs);
  default: {
    Value quotient = arith::FloorDivSIOp::create(builder, loc, lhs, rhs);
    return arith::SubIOp::create(
        builder, loc, lhs, arith::MulIOp::create(builder, loc, rhs, quotient));
  }
  }
}

struct ConvertAffineApply : OpRewritePattern<affine::AffineApplyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(affine::AffineApplyOp op,
                                PatternRewriter &rewriter) const override {
    AffineMap map = op.getAffineMap();
    rewriter.replaceOp(op, buildAffineExpr(rewriter, op.getLoc(),
                                           map.getResult(0), op.getDimOperands(),
                                           op.getSymbolOperands()));
    return success();
  }
};

/// Opaque to the compiler so far; from here on nothing folds, and at run
/// time the values pass through.
struct ConvertOptimizationBarrier
    : OpRewritePattern<util::OptimizationBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(util::OptimizationBarrierOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getOperands());
    return success();
  }
};

template <typename OpTy, host::CheckKind kind>
struct ConvertCheck : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0);
    Value rhs = op->getNumOperands() > 1 ? op->getOperand(1) : Value();
    FloatAttr atol, rtol;
    if constexpr (std::is_same_v<OpTy, check::ExpectAlmostEqOp>) {
      atol = op.getAtolAttr();
      rtol = op.getRtolAttr();
    }
    rewriter.replaceOpWithNewOp<host::CheckOp>(
        op, host::CheckKindAttr::get(op.getContext(), kind), lhs, rhs, atol,
        rtol);
    return success();
  }
};

struct ConvertReturn : OpRewritePattern<func::ReturnOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(func::ReturnOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<host::ReturnOp>(op, op.getOperands());
    return success();
  }
};

/// cond ? then : else, both joining the block that holds the rest.
struct ConvertIf : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    Value condition = getConditionTensor(op.getCondition());
    if (!condition)
      return rewriter.notifyMatchFailure(op,
                                         "condition not read from a tensor");
    Location loc = op.getLoc();
    Block *block = op->getBlock();
    Block *rest = rewriter.splitBlock(block, std::next(op->getIterator()));
    Block *join =
        rewriter.createBlock(rest, op.getResultTypes(),
                             SmallVector<Location>(op.getNumResults(), loc));
    rewriter.mergeBlocks(rest, join);
    auto inlineBranch = [&](Region &region) -> Block * {
      if (region.empty())
        return join;
      Block *first = &region.front();
      Block *last = &region.back();
      auto yieldOp = cast<scf::YieldOp>(last->getTerminator());
      rewriter.setInsertionPoint(yieldOp);
      createBranch(rewriter, loc, join, yieldOp.getOperands());
      rewriter.eraseOp(yieldOp);
      rewriter.inlineRegionBefore(region, join);
      return first;
    };
    Block *thenBlock = inlineBranch(op.getThenRegion());
    Block *elseBlock = inlineBranch(op.getElseRegion());
    rewriter.setInsertionPoint(op);
    host::CondBranchOp::create(rewriter, loc, condition, thenBlock, elseBlock);
    rewriter.replaceOp(op, join->getArguments());
    return success();
  }
};

/// before(args) -> cond ? after : exit; after -> before(yielded). The
/// condition's values dominate both the after-block and the exit, which
/// read them in place of the after-block's arguments and the loop's
/// results.
struct ConvertWhile : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::WhileOp op,
                                PatternRewriter &rewriter) const override {
    auto conditionOp =
        cast<scf::ConditionOp>(op.getBefore().back().getTerminator());
    Value condition = getConditionTensor(conditionOp.getCondition());
    if (!condition)
      return rewriter.notifyMatchFailure(op,
                                         "condition not read from a tensor");
    Location loc = op.getLoc();
    Block *block = op->getBlock();
    Block *exit = rewriter.splitBlock(block, std::next(op->getIterator()));
    Block *before = &op.getBefore().front();
    Block *after = &op.getAfter().front();
    Block *afterLast = &op.getAfter().back();
    SmallVector<Value> forwarded(conditionOp.getArgs());
    for (auto [arg, value] : llvm::zip(after->getArguments(), forwarded))
      rewriter.replaceAllUsesWith(arg, value);
    after->eraseArguments(0, after->getNumArguments());

    auto yieldOp = cast<scf::YieldOp>(afterLast->getTerminator());
    rewriter.setInsertionPoint(yieldOp);
    createBranch(rewriter, loc, before, yieldOp.getOperands());
    rewriter.eraseOp(yieldOp);
    rewriter.setInsertionPoint(conditionOp);
    host::CondBranchOp::create(rewriter, loc, condition, after, exit);
    rewriter.eraseOp(conditionOp);

    rewriter.inlineRegionBefore(op.getAfter(), exit);
    rewriter.inlineRegionBefore(op.getBefore(), after);
    rewriter.setInsertionPoint(op);
    createBranch(rewriter, loc, before, op.getInits());
    rewriter.replaceOp(op, forwarded);
    return success();
  }
};

/// Whether `op` is something the patterns lower (or that goes with it);
/// otherwise an error at `op` says why it cannot run on the host.
LogicalResult checkLowerable(Operation *op) {
  if (host::isIndexArithmetic(op) || isa<affine::AffineApplyOp>(op))
    return success();
  if (auto dimOp = dyn_cast<tensor::DimOp>(op)) {
    if (dimOp.getConstantIndex())
      return success();
    return dimOp.emitError("a dimension read on the host has a constant index");
  }
  if (auto reshapeOp = dyn_cast<tensor::ReshapeOp>(op);
      reshapeOp && !reshapeOp.getType().hasStaticShape())
    return reshapeOp.emitError(
        "a reshape to a shape computed in a tensor cannot run on the host");
  if (isa<func::ReturnOp, tensor::EmptyOp, DispatchOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::CastOp, tensor::ReshapeOp,
          util::OptimizationBarrierOp, check::ExpectTrueOp,
          check::ExpectFalseOp, check::ExpectAllTrueOp, check::ExpectEqOp,
          check::ExpectAlmostEqOp, scf::YieldOp>(op))
    return success();
  if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
    // Scalars read only by dispatches were copied into them.
    if (isa<ElementsAttr>(constantOp.getValue()) || constantOp->use_empty())
      return success();
    return constantOp.emitError("scalar constants cannot live on the host");
  }
  if (auto extractOp = dyn_cast<tensor::ExtractOp>(op)) {
    // Read by the branch that uses it, or made an index (a size).
    if (host::isSizeRead(extractOp) ||
        llvm::all_of(extractOp->getUsers(), [](Operation *user) {
          return isa<scf::IfOp, scf::ConditionOp>(user);
        }))
      return success();
    return extractOp.emitError(
        "a tensor element read on the host only decides control flow or "
        "is a size (an index, at a constant position)");
  }
  // Made an index from an element the host reads.
  if (host::isSizeRead(op))
    return success();
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (!getConditionTensor(ifOp.getCondition()))
      return ifOp.emitError(
          "a host branch condition must be read from a 0-d tensor<i1>");
    return success();
  }
  if (auto conditionOp = dyn_cast<scf::ConditionOp>(op)) {
    if (!getConditionTensor(conditionOp.getCondition()))
      return conditionOp.emitError(
          "a host branch condition must be read from a 0-d tensor<i1>");
    return success();
  }
  if (isa<scf::WhileOp>(op))
    return success();
  return op->emitError() << "'" << op->getName() << "' cannot run on the host";
}

/// Host values are slots of ranked tensors, and indices (dimensions and
/// the arithmetic on them).
LogicalResult checkHostValue(Location loc, Value value) {
  if (isa<RankedTensorType>(value.getType()) || value.getType().isIndex())
    return success();
  // Scalars read only by dispatches (constants) are erased with their op.
  if (value.use_empty())
    return success();
  return emitError(loc) << "host value of type " << value.getType()
                        << " is not a ranked tensor or an index";
}

struct ConvertToHostPass : impl::ConvertToHostPassBase<ConvertToHostPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    if (funcOp.isExternal())
      return;
    // Host code is the function's own body and the regions of its host
    // control flow, not the bodies of ops such as linalg's.
    WalkResult walk = funcOp.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == funcOp)
        return WalkResult::advance();
      if (failed(checkLowerable(op)))
        return WalkResult::interrupt();
      // A condition's scalar goes with the branch that reads it.
      if (!isa<tensor::ExtractOp>(op))
        for (Value result : op->getResults())
          if (failed(checkHostValue(op->getLoc(), result)))
            return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (BlockArgument arg : region.getArguments())
          if (failed(checkHostValue(op->getLoc(), arg)))
            return WalkResult::interrupt();
      return isa<scf::IfOp, scf::WhileOp>(op) ? WalkResult::advance()
                                              : WalkResult::skip();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (BlockArgument arg : funcOp.getArguments())
      if (failed(checkHostValue(funcOp.getLoc(), arg)))
        return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateConvertToHostPatterns(patterns);
    // Outer control flow first, so that an op is lowered once its region
    // is part of the function's CFG; blocks stay as the patterns made them.
    // Nothing folds: a barrier's values pass through, but what the program
    // computes from them must not be computed here instead (a condition
    // read from a constant would fold into a scalar no branch can test).
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableFolding(false);
    config.enableConstantCSE(false);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns), config)))
      return signalPassFailure();
    // Index arithmetic only the converted ops read (a tensor.dim's index).
    SmallVector<Operation *> indexOps;
    funcOp.walk([&](Operation *op) {
      if (host::isIndexArithmetic(op))
        indexOps.push_back(op);
    });
    for (Operation *op : llvm::reverse(indexOps))
      if (op->use_empty())
        op->erase();
    WalkResult left = funcOp.walk([&](Operation *op) {
      if (op == funcOp || isa<host::HostDialect>(op->getDialect()) ||
          host::isIndexArithmetic(op))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' was not lowered to host ops";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace

void populateConvertToHostPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      ConvertConstant, ConvertEmpty, ConvertDispatch, ConvertDim,
      ConvertAffineApply, ConvertReshape<tensor::ExpandShapeOp>,
      ConvertReshape<tensor::CollapseShapeOp>, ConvertReshape<tensor::CastOp>,
      ConvertReshape<tensor::ReshapeOp>, ConvertOptimizationBarrier,
      ConvertCheck<check::ExpectTrueOp, host::CheckKind::ExpectTrue>,
      ConvertCheck<check::ExpectFalseOp, host::CheckKind::ExpectFalse>,
      ConvertCheck<check::ExpectAllTrueOp, host::CheckKind::ExpectAllTrue>,
      ConvertCheck<check::ExpectEqOp, host::CheckKind::ExpectEq>,
      ConvertCheck<check::ExpectAlmostEqOp, host::CheckKind::ExpectAlmostEq>,
      ConvertIndexOfElement<arith::IndexCastOp>,
      ConvertIndexOfElement<arith::IndexCastUIOp>, ConvertReturn, ConvertIf,
      ConvertWhile>(context);
}

} // namespace mlir::kiln
