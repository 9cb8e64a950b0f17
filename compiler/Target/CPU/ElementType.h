//===- ElementType.h - Element types as the module format numbers them ---*- C++ -*-===//
//
// One mapping for everything the compiler writes for the runtime: the
// library's export descriptors (LibraryABI) and module types
// (Module/ModuleTables) number element types alike. It sits with the
// library, the first of the two to be written.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_ELEMENTTYPE_H_
#define KILN_TARGET_CPU_ELEMENTTYPE_H_

#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <vector>

namespace mlir::kiln {

/// `type`'s shape as the module format and the library ABI write it: a
/// dynamic dimension as KILN_DYNAMIC_DIMENSION (-1; KILN_DIMENSION_ANY in
/// executable_library.h).
inline std::vector<int64_t> getModuleShape(ShapedType type) {
  std::vector<int64_t> shape;
  for (int64_t dim : type.getShape())
    shape.push_back(ShapedType::isDynamic(dim) ? KILN_DYNAMIC_DIMENSION : dim);
  return shape;
}

/// The module format's ElementType of `type`; an error at `loc` for types a
/// module cannot store.
inline FailureOr<::kiln::fb::ElementType> getModuleElementType(Location loc,
                                                               Type type) {
  namespace fb = ::kiln::fb;
  if (type.isF32())
    return fb::ElementType::F32;
  if (type.isF64())
    return fb::ElementType::F64;
  if (type.isF16())
    return fb::ElementType::F16;
  if (type.isBF16())
    return fb::ElementType::BF16;
  if (type.isInteger(1))
    return fb::ElementType::I1;
  // Sub-byte integers take a byte each, as their bindings store them
  // (getBindingStorageType).
  if (type.isInteger(8) || type.isInteger(4) || type.isInteger(2))
    return fb::ElementType::I8;
  if (type.isInteger(16))
    return fb::ElementType::I16;
  if (type.isInteger(32))
    return fb::ElementType::I32;
  if (type.isInteger(64))
    return fb::ElementType::I64;
  if (isa<Float8E5M2Type>(type))
    return fb::ElementType::F8E5M2;
  if (isa<Float8E4M3FNType>(type))
    return fb::ElementType::F8E4M3FN;
  if (isa<Float8E5M2FNUZType>(type))
    return fb::ElementType::F8E5M2FNUZ;
  if (isa<Float8E4M3FNUZType>(type))
    return fb::ElementType::F8E4M3FNUZ;
  if (isa<Float8E8M0FNUType>(type))
    return fb::ElementType::F8E8M0FNU;
  // One byte per element, as bindings store it (getBindingStorageType).
  if (isa<Float4E2M1FNType>(type))
    return fb::ElementType::F4E2M1FN;
  return emitError(loc) << "element type " << type
                        << " cannot be stored in a module";
}

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_ELEMENTTYPE_H_
