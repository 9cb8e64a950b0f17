//===- CheckDialect.cpp - test assertions ---------------------------------===//

#include "Dialect/Check/IR/CheckDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::kiln::check;

#include "Dialect/Check/IR/CheckDialect.cpp.inc"

namespace {
/// Checks in a helper run where the helper is called.
struct CheckInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
}  // namespace

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Check/IR/CheckOps.cpp.inc"
      >();
  addInterfaces<CheckInlinerInterface>();
}

#define GET_OP_CLASSES
#include "Dialect/Check/IR/CheckOps.cpp.inc"
