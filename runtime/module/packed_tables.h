//===- packed_tables.h - Unpacking the module's packed line tables -*- C++ -*-===//
//
// The cross-stage line maps (SourceFile.origins) and the address -> line
// rows (Library.lines) are stored packed (PackedRows in module.fbs). Load
// checks only their sizes; a reader unpacks a table when first asked for
// it, checks every row then, and keeps the rows for the module's life.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_PACKED_TABLES_H_
#define KILN_RUNTIME_MODULE_PACKED_TABLES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "kiln/module_generated.h"
#include "kiln/sources.h"
#include "kiln/status.h"

namespace kiln {

/// One row of a library's address -> line table (see Library.lines).
struct LibraryLineRow {
  uint64_t offset = 0;
  uint32_t export_ordinal = 0;
  uint32_t source = 0;
  uint32_t line = 0;
};

/// Size checks of a packed table, made at load: at most `max_count` rows of
/// `columns` columns, its frame declaring the size it unpacks to, and
/// unpacking it (the packed bytes and the rows at once) taking at most
/// `max_bytes`.
Status VerifyPackedRows(const fb::PackedRows* rows, uint64_t max_count,
                        size_t columns, uint64_t max_bytes);

/// The line origins of source file `source`, unpacked and checked
/// (CheckLineOrigins).
StatusOr<std::vector<LineOriginView>> UnpackLineOrigins(
    const fb::Module& module, uint32_t source);

/// The address -> line rows of library `library`, unpacked and checked
/// (CheckLibraryLines).
StatusOr<std::vector<LibraryLineRow>> UnpackLibraryLines(
    const fb::Module& module, uint32_t library);

/// Tables unpacked on first use, one slot per table, each filled once and
/// then kept (safe to ask from several threads; once filled, asking takes
/// no lock: LocateCode asks for every sample).
template <typename Row>
class UnpackedTables {
 public:
  using Rows = std::vector<Row>;
  explicit UnpackedTables(size_t count)
      : slots_(std::make_unique<Slot[]>(count)) {}

  /// Table `index`, made by `unpack` the first time it is asked for.
  const StatusOr<Rows>& Get(size_t index,
                            const std::function<StatusOr<Rows>()>& unpack) {
    Slot& slot = slots_[index];
    std::call_once(slot.once, [&] { slot.rows.emplace(unpack()); });
    return *slot.rows;
  }

 private:
  struct Slot {
    std::once_flag once;
    std::optional<StatusOr<Rows>> rows;
  };
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_PACKED_TABLES_H_
