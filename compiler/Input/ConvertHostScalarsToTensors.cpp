//===- ConvertHostScalarsToTensors.cpp - host scalars as 0-d tensors ------===//
//
// Host ops are visited parents first. Each op that computes a scalar is
// recreated on 0-d tensors (index as i64); each use of its old result then
// either takes the tensor (ops that run on the host as tensor ops, control
// flow carrying it) or, for ops that need the scalar itself (an scf.if
// condition, a slice offset, a fill value), reads it back with
// tensor.extract just before the use. Those reads are pure: dispatch
// formation clones them into the dispatch that needs them. A computed
// scalar (a size) a tensor op takes becomes a 0-d tensor a kernel writes.
//
//===----------------------------------------------------------------------===//

#include "Input/Passes.h"

#include "Dialect/Host/IR/HostOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTHOSTSCALARSTOTENSORSPASS
#include "Input/Passes.h.inc"

namespace {

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// The 0-d tensor a scalar of `type` becomes (index becomes i64).
RankedTensorType getTensorType(Type type) {
  if (type.isIndex())
    type = IntegerType::get(type.getContext(), 64);
  return RankedTensorType::get({}, type);
}

/// Ops whose regions are host code (as opposed to element computations of
/// linalg or tensor ops).
bool holdsHostCode(Operation *op) {
  return isa<func::FuncOp, scf::IfOp, scf::WhileOp, scf::ExecuteRegionOp>(op);
}

/// Host ops that take a host scalar as a 0-d tensor operand: control flow
/// carrying it, checks, barriers, and the scalar arith/math that becomes
/// tensor arith/math. (Conditions are the exception, handled apart.)
bool takesTensorOperands(Operation *op) {
  if (isa<scf::YieldOp, scf::WhileOp, scf::ConditionOp,
          util::OptimizationBarrierOp, check::ExpectTrueOp,
          check::ExpectFalseOp, tensor::FromElementsOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op))
    return true;
  return op->hasTrait<OpTrait::Elementwise>() &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         op->getNumResults() == 1 && isScalar(op->getResult(0).getType());
}

class HostScalarConverter {
public:
  explicit HostScalarConverter(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Converts every host op nested in `root`.
  LogicalResult run(Operation *root) {
    WalkResult result = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != root && !isHostOp(op))
        return WalkResult::skip();
      if (op == root || created.contains(op))
        return WalkResult::advance();
      if (failed(convert(op)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

private:
  static bool isHostOp(Operation *op) {
    Operation *parent = op->getParentOp();
    return parent && holdsHostCode(parent);
  }

  /// Dimensions of tensors, sizes read from tensors' contents, index
  /// constants behind a barrier (sizes the compiler must not see), and index
  /// arithmetic on them and on constants stay scalars: the host computes
  /// shapes with them.
  bool isShapeComputation(Operation *op) {
    if (auto dimOp = dyn_cast<tensor::DimOp>(op))
      return dimOp.getConstantIndex().has_value();
    if (host::isSizeRead(op))
      return true;
    if (isa<util::OptimizationBarrierOp>(op))
      return llvm::all_of(op->getOperands(), [&](Value operand) {
        return operand.getType().isIndex() &&
               (shapeValues.contains(operand) ||
                matchPattern(operand, m_Constant()));
      });
    if (isa<arith::ConstantOp>(op) || !host::isIndexArithmetic(op))
      return false;
    bool readsShape = false;
    for (Value operand : op->getOperands()) {
      if (shapeValues.contains(operand)) {
        readsShape = true;
        continue;
      }
      if (!matchPattern(operand, m_Constant()))
        return false;
    }
    return readsShape;
  }

  LogicalResult convert(Operation *op) {
    // Scalar constants stay: each use that wants a tensor gets a 0-d copy,
    // the others (fill values, slice offsets) keep the scalar.
    if (isa<arith::ConstantOp>(op))
      return success();
    if (isShapeComputation(op)) {
      shapeValues.insert_range(op->getResults());
      return success();
    }
    if (auto conditionOp = dyn_cast<scf::ConditionOp>(op)) {
      Value condition = conditionOp.getCondition();
      if (isa<RankedTensorType>(condition.getType()))
        conditionOp.getConditionMutable().assign(
            readScalar(op, condition, rewriter.getI1Type()));
      tensorizeOperands(op, /*from=*/1);
      return success();
    }
    if (isa<scf::YieldOp, util::OptimizationBarrierOp, check::ExpectTrueOp,
            check::ExpectFalseOp>(op)) {
      tensorizeOperands(op);
      convertResults(op);
      return success();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      tensorizeOperands(op);
      for (Block *block : {whileOp.getBeforeBody(), whileOp.getAfterBody()})
        for (BlockArgument arg : block->getArguments())
          if (isScalar(arg.getType()))
            replaceScalar(arg, [&] {
              arg.setType(getTensorType(arg.getType()));
              return Value(arg);
            });
      convertResults(op);
      return success();
    }
    if (isa<scf::IfOp>(op)) {
      convertResults(op);
      return success();
    }
    if (auto fromElementsOp = dyn_cast<tensor::FromElementsOp>(op)) {
      // Elements that became 0-d tensors are joined as tensors (scalar
      // constants alone keep the plain form).
      if (llvm::all_of(op->getOperandTypes(), isScalar))
        return success();
      convertFromElements(fromElementsOp);
      return success();
    }
    if (isa<func::ReturnOp>(op) ||
        llvm::none_of(op->getResultTypes(), isScalar))
      return success();

    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value replacement;
    if (auto extractOp = dyn_cast<tensor::ExtractOp>(op)) {
      FailureOr<Value> element = extractElement(extractOp);
      if (failed(element))
        return failure();
      replacement = *element;
    } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
      // Index is i64 on the host: a width change, if any.
      tensorizeOperands(op);
      rewriter.setInsertionPoint(op);
      replacement = castInteger(loc, op->getOperand(0),
                                getTensorType(op->getResult(0).getType()),
                                isa<arith::IndexCastUIOp>(op));
    } else if (takesTensorOperands(op)) {
      // arith and math compute on 0-d tensors as they do on scalars.
      tensorizeOperands(op);
      rewriter.setInsertionPoint(op);
      OperationState state(loc, op->getName());
      state.addOperands(op->getOperands());
      state.addAttributes(op->getAttrs());
      state.addTypes(getTensorType(op->getResult(0).getType()));
      replacement = rewriter.create(state)->getResult(0);
    } else {
      return op->emitError()
             << "'" << op->getName()
             << "' computes a scalar on the host, which kiln does not run; "
                "compute it with tensor ops";
    }
    replaceScalar(op->getResult(0), [&] { return replacement; });
    rewriter.eraseOp(op);
    return success();
  }

  /// tensor.from_elements of 0-d tensors: each element as a 1-element
  /// tensor, concatenated, then shaped like the result.
  void convertFromElements(tensor::FromElementsOp op) {
    tensorizeOperands(op);
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Value replacement;
    if (resultType.getRank() == 0) {
      replacement = op.getElements().front();
    } else {
      Type elementType = resultType.getElementType();
      auto oneType = RankedTensorType::get({1}, elementType);
      SmallVector<Value> pieces;
      for (Value element : op.getElements())
        pieces.push_back(
            tensor::ExpandShapeOp::create(rewriter, loc, oneType, element,
                                          SmallVector<ReassociationIndices>{}));
      Value flat =
          pieces.size() == 1
              ? pieces.front()
              : tensor::ConcatOp::create(rewriter, loc, /*dim=*/0, pieces)
                    .getResult();
      replacement = flat;
      if (resultType.getRank() > 1) {
        ReassociationIndices all;
        for (int64_t d = 0; d < resultType.getRank(); ++d)
          all.push_back(d);
        replacement = tensor::ExpandShapeOp::create(
            rewriter, loc, resultType, flat,
            SmallVector<ReassociationIndices>{all});
      }
    }
    rewriter.replaceOp(op, replacement);
  }

  /// Gives every scalar operand of `op` (from index `from` on) as a 0-d
  /// tensor.
  void tensorizeOperands(Operation *op, unsigned from = 0) {
    for (OpOperand &operand : llvm::drop_begin(op->getOpOperands(), from))
      if (isScalar(operand.get().getType()))
        operand.set(toTensor(op, operand.get()));
  }

  /// A 0-d tensor holding scalar `value`, made before `user`.
  Value toTensor(Operation *user, Value value) {
    OpBuilder::InsertionGuard guard(rewriter);
    auto constantOp = value.getDefiningOp<arith::ConstantOp>();
    if (constantOp) {
      Value &cached = constantTensors[constantOp];
      if (!cached) {
        rewriter.setInsertionPointAfter(constantOp);
        TypedAttr attr = constantOp.getValue();
        RankedTensorType type = getTensorType(attr.getType());
        Attribute element = attr;
        if (attr.getType().isIndex())
          element = IntegerAttr::get(type.getElementType(),
                                     cast<IntegerAttr>(attr).getInt());
        cached =
            arith::ConstantOp::create(rewriter, constantOp.getLoc(),
                                      DenseElementsAttr::get(type, element));
        created.insert(cached.getDefiningOp());
      }
      return cached;
    }
    // Written by a kernel the scalar is passed to: the host keeps sizes
    // in registers and writes no tensor elements itself.
    rewriter.setInsertionPoint(user);
    Location loc = user->getLoc();
    RankedTensorType type = getTensorType(value.getType());
    auto empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{empty},
        AffineMap::get(rewriter.getContext()), {},
        [&](OpBuilder &b, Location nestedLoc, ValueRange) {
          Value scalar = value;
          if (scalar.getType().isIndex())
            scalar = arith::IndexCastOp::create(b, nestedLoc,
                                                type.getElementType(), scalar);
          linalg::YieldOp::create(b, nestedLoc, scalar);
        });
    created.insert(empty);
    created.insert(generic);
    return generic.getResult(0);
  }

  /// Retypes the scalar results of `op` (control flow, barriers) in place.
  void convertResults(Operation *op) {
    for (OpResult result : op->getResults())
      if (isScalar(result.getType()))
        replaceScalar(result, [&] {
          result.setType(getTensorType(result.getType()));
          return Value(result);
        });
  }

  /// Redirects the uses of scalar `old` to the tensor `makeTensor()` makes:
  /// host ops that take tensors get it, others (conditions, ops that need
  /// the scalar) read the scalar back first.
  void replaceScalar(Value old, function_ref<Value()> makeTensor) {
    Type scalarType = old.getType();
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : old.getUses())
      uses.push_back(&use);
    Value tensor = makeTensor();
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      bool isCondition = isa<scf::IfOp, scf::ConditionOp>(user) &&
                         use->getOperandNumber() == 0;
      if (isHostOp(user) && takesTensorOperands(user) && !isCondition) {
        use->set(tensor);
        continue;
      }
      use->set(readScalar(user, tensor, scalarType));
    }
  }

  /// `tensor.extract %tensor[]` before `user`, cast back to `type`.
  Value readScalar(Operation *user, Value tensor, Type type) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(user);
    Location loc = user->getLoc();
    Operation *read = tensor::ExtractOp::create(rewriter, loc, tensor);
    created.insert(read);
    Value element = read->getResult(0);
    if (type.isIndex()) {
      Operation *cast =
          arith::IndexCastOp::create(rewriter, loc, type, element);
      created.insert(cast);
      element = cast->getResult(0);
    }
    return element;
  }

  /// One element of a tensor on the host, as a 0-d tensor.
  FailureOr<Value> extractElement(tensor::ExtractOp op) {
    auto sourceType = op.getTensor().getType();
    if (sourceType.getRank() == 0)
      return op.getTensor();
    SmallVector<int64_t> offsets;
    for (Value index : op.getIndices()) {
      // A position known at compile time is a slice; a computed one would
      // need the host to read memory it does not otherwise touch.
      APInt value;
      if (!matchPattern(index, m_ConstantInt(&value)))
        return op.emitError("reading a tensor element at a computed position "
                            "on the host is not supported; use constant "
                            "indices or a tensor op");
      offsets.push_back(value.getSExtValue());
    }
    Location loc = op.getLoc();
    SmallVector<int64_t> ones(sourceType.getRank(), 1);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, op.getTensor(),
        getAsIndexOpFoldResult(rewriter.getContext(), offsets),
        getAsIndexOpFoldResult(rewriter.getContext(), ones),
        getAsIndexOpFoldResult(rewriter.getContext(), ones));
    return tensor::CollapseShapeOp::create(
               rewriter, loc,
               RankedTensorType::get({}, sourceType.getElementType()), slice,
               SmallVector<ReassociationIndices>{})
        .getResult();
  }

  Value castInteger(Location loc, Value source, RankedTensorType resultType,
                    bool isUnsigned) {
    auto sourceType = cast<RankedTensorType>(source.getType());
    unsigned from = sourceType.getElementTypeBitWidth();
    unsigned to = resultType.getElementTypeBitWidth();
    if (from == to)
      return source;
    if (from > to)
      return arith::TruncIOp::create(rewriter, loc, resultType, source);
    if (isUnsigned)
      return arith::ExtUIOp::create(rewriter, loc, resultType, source);
    return arith::ExtSIOp::create(rewriter, loc, resultType, source);
  }

  RewriterBase &rewriter;
  /// Ops this pass made, which need no conversion.
  DenseSet<Operation *> created;
  // Index values the host keeps as they are (isShapeComputation).
  DenseSet<Value> shapeValues;
  /// The 0-d tensor of each scalar constant.
  DenseMap<Operation *, Value> constantTensors;
};

struct ConvertHostScalarsToTensorsPass
    : impl::ConvertHostScalarsToTensorsPassBase<
          ConvertHostScalarsToTensorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(HostScalarConverter(rewriter).run(getOperation())))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
