//===- LibraryABI.h - The export table of executable_library.h ----*- C++ -*-===//
//
// What a CPU library tells the runtime about itself (executable_library.h):
// each export's descriptor, the export table, the library header and the
// query function, emitted as LLVM IR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_LIBRARYABI_H_
#define KILN_TARGET_CPU_LIBRARYABI_H_

#include "Dialect/Kiln/IR/KilnOps.h"
#include "kiln/module_generated.h"
#include "mlir/Support/LLVM.h"
#include "llvm/IR/Module.h"

#include <array>
#include <string>

namespace mlir::kiln {

/// What the code of one export was built for (kiln_export_descriptor_v1_t).
struct ExportDescriptor {
  struct Binding {
    ::kiln::fb::ElementType elementType;
    uint8_t access;
    SmallVector<int64_t> shape;
  };
  std::array<uint32_t, 3> workgroupCount = {1, 1, 1};
  SmallVector<Binding> bindings;
  uint32_t indexConstantCount = 0;
};

/// The descriptor of `exportOp`: its workgroup count, binding types and
/// outputs, which strategy selection and `kiln-verify-export-interfaces`
/// derived from the kernel (or a stage text declares).
FailureOr<ExportDescriptor> getExportDescriptor(ExecutableExportOp exportOp);

/// Adds the export table (with each export's descriptor), library header
/// and query function to `module`.
void addLibraryTable(llvm::Module &module, ArrayRef<llvm::Function *> functions,
                     ArrayRef<std::string> names,
                     ArrayRef<ExportDescriptor> descriptors,
                     StringRef libraryName);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_LIBRARYABI_H_
