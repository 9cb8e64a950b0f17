//===- KilnDialect.cpp - kiln dialect -----------------------------*- C++ -*-===//

#include "Dialect/Kiln/IR/KilnDialect.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::kiln;

#include "Dialect/Kiln/IR/KilnDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/Kiln/IR/KilnAttrs.cpp.inc"

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Kiln/IR/KilnOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dialect/Kiln/IR/KilnAttrs.cpp.inc"
      >();
}
