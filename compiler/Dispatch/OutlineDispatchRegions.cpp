//===- OutlineDispatchRegions.cpp - regions to executables + dispatches ---===//

#include "Dispatch/Passes.h"

#include "Analysis/DispatchRootOp.h"
#include "Dialect/Kiln/IR/InputNodes.h"
#include "Dialect/Kiln/IR/InputOps.h"
#include "Target/CPU/CPUTarget.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_OUTLINEDISPATCHREGIONSPASS
#include "Dispatch/Passes.h.inc"

namespace {

/// Elementwise conversion between the i8 storage and tensors of i1, i2, i4
/// or f4E2M1FN (one element per byte, in its low bits).
Value convertElements(OpBuilder &builder, Location loc, Value input,
                      Type elementType) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto resultType = inputType.clone(elementType);
  Value init = tensor::EmptyOp::create(
      builder, loc, tensor::getMixedSizes(builder, loc, input), elementType);
  SmallVector<AffineMap> maps(
      2, builder.getMultiDimIdentityMap(inputType.getRank()));
  SmallVector<utils::IteratorType> iterators(inputType.getRank(),
                                             utils::IteratorType::parallel);
  auto genericOp = linalg::GenericOp::create(
      builder, loc, resultType, input, init, maps, iterators,
      [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        Value value = args[0];
        Type type = value.getType();
        // A float travels as the integer of its bits.
        if (isa<FloatType>(type))
          value = arith::BitcastOp::create(
              b, nestedLoc, b.getIntegerType(type.getIntOrFloatBitWidth()),
              value);
        Type intType =
            isa<FloatType>(elementType)
                ? b.getIntegerType(elementType.getIntOrFloatBitWidth())
                : elementType;
        if (elementType.isInteger(1)) {
          Value zero = arith::ConstantOp::create(
              b, nestedLoc, b.getIntegerAttr(value.getType(), 0));
          value = arith::CmpIOp::create(b, nestedLoc, arith::CmpIPredicate::ne,
                                        value, zero);
        } else if (intType.getIntOrFloatBitWidth() <
                   value.getType().getIntOrFloatBitWidth()) {
          value = arith::TruncIOp::create(b, nestedLoc, intType, value);
        } else {
          value = arith::ExtUIOp::create(b, nestedLoc, intType, value);
        }
        if (intType != elementType)
          value = arith::BitcastOp::create(b, nestedLoc, elementType, value);
        linalg::YieldOp::create(b, nestedLoc, value);
      });
  return genericOp.getResult(0);
}

/// Gives the empty tensor a stored value starts from (through destinations)
/// the binding's extents `sizes` as its dynamic sizes, which they equal: the
/// loops that write the value then run over what the binding holds,
/// whatever arithmetic sized it (a pack's ceil(rows / tile)). A slice an op
/// of the chain reads along the same loops takes those extents too, as the
/// op's loops take their ranges from the first operand that has them; a
/// slice that does not fit at these sizes fails its kernel's bounds check
/// rather than being read past.
void sizeByBinding(Value value, ArrayRef<Value> sizes) {
  if (sizes.empty())
    return;
  auto valueType = cast<RankedTensorType>(value.getType());
  // (slice, dim of the slice, dim of the value) to resize.
  SmallVector<std::tuple<tensor::ExtractSliceOp, int64_t, int64_t>> resized;
  while (auto dpsOp = value.getDefiningOp<DestinationStyleOpInterface>()) {
    OpOperand *init =
        dpsOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber());
    auto linalgOp = dyn_cast<linalg::LinalgOp>(dpsOp.getOperation());
    if (linalgOp && init->get().getType() == valueType) {
      AffineMap initMap = linalgOp.getMatchingIndexingMap(init);
      for (OpOperand *input : linalgOp.getDpsInputOperands()) {
        auto sliceOp = input->get().getDefiningOp<tensor::ExtractSliceOp>();
        if (!sliceOp || !sliceOp->hasOneUse() ||
            sliceOp.getSourceType().getRank() != sliceOp.getType().getRank())
          continue;
        AffineMap inputMap = linalgOp.getMatchingIndexingMap(input);
        for (int64_t dim = 0; dim < sliceOp.getType().getRank(); ++dim) {
          if (!sliceOp.getType().isDynamicDim(dim))
            continue;
          std::optional<unsigned> valueDim =
              initMap.getResultPosition(inputMap.getResult(dim));
          if (valueDim && valueType.isDynamicDim(*valueDim))
            resized.emplace_back(sliceOp, dim, *valueDim);
        }
      }
    }
    value = init->get();
  }
  auto emptyOp = value.getDefiningOp<tensor::EmptyOp>();
  if (!emptyOp)
    return;
  // The constants are read where the function starts, before any use.
  Block &entry = emptyOp->getParentOfType<func::FuncOp>().getBody().front();
  for (Value size : sizes)
    size.getDefiningOp()->moveBefore(&entry, entry.begin());
  emptyOp.getDynamicSizesMutable().assign(sizes);
  for (auto [sliceOp, dim, valueDim] : resized) {
    int64_t sliceIndex = sliceOp.getType().getDynamicDimIndex(dim);
    sliceOp.getSizesMutable()[sliceIndex].assign(
        sizes[valueType.getDynamicDimIndex(valueDim)]);
  }
}

/// Builds the kernel function of `regionOp` whose bindings are `inputs`
/// followed by the region results, and whose dispatch constants after the
/// bindings' dynamic extents are those of `indexInputs` the kernel reads
/// (the others are dropped from `indexInputs`).
LogicalResult buildKernel(OpBuilder &builder, DispatchRegionOp regionOp,
                          ArrayRef<Value> inputs,
                          SmallVector<Value> &indexInputs, StringRef name) {
  Location loc = regionOp.getLoc();
  auto funcOp =
      func::FuncOp::create(builder, loc, name, builder.getFunctionType({}, {}));
  Block *entry = funcOp.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(entry);
  IRMapping mapping;
  int64_t bindingIndex = 0;
  // The dispatch constants: each binding's dynamic extents in turn.
  int64_t constantIndex = 0;
  auto getDynamicSizes = [&](RankedTensorType type) {
    SmallVector<Value> sizes;
    for (int64_t i = 0, e = type.getNumDynamicDims(); i < e; ++i)
      sizes.push_back(DispatchConstantOp::create(
          body, loc, body.getIndexType(), body.getIndexAttr(constantIndex++)));
    return sizes;
  };
  // Index values of the host come after every binding's extents.
  int64_t indexConstant =
      countDynamicDims(ValueRange(inputs).getTypes()) +
      countDynamicDims(regionOp.getResultTypes());
  SmallVector<DispatchConstantOp> indexConstants;
  for (Value input : indexInputs) {
    indexConstants.push_back(DispatchConstantOp::create(
        body, loc, body.getIndexType(), body.getIndexAttr(0)));
    mapping.map(input, indexConstants.back());
  }
  // What tensor.dim of a bound tensor reads: its dispatch constant.
  DenseMap<Value, SmallVector<Value>> boundSizes;
  for (Value input : inputs) {
    auto tensorType = dyn_cast<RankedTensorType>(input.getType());
    if (!tensorType || tensorType.getElementType().isIndex())
      return regionOp.emitError()
             << "dispatch input of type " << input.getType()
             << " cannot be bound: only ranked tensors of numbers cross "
                "dispatch boundaries";
    auto memrefType = cast<MemRefType>(getBindingStorageType(tensorType));
    SmallVector<Value> sizes = getDynamicSizes(tensorType);
    Value binding = BindingOp::create(body, loc, memrefType,
                                      body.getIndexAttr(bindingIndex++), sizes);
    Value tensor = bufferization::ToTensorOp::create(
        body, loc, tensorType.clone(memrefType.getElementType()), binding,
        /*restrict=*/true, /*writable=*/false);
    if (memrefType.getElementType() != tensorType.getElementType())
      tensor = convertElements(body, loc, tensor, tensorType.getElementType());
    mapping.map(input, tensor);
    if (!sizes.empty())
      boundSizes[tensor] = std::move(sizes);
  }
  Block &regionBlock = regionOp.getBody().front();
  for (Operation &op : regionBlock.without_terminator())
    body.clone(op, mapping);
  funcOp.walk([&](tensor::DimOp dimOp) {
    auto it = boundSizes.find(dimOp.getSource());
    std::optional<int64_t> index = dimOp.getConstantIndex();
    if (it == boundSizes.end() || !index)
      return;
    auto type = cast<RankedTensorType>(dimOp.getSource().getType());
    if (!type.isDynamicDim(*index))
      return;
    dimOp.replaceAllUsesWith(it->second[type.getDynamicDimIndex(*index)]);
    dimOp.erase();
  });
  auto returnOp = cast<ReturnOp>(regionBlock.getTerminator());
  body.setInsertionPoint(entry, entry->end());
  for (Value output : returnOp.getOperands()) {
    auto tensorType = cast<RankedTensorType>(output.getType());
    auto memrefType = cast<MemRefType>(getBindingStorageType(tensorType));
    SmallVector<Value> sizes = getDynamicSizes(tensorType);
    Value binding = BindingOp::create(body, loc, memrefType,
                                      body.getIndexAttr(bindingIndex++), sizes);
    Value value = mapping.lookup(output);
    sizeByBinding(value, sizes);
    if (memrefType.getElementType() != tensorType.getElementType())
      value = convertElements(body, loc, value, memrefType.getElementType());
    auto storeOp = bufferization::MaterializeInDestinationOp::create(
        body, loc, value, binding);
    storeOp.setRestrict(true);
    storeOp.setWritable(true);
  }
  func::ReturnOp::create(body, loc);
  // Values the kernel does not read (a size its binding's extent replaced)
  // are not passed.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (!isa<DispatchConstantOp>(op) && isOpTriviallyDead(&op))
      op.erase();
  SmallVector<Value> read;
  for (auto [input, constantOp] : llvm::zip(indexInputs, indexConstants)) {
    if (constantOp->use_empty()) {
      constantOp.erase();
      continue;
    }
    constantOp.setIndexAttr(body.getIndexAttr(indexConstant++));
    read.push_back(input);
  }
  indexInputs = std::move(read);
  return success();
}

/// Reads on the host, before `regionOp`, the dimensions of the values the
/// region reads only the dimensions of: the dispatch then takes them as
/// index constants instead of binding the whole tensor.
void readDimensionsBefore(DispatchRegionOp regionOp) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(regionOp.getBody(), captured);
  OpBuilder builder(regionOp);
  for (Value value : captured) {
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    SmallVector<tensor::DimOp> dimOps;
    bool onlyDims = true;
    for (OpOperand &use : value.getUses()) {
      if (!regionOp->isAncestor(use.getOwner()))
        continue;
      auto dimOp = dyn_cast<tensor::DimOp>(use.getOwner());
      if (!dimOp || !dimOp.getConstantIndex()) {
        onlyDims = false;
        break;
      }
      dimOps.push_back(dimOp);
    }
    if (!onlyDims)
      continue;
    for (tensor::DimOp dimOp : dimOps) {
      Value dim = tensor::DimOp::create(builder, dimOp.getLoc(), value,
                                        *dimOp.getConstantIndex());
      dimOp.replaceAllUsesWith(dim);
      dimOp.erase();
    }
  }
}

/// The kind of work `op` does, as its dispatch's name says it.
std::string describeOpKind(Operation *op) {
  if (auto genericOp = dyn_cast<linalg::GenericOp>(op)) {
    if (linalg::isaContractionOpInterface(genericOp))
      return "matmul_like";
    if (linalg::isaConvolutionOpInterface(genericOp))
      return "conv";
    if (genericOp.getNumReductionLoops() > 0)
      return "reduction";
    return "elementwise";
  }
  StringRef name = op->getName().getStringRef();
  return name.substr(name.find('.') + 1).str();
}

/// `type` as the IR prints it.
std::string describeType(Type type) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << type;
  return result;
}

/// Describes the work of a dispatch body as `<rootop>_<loop ranges>_<type>`,
/// e.g. `matmul_4x16x8_f32` or `elementwise_128x64_f32`.
std::string describeDispatchWork(Region &body) {
  Operation *root = findDispatchRootOp(body);
  if (!root)
    return "copy";
  SmallVector<std::string> parts{describeOpKind(root)};
  SmallVector<int64_t> ranges;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(root))
    ranges = linalgOp.getStaticLoopRanges();
  else if (root->getNumResults() == 1)
    if (auto shapedType = dyn_cast<ShapedType>(root->getResult(0).getType()))
      ranges = llvm::to_vector(shapedType.getShape());
  if (!ranges.empty())
    parts.push_back(llvm::join(llvm::map_range(ranges,
                                               [](int64_t r) {
                                                 // "D" for a size known at run
                                                 // time, as IREE names its
                                                 // dispatches.
                                                 return ShapedType::isDynamic(r)
                                                            ? std::string("D")
                                                            : std::to_string(r);
                                               }),
                               "x"));
  if (root->getNumResults() > 0)
    parts.push_back(
        describeType(getElementTypeOrSelf(root->getResult(0).getType())));
  return llvm::join(parts, "_");
}

/// Each input op of the region as `loc("op.name"(file:line:col))`, once per
/// distinct location (`loc("op.name"(<its node's location>))` for an op of
/// an imported model, which names the node); ops the compiler made up
/// (empty, constants) are left out.
/// The input ops fused into the kernel `body` forms, and for each the
/// kernel op computing it (its position among the body's ops), by which
/// identical kernels merged later align their entries.
std::pair<ArrayAttr, DenseI32ArrayAttr>
getProvenance(Region &body, const InputOpTable &inputOps) {
  MLIRContext *context = body.getContext();
  // One entry per op and location, repeats included.
  SmallVector<Attribute> entries;
  SmallVector<int32_t> kernelOps;
  int32_t kernelOp = -1;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<tensor::EmptyOp, arith::ConstantOp>(op))
      return WalkResult::skip();
    if (!isa<linalg::LinalgOp>(op) &&
        !isa_and_nonnull<tensor::TensorDialect>(op->getDialect()))
      return WalkResult::advance();
    ++kernelOp;
    // Each location an op carries is an input op fused into it, named as
    // the program wrote it (a linalg.add, not the linalg.generic it became).
    auto entry = [&](FileLineColLoc fileLoc, Location loc) {
      std::optional<InputOp> inputOp = inputOps.lookup(fileLoc);
      StringAttr opName =
          inputOp ? inputOp->name
                  : StringAttr::get(context, op->getName().getStringRef());
      entries.push_back(NameLoc::get(opName, loc));
      kernelOps.push_back(kernelOp);
    };
    op->getLoc()->walk([&](Location loc) {
      if (getInputNode(loc)) {
        loc->walk([&](Location nested) {
          if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
            entry(fileLoc, loc);
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
        return WalkResult::skip();
      }
      if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
        entry(fileLoc, fileLoc);
      return WalkResult::advance();
    });
    // Ops nested in a linalg body are part of it.
    return WalkResult::skip();
  });
  return {ArrayAttr::get(context, entries),
          DenseI32ArrayAttr::get(context, kernelOps)};
}

struct OutlineDispatchRegionsPass
    : impl::OutlineDispatchRegionsPassBase<OutlineDispatchRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    SmallVector<std::string> cpus = llvm::to_vector(targetCPUs);
    if (cpus.empty())
      cpus.push_back("host");
    // (name, LLVM CPU, features) of each variant.
    SmallVector<std::tuple<std::string, std::string, std::string>> variants;
    for (auto [name, entry] :
         llvm::zip_equal(getCodeVariantNames(cpus), cpus)) {
      auto [cpu, features] = resolveTargetCPU(entry);
      variants.emplace_back(name, cpu, features);
    }
    SymbolTable symbolTable(moduleOp);
    InputOpTable inputOps(moduleOp);
    OpBuilder builder(&getContext());
    for (auto funcOp : llvm::to_vector(moduleOp.getOps<func::FuncOp>())) {
      SmallVector<DispatchRegionOp> regionOps;
      funcOp.walk([&](DispatchRegionOp op) { regionOps.push_back(op); });
      for (auto [index, regionOp] : llvm::enumerate(regionOps)) {
        std::string executableName =
            (funcOp.getName() + "_dispatch_" + Twine(index)).str();

        readDimensionsBefore(regionOp);
        llvm::SetVector<Value> inputSet;
        getUsedValuesDefinedAbove(regionOp.getBody(), inputSet);
        // Index values the host computes (that the region could not clone)
        // are passed as dispatch constants; the rest are bound.
        SmallVector<Value> inputs, indexInputs;
        for (Value input : inputSet)
          (input.getType().isIndex() ? indexInputs : inputs).push_back(input);

        builder.setInsertionPoint(funcOp);
        auto executableOp =
            ExecutableOp::create(builder, regionOp.getLoc(), executableName);
        symbolTable.insert(executableOp);
        std::string exportName = (executableOp.getSymName() + "_" +
                                  describeDispatchWork(regionOp.getBody()))
                                     .str();
        builder.setInsertionPointToStart(&executableOp.getBlock());
        auto [variantName, cpu, features] = variants.front();
        auto variantOp = ExecutableVariantOp::create(
            builder, regionOp.getLoc(), variantName, kCPUTargetName, kCPUTriple,
            cpu, features);
        builder.createBlock(&variantOp.getBody());
        // The export stands where its root op stood in the input; the ops
        // fused with it are its provenance.
        Operation *rootOp = findDispatchRootOp(regionOp.getBody());
        auto exportOp = ExecutableExportOp::create(
            builder, rootOp ? rootOp->getLoc() : regionOp.getLoc(),
            builder.getStringAttr(exportName), builder.getIndexAttr(0),
            builder.getIndexAttr(inputs.size() + regionOp.getNumResults()),
            /*workgroup_count=*/nullptr, /*binding_types=*/nullptr,
            /*outputs=*/nullptr, /*workgroup_tiles=*/nullptr,
            /*equal_constants=*/nullptr, /*index_constants=*/nullptr,
            /*covering_tiles=*/nullptr);
        auto [provenance, kernelOps] =
            getProvenance(regionOp.getBody(), inputOps);
        exportOp->setAttr(kProvenanceAttrName, provenance);
        exportOp->setAttr(kProvenanceKernelOpsAttrName, kernelOps);
        SmallVector<Type> bindingTypes = llvm::to_vector(
            llvm::map_range(inputs, [](Value v) { return v.getType(); }));
        llvm::append_range(bindingTypes, regionOp.getResultTypes());
        exportOp.setBindingTypesAttr(builder.getTypeArrayAttr(bindingTypes));
        auto innerModule = ModuleOp::create(builder, regionOp.getLoc());
        builder.setInsertionPointToStart(innerModule.getBody());
        if (failed(buildKernel(builder, regionOp, inputs, indexInputs,
                               exportName)))
          return signalPassFailure();
        if (!indexInputs.empty())
          exportOp.setIndexConstantsAttr(
              builder.getIndexAttr(indexInputs.size()));
        // The other CPUs' variants start as copies of the first.
        builder.setInsertionPointToEnd(&executableOp.getBlock());
        for (auto &[otherName, otherCPU, otherFeatures] :
             llvm::drop_begin(variants)) {
          auto copy = cast<ExecutableVariantOp>(builder.clone(*variantOp));
          copy.setSymName(otherName);
          copy.setCpu(otherCPU);
          copy.setFeatures(otherFeatures);
        }

        builder.setInsertionPoint(regionOp);
        auto entryPoint = SymbolRefAttr::get(
            builder.getStringAttr(executableOp.getSymName()),
            {FlatSymbolRefAttr::get(builder.getStringAttr(exportName))});
        auto dispatchOp = DispatchOp::create(
            builder, regionOp.getLoc(), regionOp.getResultTypes(), entryPoint,
            inputs, indexInputs, regionOp.getResultDims());
        regionOp.replaceAllUsesWith(dispatchOp.getResults());
        regionOp.erase();
      }
    }
  }
};

} // namespace
} // namespace mlir::kiln
