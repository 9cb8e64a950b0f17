//===- KilnDialect.h - kiln dialect -------------------------------*- C++ -*-===//

#ifndef KILN_DIALECT_KILN_IR_KILNDIALECT_H_
#define KILN_DIALECT_KILN_IR_KILNDIALECT_H_

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "Dialect/Kiln/IR/KilnDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/Kiln/IR/KilnAttrs.h.inc"

#endif  // KILN_DIALECT_KILN_IR_KILNDIALECT_H_
