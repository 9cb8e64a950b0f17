//===- HostDialect.h - host programs as the runtime runs them -----*- C++ -*-===//

#ifndef KILN_DIALECT_HOST_IR_HOSTDIALECT_H_
#define KILN_DIALECT_HOST_IR_HOSTDIALECT_H_

#include "Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/IR/Dialect.h"

#include "Dialect/Host/IR/HostDialect.h.inc"

#endif // KILN_DIALECT_HOST_IR_HOSTDIALECT_H_
