//===- verifier_internal.h - Shared by the module verifier's files -*- C++ -*-===//
//
// VerifyModule (verifier.cc) checks the module's tables and calls on
// verify_debug_info.cc for the debug information and the source table, and
// on verify_function.cc for each host function. What they share: the work
// budget and the conversion of a type. Not a public header.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_VERIFIER_INTERNAL_H_
#define KILN_RUNTIME_MODULE_VERIFIER_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kiln/module.h"
#include "kiln/module_generated.h"
#include "kiln/status.h"
#include "module/module_impl.h"
#include "module/packed_tables.h"

namespace kiln {

// Bounds the work (and memory) of verification by the module's size. A
// FlatBuffer may reference one table from many places, so a small file could
// otherwise make the verifier visit or copy the same data without end.
// Modules kiln-compile writes share nothing and stay far below the budget.
class WorkBudget {
 public:
  explicit WorkBudget(size_t module_size)
      : left_(2 * uint64_t{module_size} + (uint64_t{1} << 20)),
        module_size_(module_size) {}

  Status Spend(uint64_t units) {
    if (units > left_) {
      return ResourceExhaustedError(
          "module refers to its tables too many times for its size (",
          module_size_,
          " bytes): verification would not end in reasonable "
          "time");
    }
    left_ -= units;
    return OkStatus();
  }

 private:
  uint64_t left_;
  const size_t module_size_;
};

// Which types may leave dimensions to run time: those of function slots,
// arguments and results and of export bindings, not of constants.
enum class Dimensions : uint8_t { kStatic, kMayBeDynamic };

/// Converts and checks `fb_type` into `out` (type, byte size, whether
/// dynamic); fails on a dimension left to run time unless `dimensions`
/// allows it.
Status ConvertTensorType(const fb::TensorType* fb_type, WorkBudget* budget,
                         SlotInfo* out,
                         Dimensions dimensions = Dimensions::kStatic);

//===----------------------------------------------------------------------===//
// Debug information and source table (verify_debug_info.cc)
//===----------------------------------------------------------------------===//

/// Every capture stage has a name.
Status VerifyCaptureStages(const fb::Module& module);

/// The embedded texts (sizes, zstd frames), the files sorted and unique by
/// path, and the cross-stage line maps (their sizes, each unpacking within
/// `max_buffer_bytes`; CheckLineOrigins checks the rows).
Status VerifySourceTable(const fb::Module& module, uint64_t max_buffer_bytes);

/// What export `ex` records beside its code: binding types, workgroup and
/// covering tiles, equal constants, its location and provenance, and its
/// stage locations.
Status VerifyExportDebugInfo(const fb::Module& module, const fb::Export& ex,
                             WorkBudget* budget);

/// The sizes of the packed address -> line rows of library `index`, which
/// unpack within `max_buffer_bytes`.
Status VerifyLibraryLines(const fb::Module& module, uint32_t index,
                          uint64_t max_buffer_bytes);

/// The rows of library `index`'s address -> line table, once unpacked:
/// strictly increasing offsets inside the image, each naming one of the
/// module's exports in this library (or none) and a line of a text.
Status CheckLibraryLines(const fb::Module& module, uint32_t index,
                         const std::vector<LibraryLineRow>& lines);

/// The line origins of source file `source`, once unpacked: sorted and
/// unique, every line inside its text, every input file in range.
Status CheckLineOrigins(const fb::Module& module, uint32_t source,
                        const std::vector<LineOriginView>& origins);

//===----------------------------------------------------------------------===//
// Host functions (verify_function.cc)
//===----------------------------------------------------------------------===//

/// Verifies host function `function` of `module` and fills `plan` and
/// `signature`. Errors are prefixed "function 'NAME' <part>: ".
Status VerifyFunction(const fb::Module& module,
                      const std::vector<SlotInfo>& constant_types,
                      uint64_t max_buffer_bytes, WorkBudget* budget,
                      const fb::Function& function, FunctionPlan* plan,
                      FunctionSignature* signature);

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_VERIFIER_INTERNAL_H_
