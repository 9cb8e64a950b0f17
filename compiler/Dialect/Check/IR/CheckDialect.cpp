//===- CheckDialect.cpp - test assertions ---------------------------------===//

#include "Dialect/Check/IR/CheckDialect.h"

#include "Dialect/AlwaysLegalToInline.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::kiln::check;

#include "Dialect/Check/IR/CheckDialect.cpp.inc"

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Check/IR/CheckOps.cpp.inc"
      >();
  addInterfaces<kiln::AlwaysLegalToInline>();
}

#define GET_OP_CLASSES
#include "Dialect/Check/IR/CheckOps.cpp.inc"
