//===- ConvertToLLVM.cpp - kernels to LLVM with the library ABI -----------===//
//
// Kernels take the two state structures of executable_library.h. Their LLVM
// struct types below must match that header field for field.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "kiln/executable_library.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTTOLLVMPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// kiln_dispatch_state_v0_t.
LLVM::LLVMStructType getDispatchStateType(MLIRContext *context) {
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  auto ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(
      context, {LLVM::LLVMArrayType::get(i32, 3), i32, ptr, ptr, i32, i32, ptr,
                LLVM::LLVMArrayType::get(i64, 2)});
}

/// Fields of kiln_dispatch_state_v0_t, as numbered above.
enum DispatchStateField : int32_t {
  kWorkgroupCountField = 0,
  kBindingPtrsField = 2,
  kConstantsField = 6,
};

/// kiln_workgroup_state_v0_t.
LLVM::LLVMStructType getWorkgroupStateType(MLIRContext *context) {
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  return LLVM::LLVMStructType::getLiteral(
      context, {LLVM::LLVMArrayType::get(i32, 3), i32,
                LLVM::LLVMArrayType::get(i64, 2)});
}

enum StateArgument { kDispatchState = 0, kWorkgroupState = 1 };

Value getStateArgument(Operation *op, StateArgument which) {
  auto funcOp = op->getParentOfType<FunctionOpInterface>();
  return funcOp.getFunctionBody().front().getArgument(which);
}

/// Loads the i32 at `state[0][field][index]` as an index value.
Value loadStateField(ConversionPatternRewriter &rewriter, Location loc,
                     const LLVMTypeConverter &converter, Value state,
                     Type stateType, int32_t field, int32_t index) {
  auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
  Value address = LLVM::GEPOp::create(rewriter, loc, ptrType, stateType, state,
                                      ArrayRef<LLVM::GEPArg>{0, field, index},
                                      LLVM::GEPNoWrapFlags::inbounds);
  Value value = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(),
                                     address, /*alignment=*/4,
                                     /*isVolatile=*/false,
                                     /*isNonTemporal=*/false,
                                     /*isInvariant=*/true);
  return LLVM::ZExtOp::create(rewriter, loc, converter.getIndexType(), value);
}

/// Loads element `index` (of `elementType`) of the array the dispatch
/// state's pointer field `field` points to: a binding's base pointer, a
/// dispatch constant. Both stay as they are for the whole dispatch.
Value loadDispatchStateElement(ConversionPatternRewriter &rewriter,
                               Location loc, Operation *op, int32_t field,
                               int64_t index, Type elementType) {
  MLIRContext *context = rewriter.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto load = [&](Type type, Value address) -> Value {
    return LLVM::LoadOp::create(rewriter, loc, type, address, /*alignment=*/8,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/true);
  };
  Value fieldAddress = LLVM::GEPOp::create(
      rewriter, loc, ptrType, getDispatchStateType(context),
      getStateArgument(op, kDispatchState), ArrayRef<LLVM::GEPArg>{0, field},
      LLVM::GEPNoWrapFlags::inbounds);
  Value elementAddress = LLVM::GEPOp::create(
      rewriter, loc, ptrType, elementType, load(ptrType, fieldAddress),
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)},
      LLVM::GEPNoWrapFlags::inbounds);
  return load(elementType, elementAddress);
}

struct BindingOpLowering : ConvertOpToLLVMPattern<BindingOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BindingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = loadDispatchStateElement(
        rewriter, loc, op, kBindingPtrsField, op.getIndex().getSExtValue(),
        LLVM::LLVMPointerType::get(rewriter.getContext()));
    MemRefType type = op.getType();
    if (type.hasStaticShape()) {
      auto descriptor = MemRefDescriptor::fromStaticShape(
          rewriter, loc, *getTypeConverter(), type, base);
      rewriter.replaceOp(op, {descriptor});
      return success();
    }
    // Row-major strides over the dynamic sizes.
    SmallVector<Value> sizes, strides;
    Value size;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, size, /*sizeInBytes=*/false);
    Value descriptor =
        createMemRefDescriptor(loc, type, base, base, sizes, strides, rewriter);
    rewriter.replaceOp(op, descriptor);
    return success();
  }
};

/// Loads the i64 at `state->constants[index]` as an index value.
struct DispatchConstantOpLowering : ConvertOpToLLVMPattern<DispatchConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DispatchConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value value = loadDispatchStateElement(
        rewriter, op.getLoc(), op, kConstantsField,
        op.getIndex().getSExtValue(), rewriter.getI64Type());
    rewriter.replaceOp(op, value);
    return success();
  }
};

template <typename OpT, StateArgument which, int32_t field>
struct StateFieldLowering : ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    Type stateType = which == kDispatchState ? getDispatchStateType(context)
                                             : getWorkgroupStateType(context);
    int32_t dimension = op.getDimension().getSExtValue();
    rewriter.replaceOp(op, loadStateField(rewriter, op.getLoc(),
                                          *this->getTypeConverter(),
                                          getStateArgument(op, which),
                                          stateType, field, dimension));
    return success();
  }
};

/// `func.func @k()` becomes `func.func @k(ptr, ptr) -> i32` returning 0, or
/// KILN_DISPATCH_OUT_OF_BOUNDS where a check of its body fails.
LogicalResult rewriteKernelSignature(func::FuncOp funcOp) {
  MLIRContext *context = funcOp.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto i32 = IntegerType::get(context, 32);
  Block &entry = funcOp.getBody().front();
  entry.addArgument(ptrType, funcOp.getLoc());
  entry.addArgument(ptrType, funcOp.getLoc());
  funcOp.setFunctionType(FunctionType::get(context, {ptrType, ptrType}, {i32}));
  funcOp.walk([&](func::ReturnOp returnOp) {
    OpBuilder builder(returnOp);
    Value zero = arith::ConstantOp::create(builder, returnOp.getLoc(),
                                           builder.getI32IntegerAttr(0));
    returnOp->setOperands(zero);
  });
  SmallVector<cf::AssertOp> checks;
  WalkResult nested = funcOp.walk([&](cf::AssertOp assertOp) {
    if (assertOp->getParentOp() != funcOp)
      return WalkResult::interrupt();
    checks.push_back(assertOp);
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return funcOp.emitOpError("has a check inside a region; only the "
                              "function's body can fail its workgroup");
  if (checks.empty())
    return success();
  // Every failed check returns through one block.
  Block *fail = new Block();
  funcOp.getBody().push_back(fail);
  OpBuilder builder = OpBuilder::atBlockEnd(fail);
  func::ReturnOp::create(
      builder, funcOp.getLoc(),
      ValueRange{arith::ConstantOp::create(
          builder, funcOp.getLoc(),
          builder.getI32IntegerAttr(KILN_DISPATCH_OUT_OF_BOUNDS))});
  for (cf::AssertOp assertOp : checks) {
    Block *after = assertOp->getBlock()->splitBlock(assertOp->getNextNode());
    builder.setInsertionPoint(assertOp);
    cf::CondBranchOp::create(builder, assertOp.getLoc(), assertOp.getArg(),
                             after, fail);
    assertOp.erase();
  }
  return success();
}

/// Math ops approximated by vectorizable polynomials rather than libm calls.
bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"tanh", "erf", "erfc", "exp", "expm1", "log",
                             "log1p", "log2", "atan", "atan2"},
                            name);
}

/// Math ops that neither LLVM intrinsics nor the approximations cover become
/// libm calls; the runtime process provides libm.
bool needsLibm(Operation *op) {
  return isa<math::AcosOp, math::AcoshOp, math::AsinOp, math::AsinhOp,
             math::AtanOp, math::Atan2Op, math::AtanhOp, math::CbrtOp,
             math::CoshOp, math::ErfOp, math::ErfcOp, math::SinhOp, math::TanOp,
             math::TanhOp>(op);
}

/// The logistic function as importers write it, 1 / (1 + exp(-x)), computed
/// as 0.5 + 0.5 * tanh(x / 2): tanh's rational approximation takes about a
/// third fewer operations than exp's polynomial with its range reduction,
/// and the same one division (EfficientNet-B0's SiLU epilogues, 1 thread:
/// the model 7% faster in AVX-512 code, 8% in AVX2 code). Its absolute error
/// stays under 1.5e-7 (over -30..30), as ONNX Runtime's logistic does; like
/// that one it loses relative accuracy far below zero (2e-3 at -10), where 1 /
/// (1 + exp(-x)) kept 1.2e-7. f32 only, the width tanh's approximation is
/// written for.
struct LogisticAsTanh : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    auto isOne = [](Value value) { return matchPattern(value, m_OneFloat()); };
    auto sum = op.getRhs().getDefiningOp<arith::AddFOp>();
    if (!isOne(op.getLhs()) || !sum ||
        (!isOne(sum.getLhs()) && !isOne(sum.getRhs())))
      return rewriter.notifyMatchFailure(op, "not 1 / (1 + b)");
    Value other = isOne(sum.getLhs()) ? sum.getRhs() : sum.getLhs();
    auto exp = other.getDefiningOp<math::ExpOp>();
    auto negated =
        exp ? exp.getOperand().getDefiningOp<arith::NegFOp>() : arith::NegFOp();
    if (!negated)
      return rewriter.notifyMatchFailure(op, "not 1 / (1 + exp(-x))");
    Location loc = op.getLoc();
    Type type = op.getType();
    TypedAttr halfAttr = rewriter.getFloatAttr(getElementTypeOrSelf(type), 0.5);
    if (auto vectorType = dyn_cast<VectorType>(type))
      halfAttr = DenseElementsAttr::get(vectorType, halfAttr);
    Value half = arith::ConstantOp::create(rewriter, loc, halfAttr);
    Value halfX =
        arith::MulFOp::create(rewriter, loc, negated.getOperand(), half);
    Value tanh = math::TanhOp::create(rewriter, loc, halfX);
    rewriter.replaceOpWithNewOp<math::FmaOp>(op, tanh, half, half);
    return success();
  }
};

LogicalResult lowerMath(ModuleOp moduleOp) {
  MLIRContext *context = moduleOp.getContext();
  {
    // Before the approximations, which would expand its exp.
    RewritePatternSet patterns(context);
    patterns.add<LogisticAsTanh>(context);
    if (failed(applyPatternsGreedily(moduleOp, std::move(patterns))))
      return failure();
  }
  {
    RewritePatternSet patterns(context);
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    math::populateExpansionPatterns(patterns, {"fpowi", "roundeven"});
    if (failed(applyPatternsGreedily(moduleOp, std::move(patterns))))
      return failure();
  }
  SmallVector<Operation *> libmOps;
  moduleOp.walk([&](Operation *op) {
    if (needsLibm(op))
      libmOps.push_back(op);
  });
  if (libmOps.empty())
    return success();
  RewritePatternSet patterns(context);
  populateMathToLibmConversionPatterns(patterns);
  return applyOpPatternsGreedily(libmOps, std::move(patterns));
}

struct ConvertToLLVMPass : impl::ConvertToLLVMPassBase<ConvertToLLVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    MLIRContext *context = &getContext();
    for (auto funcOp : moduleOp.getOps<func::FuncOp>())
      if (funcOp.isPublic() && !funcOp.isExternal() &&
          funcOp.getNumArguments() == 0 && funcOp.getNumResults() == 0)
        if (failed(rewriteKernelSignature(funcOp)))
          return signalPassFailure();
    if (failed(lowerMath(moduleOp)))
      return signalPassFailure();
    {
      // x86 has no bf16 arithmetic: compute in f32, round on the way back
      // (the rounding itself is expanded to integer ops below, as LLVM
      // would otherwise call a compiler-rt helper the kernel cannot link).
      TypeConverter converter;
      Type bf16 = BFloat16Type::get(context), f32 = Float32Type::get(context);
      arith::populateEmulateUnsupportedFloatsConversions(converter, {bf16},
                                                         f32);
      RewritePatternSet patterns(context);
      arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
      ConversionTarget target(*context);
      arith::populateEmulateUnsupportedFloatsLegality(target, converter);
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(moduleOp, target, std::move(patterns))))
        return signalPassFailure();
    }
    {
      // Subviews become explicit offset arithmetic; bf16 arithmetic goes
      // through f32.
      RewritePatternSet patterns(context);
      memref::populateExpandStridedMetadataPatterns(patterns);
      arith::populateExpandBFloat16Patterns(patterns);
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      // Cleanups since vector lowering may have re-formed n-D vector ops.
      populateLowerVectorsPatterns(patterns);
      if (failed(applyPatternsGreedily(moduleOp, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      populateAffineToStdConversionPatterns(patterns);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*context);
      target.addIllegalDialect<affine::AffineDialect, scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(moduleOp, target, std::move(patterns))))
        return signalPassFailure();
    }

    LowerToLLVMOptions options(context);
    LLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    patterns.add<BindingOpLowering, DispatchConstantOpLowering>(converter);
    patterns.add<StateFieldLowering<WorkgroupIdOp, kWorkgroupState, 0>,
                 StateFieldLowering<WorkgroupCountOp, kDispatchState,
                                    kWorkgroupCountField>>(converter);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    vector::populateVectorTransferLoweringPatterns(patterns);
    // Masks of transfers that overhang their buffer: lane indices compared
    // with the bound (32-bit lanes, as LLVM's x86 backend prefers).
    vector::populateVectorMaskMaterializationPatterns(
        patterns, /*force32BitVectorIndices=*/true);
    populateVectorToLLVMConversionPatterns(converter, patterns,
                                           reassociateFpReductions);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*context);
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(moduleOp, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
