//===- VerifyExportInterfaces.cpp - exports say what their kernels do -----===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/DispatchConstants.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <set>
#include <tuple>

namespace mlir::kiln {
#define GEN_PASS_DEF_VERIFYEXPORTINTERFACESPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Whether `op`, using `value` (a binding or a view of it), may write it.
/// Ops that declare no effects are taken to write: a kernel that could
/// write an input must not be described as only reading it.
bool mayWrite(Operation *op, Value value) {
  if (isa<bufferization::ToTensorOp>(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](MemoryEffects::EffectInstance &instance) {
    return isa<MemoryEffects::Write>(instance.getEffect()) &&
           (!instance.getValue() || instance.getValue() == value);
  });
}

/// Whether anything writes through `binding` or a view of it.
bool isWritten(Value binding) {
  SmallVector<Value> worklist = {binding};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value) {
          worklist.push_back(view->getResult(0));
          continue;
        }
      }
      if (mayWrite(user, value))
        return true;
    }
  }
  return false;
}

/// The dispatch constant of dimension `dim` of `op`'s result: its
/// destination's, or that of the binding the result is stored into.
std::optional<int64_t> findUnPackedExtentConstant(linalg::UnPackOp op,
                                                  int64_t dim) {
  if (std::optional<int64_t> extent = findDispatchConstant(op.getDest(), dim))
    return extent;
  return findStoredDispatchConstant(op.getResult(), dim);
}

/// The pairs of dispatch constants the kernel takes to be equal: extents
/// of its operands that one loop runs over, and a stored value's extents
/// and its binding's. A dispatch whose constants differ would read or write
/// past a binding, so the runtime refuses it.
SmallVector<int64_t> findEqualConstants(func::FuncOp funcOp) {
  std::set<std::pair<int64_t, int64_t>> pairs;
  auto equal = [&](std::optional<int64_t> a, std::optional<int64_t> b) {
    if (a && b && *a != *b)
      pairs.insert({std::min(*a, *b), std::max(*a, *b)});
  };
  funcOp.walk([&](linalg::LinalgOp op) {
    for (ArrayRef<int64_t> constants : findLoopRangeConstants(op))
      for (size_t i = 1; i < constants.size(); ++i)
        equal(constants.front(), constants[i]);
  });
  // A contraction unpacked in the kernel runs over the unpack's rows and
  // reads as many of its LHS (packed, or read in place): those rows must
  // be the LHS's.
  funcOp.walk([&](linalg::UnPackOp op) {
    Operation *contraction = op.getSource().getDefiningOp();
    if (!isa_and_present<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(contraction))
      return;
    auto packOp = contraction->getOperand(0).getDefiningOp<linalg::PackOp>();
    if (!packOp)
      return;
    equal(findDispatchConstant(packOp.getSource(),
                               packOp.getInnerDimsPos().front()),
          findUnPackedExtentConstant(op, op.getInnerDimsPos().front()));
  });
  funcOp.walk([&](bufferization::MaterializeInDestinationOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getSource().getType());
    for (int64_t dim = 0; type && dim < type.getRank(); ++dim)
      equal(findDispatchConstant(op.getSource(), dim),
            findDispatchConstant(op.getDest(), dim));
  });
  SmallVector<int64_t> flat;
  for (auto [a, b] : pairs)
    llvm::append_values(flat, a, b);
  return flat;
}

/// Triples (tiles constant, extent constant, tile): an unpack reads the
/// source tiles its result's extent needs, so the tiles a dispatch passes
/// must cover that extent or the kernel reads past the source.
SmallVector<int64_t> findCoveringTiles(func::FuncOp funcOp) {
  std::set<std::tuple<int64_t, int64_t, int64_t>> triples;
  funcOp.walk([&](linalg::UnPackOp op) {
    ArrayRef<int64_t> outerPerm = op.getOuterDimsPerm();
    for (auto [dim, tile] :
         llvm::zip(op.getInnerDimsPos(), op.getStaticInnerTiles())) {
      if (ShapedType::isDynamic(tile))
        continue;
      // The source's outer dimension holding the tiles of result `dim`.
      int64_t outer = dim;
      if (!outerPerm.empty())
        outer = llvm::find(outerPerm, dim) - outerPerm.begin();
      std::optional<int64_t> tiles =
          findDispatchConstant(op.getSource(), outer);
      std::optional<int64_t> extent = findUnPackedExtentConstant(op, dim);
      if (tiles && extent)
        triples.insert({*tiles, *extent, tile});
    }
  });
  SmallVector<int64_t> flat;
  for (auto [tiles, extent, tile] : triples)
    llvm::append_values(flat, tiles, extent, tile);
  return flat;
}

/// Sets `derived` on `exportOp` through `set`, or checks it against what
/// the export declares (`declared`): `what` names the attribute in errors.
LogicalResult deriveOrCheck(ExecutableExportOp exportOp,
                            DenseI64ArrayAttr declared,
                            ArrayRef<int64_t> derived, StringRef what,
                            function_ref<void(DenseI64ArrayAttr)> set) {
  if (declared) {
    if (declared.asArrayRef() != derived)
      return exportOp.emitError("declares ")
             << what << " [" << declared.asArrayRef()
             << "] but its kernel takes [" << derived << "]";
  } else if (!derived.empty()) {
    set(DenseI64ArrayAttr::get(exportOp.getContext(), derived));
  }
  return success();
}

LogicalResult verifyExport(ExecutableExportOp exportOp, func::FuncOp funcOp) {
  uint64_t bindingCount = exportOp.getBindings().getZExtValue();
  ArrayAttr types = exportOp.getBindingTypesAttr();
  if (!types || types.size() != bindingCount)
    return exportOp.emitError("declares ")
           << bindingCount << " bindings but " << (types ? types.size() : 0)
           << " binding types";
  SmallVector<bool> written(bindingCount, false);
  WalkResult walk = funcOp.walk([&](BindingOp bindingOp) {
    uint64_t index = bindingOp.getIndex().getZExtValue();
    if (index >= bindingCount) {
      bindingOp.emitError("binds index ")
          << index << " but export " << exportOp.getSymName() << " has "
          << bindingCount << " bindings";
      return WalkResult::interrupt();
    }
    auto declared =
        dyn_cast<RankedTensorType>(cast<TypeAttr>(types[index]).getValue());
    if (!declared || getBindingStorageType(declared) != bindingOp.getType()) {
      bindingOp.emitError("binding ")
          << index << " is " << bindingOp.getType() << " but export "
          << exportOp.getSymName() << " declares " << types[index];
      return WalkResult::interrupt();
    }
    written[index] = written[index] || isWritten(bindingOp.getResult());
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // The kernel reads constants[index] unchecked: only the bindings' dynamic
  // extents and the index constants dispatches pass exist.
  int64_t constantCount = exportOp.getIndexConstantsAttr()
                              ? exportOp.getIndexConstantsAttr().getInt()
                              : 0;
  for (Attribute type : types)
    constantCount += countDynamicDims(cast<TypeAttr>(type).getValue());
  walk = funcOp.walk([&](DispatchConstantOp constantOp) {
    uint64_t index = constantOp.getIndex().getZExtValue();
    if (index < static_cast<uint64_t>(constantCount))
      return WalkResult::advance();
    constantOp.emitError("reads dispatch constant ")
        << index << " but export " << exportOp.getSymName() << " has "
        << constantCount;
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();

  // Inputs come first, outputs last: the written bindings must be a suffix.
  uint64_t outputs = 0;
  while (outputs < bindingCount && written[bindingCount - 1 - outputs])
    ++outputs;
  for (uint64_t i = 0; i + outputs < bindingCount; ++i)
    if (written[i])
      return exportOp.emitError("kernel writes binding ")
             << i << " but not binding " << bindingCount - 1 - outputs
             << " after it: written bindings (outputs) must come last";
  if (failed(deriveOrCheck(exportOp, exportOp.getEqualConstantsAttr(),
                           findEqualConstants(funcOp), "equal constants",
                           [&](DenseI64ArrayAttr attr) {
                             exportOp.setEqualConstantsAttr(attr);
                           })))
    return failure();
  if (failed(deriveOrCheck(exportOp, exportOp.getCoveringTilesAttr(),
                           findCoveringTiles(funcOp), "covering tiles",
                           [&](DenseI64ArrayAttr attr) {
                             exportOp.setCoveringTilesAttr(attr);
                           })))
    return failure();
  if (auto declared = exportOp.getOutputsAttr()) {
    if (declared.getValue().getZExtValue() != outputs)
      return exportOp.emitError("declares ")
             << declared.getValue().getZExtValue()
             << " outputs but its kernel writes the last " << outputs
             << " bindings";
    return success();
  }
  exportOp.setOutputsAttr(Builder(exportOp.getContext()).getIndexAttr(outputs));
  return success();
}

struct VerifyExportInterfacesPass
    : impl::VerifyExportInterfacesPassBase<VerifyExportInterfacesPass> {
  void runOnOperation() override {
    ExecutableVariantOp variantOp = getOperation();
    ModuleOp innerModule = variantOp.getInnerModule();
    if (!innerModule) {
      variantOp.emitError("variant has no module");
      return signalPassFailure();
    }
    for (ExecutableExportOp exportOp : variantOp.getExportOps()) {
      auto funcOp =
          innerModule.lookupSymbol<func::FuncOp>(exportOp.getSymName());
      if (!funcOp) {
        exportOp.emitError("export has no kernel function");
        return signalPassFailure();
      }
      if (failed(verifyExport(exportOp, funcOp)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::kiln
