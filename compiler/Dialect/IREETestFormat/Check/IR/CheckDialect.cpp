//===- CheckDialect.cpp - test assertions ---------------------------------===//

#include "Dialect/IREETestFormat/Check/IR/CheckDialect.h"

#include "Dialect/AlwaysLegalToInline.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::kiln::check;

#include "Dialect/IREETestFormat/Check/IR/CheckDialect.cpp.inc"

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/IREETestFormat/Check/IR/CheckOps.cpp.inc"
      >();
  addInterfaces<kiln::AlwaysLegalToInline>();
}

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Check/IR/CheckOps.cpp.inc"
