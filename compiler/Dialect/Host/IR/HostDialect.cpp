//===- HostDialect.cpp - host programs as the runtime runs them -----------===//

#include "Dialect/Host/IR/HostDialect.h"

#include "Dialect/Host/IR/HostOps.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::kiln::host;

#include "Dialect/Host/IR/HostDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Dialect/Host/IR/HostTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/Host/IR/HostAttrs.cpp.inc"

void HostDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Host/IR/HostOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "Dialect/Host/IR/HostTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dialect/Host/IR/HostAttrs.cpp.inc"
      >();
}
