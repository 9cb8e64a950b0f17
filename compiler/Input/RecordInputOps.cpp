//===- RecordInputOps.cpp - the input program's ops, by location ----------===//

#include "Input/Passes.h"

#include "Dialect/Kiln/IR/InputOps.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_RECORDINPUTOPSPASS
#include "Input/Passes.h.inc"

namespace {

struct RecordInputOpsPass : impl::RecordInputOpsPassBase<RecordInputOpsPass> {
  void runOnOperation() override { recordInputOps(getOperation()); }
};

} // namespace
} // namespace mlir::kiln
