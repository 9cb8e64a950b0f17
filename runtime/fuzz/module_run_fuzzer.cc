//===- module_run_fuzzer.cc - Run structurally mutated modules ------------===//
//
// Mutates real modules through the FlatBuffers object API (counts, shapes,
// element types, slot and export indices, which slots a dispatch reads and
// writes, which buffers its results go into and their sizes, op order,
// optional tables deleted, cut short or rewritten, packed line tables
// rewritten row by row or byte by byte, code variants reordered, copied,
// made to need what no machine has or to disagree on an export) rather
// than their bytes, so that mutants get past the FlatBuffers verifier and
// reach kiln's own checks. A mutant the verifier accepts is run in a child
// process: its libraries are loaded and every function is called on zero-filled
// inputs of its signature, and one that takes sizes (dynamic dimensions,
// integers) also with sizes that disagree between its arguments and with small
// integers. The child must end normally (a call may fail, with a message); a
// signal, a sanitizer report or any other exit is a finding, reported as a
// crash of this input. A verified module must not be able to make a kernel
// corrupt memory.
//
//===----------------------------------------------------------------------===//

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kiln/check.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "kiln/packed_rows.h"
#include "kiln/sources.h"
#include "kiln/thread_pool.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

namespace fb = kiln::fb;
using Rng = std::mt19937_64;

/// Seconds a child may run: a mutant may make a program slow (a loop whose
/// bound was a constant), which is not a finding.
constexpr unsigned kChildSeconds = 2;

/// Largest value a mutant may need: bigger ones are refused at load.
constexpr uint64_t kMaxBufferBytes = uint64_t{256} << 20;

/// Total input bytes per call; functions needing more are skipped.
constexpr uint64_t kMaxInputBytes = uint64_t{64} << 20;

/// Where result bytes are read to: the reads must happen.
volatile uint8_t g_result_sink;

/// One integer field of the unpacked module that a mutation may change.
struct Knob {
  void* field;
  unsigned bytes;  // 1, 4 or 8
};

uint64_t ReadKnob(const Knob& knob) {
  uint64_t value = 0;
  std::memcpy(&value, knob.field, knob.bytes);  // little-endian host
  return value;
}

void WriteKnob(const Knob& knob, uint64_t value) {
  std::memcpy(knob.field, &value, knob.bytes);
}

/// Every integer field of `module` that says a count, a shape, a type or
/// an index: where metadata and code could disagree.
class KnobCollector {
 public:
  std::vector<Knob> knobs;

  void Add(uint32_t& v) { knobs.push_back({&v, 4}); }
  void Add(int64_t& v) { knobs.push_back({&v, 8}); }
  void Add(uint64_t& v) { knobs.push_back({&v, 8}); }
  void Add(fb::ElementType& v) { knobs.push_back({&v, 1}); }
  void Add(fb::CheckKind& v) { knobs.push_back({&v, 1}); }
  void Add(fb::IndexKind& v) { knobs.push_back({&v, 1}); }
  // Structs of 32-bit fields (workgroup tiles, covering tiles): each field
  // a knob, as the object API keeps them private.
  template <typename S>
  void AddWords(std::vector<S>& structs) {
    static_assert(sizeof(S) % sizeof(uint32_t) == 0 &&
                  alignof(S) == alignof(uint32_t));
    for (S& s : structs)
      for (size_t offset = 0; offset < sizeof(S); offset += sizeof(uint32_t))
        knobs.push_back({reinterpret_cast<char*>(&s) + offset, 4});
  }
  template <typename T>
  void Add(std::vector<T>& values) {
    for (T& v : values) Add(v);
  }
  void Add(std::unique_ptr<fb::TensorTypeT>& type) {
    if (!type) return;
    Add(type->element_type);
    for (int64_t& dim : type->shape) Add(dim);
  }
  void Add(std::vector<std::unique_ptr<fb::TensorTypeT>>& types) {
    for (auto& type : types) Add(type);
  }

  void Collect(fb::ModuleT& m) {
    Add(m.debug_level);
    for (auto& f : m.functions) {
      if (!f) continue;
      Add(f->slot_types);
      Add(f->arguments);
      Add(f->result_types);
      Add(f->buffer_sizes);
      Add(f->index_count);
      for (fb::OpUnion& op : f->body) AddOp(op);
    }
    for (auto& v : m.variants) {
      if (!v) continue;
      for (auto& e : v->executables) {
        if (!e) continue;
        Add(e->library);
        for (auto& x : e->exports) {
          if (!x) continue;
          Add(x->library_ordinal);
          Add(x->binding_count);
          Add(x->workgroup_count);
          Add(x->binding_types);
          for (auto& s : x->stage_locations)
            if (s) Add(s->stage), Add(s->source), Add(s->line);
          AddWords(x->workgroup_tiles);
          Add(x->equal_constants);
          Add(x->index_constant_count);
          AddWords(x->covering_tiles);
        }
      }
    }
    for (auto& c : m.constants)
      if (c) Add(c->type);
    for (auto& s : m.source_files)
      if (s) Add(s->content), Add(s->previous);
  }

 private:
  void AddOp(fb::OpUnion& op) {
    if (auto* c = op.AsConstantOp()) Add(c->result), Add(c->constant);
    if (auto* d = op.AsDispatchOp()) {
      Add(d->executable);
      Add(d->export_index);
      Add(d->operands);
      Add(d->results);
      Add(d->result_buffers);
      Add(d->result_dims);
      Add(d->constants);
    }
    if (auto* r = op.AsReshapeOp())
      Add(r->result), Add(r->source), Add(r->result_dims);
    if (auto* d = op.AsDimOp())
      Add(d->result), Add(d->source), Add(d->dimension);
    if (auto* e = op.AsExtractOp())
      Add(e->result), Add(e->source), Add(e->element);
    if (auto* i = op.AsIndexOp())
      Add(i->kind), Add(i->result), Add(i->lhs), Add(i->rhs), Add(i->value);
    if (auto* r = op.AsReleaseOp()) Add(r->slots);
    if (auto* r = op.AsReturnOp()) Add(r->operands);
    if (auto* b = op.AsBranchOp()) Add(b->target);
    if (auto* b = op.AsCondBranchOp())
      Add(b->condition), Add(b->true_target), Add(b->false_target);
    if (auto* c = op.AsCheckOp()) Add(c->kind), Add(c->lhs), Add(c->rhs);
  }
};

uint64_t MutateValue(Rng& rng, uint64_t value) {
  static constexpr uint64_t kInteresting[] = {
      0,          1,          2,          3,     4,     6,          7,
      8,          15,         16,         17,    63,    64,         255,
      256,        4095,       4096,       65535, 65536, 0x7fffffff, 0x80000000,
      0xffffffff, 1ull << 40, ~0ull >> 1, ~0ull};
  switch (rng() % 5) {
    case 0:
      return value + 1;
    case 1:
      return value - 1;
    case 2:
      return value * 2;
    case 3:
      return value / 2;
    default:
      return kInteresting[rng() % (sizeof(kInteresting) / sizeof(uint64_t))];
  }
}

template <typename T>
bool MutateList(Rng& rng, std::vector<T>& list) {
  if (list.empty()) return false;
  size_t i = rng() % list.size();
  switch (rng() % 3) {
    case 0:
      list.erase(list.begin() + i);
      return true;
    case 1:
      if constexpr (std::is_copy_constructible_v<T>) {
        T copy = list[i];
        list.insert(list.begin() + i, std::move(copy));
        return true;
      }
      return false;
    default:
      std::swap(list[i], list[rng() % list.size()]);
      return true;
  }
}

/// Changes which slots a dispatch reads and which it writes, or the order
/// of the ops of a function: mutations of structure, not of one field.
bool MutateStructure(Rng& rng, fb::ModuleT& m) {
  if (m.functions.empty()) return false;
  auto& f = m.functions[rng() % m.functions.size()];
  if (!f || f->body.empty()) return false;
  fb::OpUnion& op = f->body[rng() % f->body.size()];
  if (fb::DispatchOpT* d = op.AsDispatchOp(); d && rng() % 2) {
    // A slot moves from the operands to the results or back: a binding the
    // kernel writes is declared read-only, or the reverse.
    if (rng() % 2 && !d->operands.empty()) {
      d->results.insert(d->results.begin(), d->operands.back());
      d->operands.pop_back();
    } else if (!d->results.empty()) {
      d->operands.push_back(d->results.front());
      d->results.erase(d->results.begin());
    } else {
      return false;
    }
    return true;
  }
  if (fb::DispatchOpT* d = op.AsDispatchOp()) {
    // Which slots it binds, or which buffers its results go into.
    switch (rng() % 3) {
      case 0:
        return MutateList(rng, d->operands);
      case 1:
        return MutateList(rng, d->results);
      default:
        return MutateList(rng, d->result_buffers);
    }
  }
  return MutateList(rng, f->body);
}

/// Every tensor type of `m`: slots, results, bindings and constants.
std::vector<fb::TensorTypeT*> CollectTypes(fb::ModuleT& m) {
  std::vector<fb::TensorTypeT*> types;
  auto add = [&](std::vector<std::unique_ptr<fb::TensorTypeT>>& list) {
    for (auto& type : list)
      if (type) types.push_back(type.get());
  };
  for (auto& f : m.functions)
    if (f) add(f->slot_types), add(f->result_types);
  for (auto& v : m.variants)
    if (v)
      for (auto& e : v->executables)
        if (e)
          for (auto& x : e->exports)
            if (x) add(x->binding_types);
  for (auto& c : m.constants)
    if (c && c->type) types.push_back(c->type.get());
  return types;
}

/// Changes one tensor type everywhere it appears (a slot, the bindings
/// that take it, a result): a consistent lie about a shape or an element
/// type, which no single-field check catches; only the library's own
/// description of what its code takes can.
bool MutateTypeConsistently(Rng& rng, fb::ModuleT& m) {
  std::vector<fb::TensorTypeT*> types = CollectTypes(m);
  if (types.empty()) return false;
  const fb::TensorTypeT original = *types[rng() % types.size()];
  fb::TensorTypeT changed = original;
  if (!changed.shape.empty() && rng() % 4 != 0) {
    int64_t& dim = changed.shape[rng() % changed.shape.size()];
    dim = static_cast<int64_t>(MutateValue(rng, static_cast<uint64_t>(dim)));
  } else {
    changed.element_type = static_cast<fb::ElementType>(
        rng() % (static_cast<unsigned>(fb::ElementType::MAX) + 1));
  }
  for (fb::TensorTypeT* type : types)
    if (type->element_type == original.element_type &&
        type->shape == original.shape)
      *type = changed;
  return true;
}

/// A vector of the unpacked module that a module may leave short or
/// absent, or an optional table (a list of at most one), through what the
/// mutations below do to it, whatever its elements are.
struct OptionalList {
  void* list;
  size_t (*size)(void* list);
  void (*truncate)(void* list, size_t size);  // keeps the first `size`
  void (*copy)(void* list, size_t from, size_t to);
  void (*swap)(void* list, size_t i, size_t j);
};

template <typename T>
OptionalList ListOf(std::vector<T>& vector) {
  using V = std::vector<T>;
  return {&vector, [](void* l) { return static_cast<V*>(l)->size(); },
          [](void* l, size_t size) {
            V& v = *static_cast<V*>(l);
            v.erase(v.begin() + size, v.end());
          },
          [](void* l, size_t from, size_t to) {
            V& v = *static_cast<V*>(l);
            if constexpr (std::is_copy_assignable_v<T>)
              v[to] = v[from];
            else if (v[from] && v[to])  // a table: copy what it holds
              *v[to] = *v[from];
          },
          [](void* l, size_t i, size_t j) {
            V& v = *static_cast<V*>(l);
            std::swap(v[i], v[j]);
          }};
}

template <typename T>
OptionalList ListOf(std::unique_ptr<T>& table) {
  using P = std::unique_ptr<T>;
  return {&table, [](void* l) -> size_t { return *static_cast<P*>(l) ? 1 : 0; },
          [](void* l, size_t) { static_cast<P*>(l)->reset(); },
          [](void*, size_t, size_t) {}, [](void*, size_t, size_t) {}};
}

/// Calls `visit` on every table of `m` that holds an optional field.
template <typename Visit>
void VisitTables(fb::ModuleT& m, Visit visit) {
  visit(m);
  for (auto& f : m.functions) {
    if (!f) continue;
    visit(*f);
    for (fb::OpUnion& op : f->body) {
      if (auto* d = op.AsDispatchOp()) visit(*d);
      if (auto* r = op.AsReshapeOp()) visit(*r);
    }
  }
  for (auto& v : m.variants) {
    if (!v) continue;
    for (auto& e : v->executables) {
      if (!e) continue;
      for (auto& x : e->exports) {
        if (!x) continue;
        visit(*x);
        for (auto& p : x->provenance)
          if (p) visit(*p);
      }
    }
  }
  for (auto& l : m.libraries)
    if (l) visit(*l);
  for (auto& s : m.source_files)
    if (s) visit(*s);
}

/// The table a pointer to one of its fields belongs to.
template <typename Member>
struct MemberOf;
template <typename T, typename C>
struct MemberOf<T C::*> {
  using Class = C;
};

/// Appends field `Field` of every table of `m` that has it.
template <auto Field>
void CollectField(fb::ModuleT& m, std::vector<OptionalList>& lists) {
  using Class = typename MemberOf<decltype(Field)>::Class;
  VisitTables(m, [&](auto& table) {
    if constexpr (std::is_same_v<std::decay_t<decltype(table)>, Class>)
      lists.push_back(ListOf(table.*Field));
  });
}

/// The fields a module may leave out or cut short: the tables of dispatch
/// constants a kernel relies on (equal extents, covering tiles, its grid,
/// its index constants), the types and sizes of its bindings, and the
/// debug information tools read (locations, provenance, stage and line
/// tables, sources).
using CollectLists = void (*)(fb::ModuleT&, std::vector<OptionalList>&);
constexpr CollectLists kOptionalFields[] = {
    CollectField<&fb::ExportT::equal_constants>,
    CollectField<&fb::ExportT::covering_tiles>,
    CollectField<&fb::ExportT::workgroup_tiles>,
    CollectField<&fb::ExportT::workgroup_count>,
    CollectField<&fb::ExportT::binding_types>,
    CollectField<&fb::ExportT::location>,
    CollectField<&fb::ExportT::provenance>,
    CollectField<&fb::ExportT::stage_locations>,
    CollectField<&fb::FusedOpT::location>,
    CollectField<&fb::FusedOpT::node>,
    CollectField<&fb::DispatchOpT::constants>,
    CollectField<&fb::DispatchOpT::result_dims>,
    CollectField<&fb::DispatchOpT::result_buffers>,
    CollectField<&fb::ReshapeOpT::result_dims>,
    CollectField<&fb::FunctionT::buffer_sizes>,
    CollectField<&fb::FunctionT::argument_names>,
    CollectField<&fb::FunctionT::result_names>,
    CollectField<&fb::LibraryT::cpu_features>,
    CollectField<&fb::LibraryT::lines>,
    CollectField<&fb::SourceFileT::origins>,
    CollectField<&fb::ModuleT::capture_stages>,
    CollectField<&fb::ModuleT::source_files>,
    CollectField<&fb::ModuleT::source_contents>,
    CollectField<&fb::ModuleT::input_files>,
    CollectField<&fb::ModuleT::source_dictionary>,
    CollectField<&fb::ModuleT::variants>,
};

/// Deletes, shrinks or rewrites one optional field (a field first, so
/// that rare ones are chosen as often as common ones): a module whose
/// tables say less than its code relies on, or say it wrongly, e.g. the
/// check c0 = c1 made c0 = c0, or two of its indices swapped.
bool MutateOptionalField(Rng& rng, fb::ModuleT& m) {
  std::vector<OptionalList> lists;
  kOptionalFields[rng() % std::size(kOptionalFields)](m, lists);
  if (lists.empty()) return false;
  const OptionalList& list = lists[rng() % lists.size()];
  const size_t size = list.size(list.list);
  if (size == 0) return false;
  switch (rng() % 4) {
    case 0:
      list.truncate(list.list, 0);
      break;
    case 1:
      list.truncate(list.list, rng() % size);
      break;
    case 2:
      list.copy(list.list, rng() % size, rng() % size);
      break;
    default:
      list.swap(list.list, rng() % size, rng() % size);
      break;
  }
  return true;
}

/// Rewrites one packed line table (a library's address -> line rows or a
/// text's line origins): one value of one row, or the packed bytes
/// themselves (a byte changed, cut or added), or the row count; then packs
/// it again, so that the mutant reaches the checks made when it unpacks.
bool MutatePackedRows(Rng& rng, fb::ModuleT& m) {
  std::vector<std::pair<fb::PackedRowsT*, bool>> tables;  // (table, lines)
  for (auto& l : m.libraries)
    if (l && l->lines && l->lines->count) tables.push_back({l->lines.get(), 1});
  for (auto& s : m.source_files)
    if (s && s->origins && s->origins->count)
      tables.push_back({s->origins.get(), 0});
  if (tables.empty()) return false;
  auto [table, lines] = tables[rng() % tables.size()];
  const auto& columns = lines ? kiln::packed_rows::kLibraryLineColumns
                              : kiln::packed_rows::kLineOriginColumns;
  std::string packed(table->packed_size, '\0');
  if (ZSTD_isError(ZSTD_decompress(packed.data(), packed.size(),
                                   table->data.data(), table->data.size())))
    return false;
  std::vector<std::array<uint64_t, 4>> rows;
  switch (rng() % 3) {
    case 0:
      if (!kiln::packed_rows::Unpack(
              reinterpret_cast<const uint8_t*>(packed.data()), packed.size(),
              table->count, columns, &rows))
        return false;
      {
        uint64_t& value = rows[rng() % rows.size()][rng() % 4];
        value = MutateValue(rng, value);
      }
      packed = kiln::packed_rows::Pack(rows, columns);
      break;
    case 1:
      if (rng() % 2 && !packed.empty()) {
        packed[rng() % packed.size()] = static_cast<char>(rng());
      } else if (rng() % 2 && !packed.empty()) {
        packed.resize(rng() % packed.size());
      } else {
        packed.insert(packed.begin() + rng() % (packed.size() + 1),
                      static_cast<char>(rng()));
      }
      break;
    default:
      table->count = static_cast<uint32_t>(MutateValue(rng, table->count));
      break;
  }
  table->packed_size = static_cast<uint32_t>(packed.size());
  table->data.resize(ZSTD_compressBound(packed.size()));
  table->data.resize(ZSTD_compress(table->data.data(), table->data.size(),
                                   packed.data(), packed.size(), 1));
  return true;
}

/// Changes the code variants: their order (another one is preferred); a
/// copy of one under a new name, with copies of its libraries (a module
/// for two CPUs, whose copy runs where it comes first); the first one's
/// libraries made to need a feature no machine has (the next one runs);
/// or what host functions see of one export of one variant (its name,
/// bindings, their types, its index constants), which then differs from
/// the other variants'.
bool MutateVariants(Rng& rng, fb::ModuleT& m) {
  if (m.variants.empty()) return false;
  auto& variant = m.variants[rng() % m.variants.size()];
  if (!variant) return false;
  switch (rng() % 4) {
    case 0:
      std::swap(variant, m.variants[rng() % m.variants.size()]);
      return true;
    case 1: {
      auto copy = std::make_unique<fb::CodeVariantT>(*variant);
      copy->name += "+";
      std::map<uint32_t, uint32_t> copied;  // library -> its copy
      for (auto& e : copy->executables) {
        if (!e || e->library >= m.libraries.size() || !m.libraries[e->library])
          continue;
        auto [it, inserted] = copied.try_emplace(
            e->library, static_cast<uint32_t>(m.libraries.size()));
        if (inserted)
          m.libraries.push_back(
              std::make_unique<fb::LibraryT>(*m.libraries[e->library]));
        e->library = it->second;
      }
      m.variants.insert(m.variants.begin() + rng() % (m.variants.size() + 1),
                        std::move(copy));
      return true;
    }
    case 2:
      if (!m.variants[0]) return false;
      for (auto& e : m.variants[0]->executables)
        if (e && e->library < m.libraries.size() && m.libraries[e->library])
          m.libraries[e->library]->cpu_features.push_back("kiln-fuzz-ext");
      return true;
    default:
      break;
  }
  if (variant->executables.empty()) return false;
  auto& e = variant->executables[rng() % variant->executables.size()];
  if (!e || e->exports.empty()) return false;
  auto& x = e->exports[rng() % e->exports.size()];
  if (!x) return false;
  switch (rng() % 4) {
    case 0:
      x->name += "+";
      return true;
    case 1:
      x->binding_count =
          static_cast<uint32_t>(MutateValue(rng, x->binding_count));
      return true;
    case 2:
      x->index_constant_count =
          static_cast<uint32_t>(MutateValue(rng, x->index_constant_count));
      return true;
    default:
      return MutateList(rng, x->binding_types);
  }
}

bool MutateModule(Rng& rng, fb::ModuleT& m) {
  switch (rng() % 7) {
    case 0:
      return MutateStructure(rng, m);
    case 1:
      return MutateTypeConsistently(rng, m);
    case 2:
      return MutateOptionalField(rng, m);
    case 3:
      return MutatePackedRows(rng, m);
    case 4:
      return MutateVariants(rng, m);
    default:
      break;
  }
  KnobCollector collector;
  collector.Collect(m);
  if (collector.knobs.empty()) return false;
  const Knob& knob = collector.knobs[rng() % collector.knobs.size()];
  WriteKnob(knob, MutateValue(rng, ReadKnob(knob)));
  return true;
}

/// Whether kiln's verifier accepts `data` (libraries checked, not loaded).
bool Verifies(const uint8_t* data, size_t size) {
  kiln::ModuleLoadOptions options;
  options.load_libraries = false;
  options.max_buffer_bytes = kMaxBufferBytes;
  return kiln::Module::LoadFromMemory(data, size,
                                      kiln::Module::MemoryMode::kCopy, options)
      .ok();
}

/// Calls of a function whose arguments have dynamic dimensions or integer
/// elements (which may hold sizes): the sizes are the caller's to choose,
/// and a program must refuse those that disagree, not run past a buffer.
constexpr int kSizedCalls = 5;

/// The extent call `call` gives dynamic dimension `dim` of argument `arg`:
/// the first call agrees everywhere, the others disagree where a program
/// may take extents to be equal (a linalg.add given 3 and 5 elements, a
/// matmul whose K differs from its M, an extent off by one).
int64_t DynamicExtent(int call, size_t arg, size_t dim, Rng& rng) {
  static constexpr int64_t kExtents[] = {0, 1, 2, 3, 5, 8, 17, 33, 64};
  switch (call) {
    case 0:
      return 3;
    case 1:
      return static_cast<int64_t>(3 + 2 * arg);
    case 2:
      return static_cast<int64_t>(3 + 2 * dim);
    case 3:
      return rng() % 4 == 0 ? 18 : 17;
    default:
      return kExtents[rng() % std::size(kExtents)];
  }
}

/// Small values (sizes, offsets, indices) for the integer elements of
/// `tensor`; other elements stay zero.
void FillIntegers(kiln::Tensor& tensor, Rng& rng) {
  const kiln::ElementType type = tensor.element_type();
  const int64_t count = tensor.element_count();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t value = static_cast<int64_t>(rng() % 10);
    switch (type) {
      case kiln::ElementType::kI1:
        tensor.mutable_data_as<uint8_t>()[i] = value % 2;
        break;
      case kiln::ElementType::kI8:
        tensor.mutable_data_as<int8_t>()[i] = static_cast<int8_t>(value);
        break;
      case kiln::ElementType::kI16:
        tensor.mutable_data_as<int16_t>()[i] = static_cast<int16_t>(value);
        break;
      case kiln::ElementType::kI32:
        tensor.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(value);
        break;
      case kiln::ElementType::kI64:
        tensor.mutable_data_as<int64_t>()[i] = value;
        break;
      default:
        return;
    }
  }
}

bool IsInteger(kiln::ElementType type) {
  return type >= kiln::ElementType::kI1 && type <= kiln::ElementType::kI64;
}

/// Whether calls of `function` depend on the caller's choices beyond
/// zeros of its types.
bool TakesSizes(const kiln::FunctionSignature& function) {
  for (const kiln::TensorType& type : function.arguments) {
    if (IsInteger(type.element_type)) return true;
    for (int64_t dim : type.shape)
      if (dim == KILN_DYNAMIC_DIMENSION) return true;
  }
  return false;
}

/// The inputs of call `call` of `function`: zeros of its types in the
/// first call, small integers in the others, dynamic extents by
/// DynamicExtent. False if they cannot be made or exceed kMaxInputBytes.
bool MakeInputs(const kiln::FunctionSignature& function, int call, Rng& rng,
                std::vector<kiln::Tensor>* inputs) {
  uint64_t bytes = 0;
  for (size_t arg = 0; arg < function.arguments.size(); ++arg) {
    const kiln::TensorType& type = function.arguments[arg];
    kiln::Shape shape = type.shape;
    for (size_t dim = 0; dim < shape.size(); ++dim)
      if (shape[dim] == KILN_DYNAMIC_DIMENSION)
        shape[dim] = DynamicExtent(call, arg, dim, rng);
    auto tensor = kiln::Tensor::AllocateZeroed(type.element_type, shape);
    if (!tensor.ok() || (bytes += tensor->byte_size()) > kMaxInputBytes)
      return false;
    if (call > 0) FillIntegers(*tensor, rng);
    inputs->push_back(std::move(*tensor));
  }
  return true;
}

/// Loads `data` with its libraries and calls every function on inputs of
/// its signature, several times with several sizes where it takes them.
/// Returns the child's exit code: 0 when everything ended normally.
int RunModule(const uint8_t* data, size_t size) {
  kiln::ModuleLoadOptions options;
  options.max_buffer_bytes = kMaxBufferBytes;
  auto module = kiln::Module::LoadFromMemory(
      data, size, kiln::Module::MemoryMode::kCopy, options);
  if (!module.ok()) return module.status().message().empty() ? 3 : 0;
  // Every packed line table unpacked, as a profile or kiln-dump would: a
  // bad one is an error with a message.
  for (uint32_t i = 0; i < (*module)->sources().size(); ++i) {
    auto origins = (*module)->sources().origins(i);
    if (!origins.ok() && origins.status().message().empty()) return 5;
  }
  if (kiln::Status lines = (*module)->UnpackCodeLines();
      !lines.ok() && lines.message().empty()) {
    return 5;
  }
  kiln::ThreadPool pool(2);  // the caller and one worker
  kiln::Context context(*module, &pool);
  // Checks run too, as in kiln-check: their evaluation reads the operands.
  kiln::CheckRecorder checks;
  context.SetCheckHandler(&checks);
  // The sizes follow from the input, so that a finding reproduces.
  Rng rng(std::hash<std::string_view>()(
      std::string_view(reinterpret_cast<const char*>(data), size)));
  const std::vector<kiln::FunctionSignature>& functions =
      (*module)->functions();
  for (size_t i = 0; i < functions.size(); ++i) {
    const int calls = TakesSizes(functions[i]) ? kSizedCalls : 1;
    for (int call = 0; call < calls; ++call) {
      std::vector<kiln::Tensor> inputs;
      if (!MakeInputs(functions[i], call, rng, &inputs)) continue;
      std::vector<kiln::Tensor> outputs;
      kiln::Status status = context.Call(i, inputs, &outputs);
      if (!status.ok()) {
        if (status.message().empty()) return 4;
        continue;
      }
      // Results must be whole, readable buffers of their declared size.
      for (const kiln::Tensor& output : outputs) {
        const auto* p = static_cast<const uint8_t*>(output.data());
        for (size_t b = 0; b < output.byte_size(); b += 4096)
          g_result_sink = p[b];
        if (output.byte_size() > 0) g_result_sink = p[output.byte_size() - 1];
      }
    }
  }
  return 0;
}

/// Inputs that verified and ran in a child, and those of them whose child
/// ended by the time limit: printed at exit, so a run says how much of its
/// work reached the kernels.
size_t g_children = 0;
size_t g_slow_children = 0;

void PrintChildCounts() {
  std::fprintf(stderr,
               "module_run: %zu verified modules run in a child, %zu "
               "stopped after %u s\n",
               g_children, g_slow_children, kChildSeconds);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(PrintChildCounts);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed) {
  Rng rng(seed);
  // FlatBuffers reads fields in place: the bytes need the alignment a
  // module has in memory, which libFuzzer's buffer does not promise.
  std::vector<uint64_t> aligned((size + 7) / 8);
  std::memcpy(aligned.data(), data, size);
  const auto* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
  // Some byte-level mutations too: they reach the verifier and fields no
  // knob names (strings, library bytes). Only modules kiln verifies are
  // unpacked: the FlatBuffers verifier alone lets through vectors of 8-byte
  // scalars at 4-byte alignment, which kiln refuses.
  if (rng() % 8 == 0 || !Verifies(bytes, size))
    return LLVMFuzzerMutate(data, size, max_size);
  std::unique_ptr<fb::ModuleT> module(fb::GetModule(bytes)->UnPack());
  for (int n = 1 + rng() % 3; n > 0; --n) MutateModule(rng, *module);
  flatbuffers::FlatBufferBuilder builder;
  fb::FinishModuleBuffer(builder, fb::Module::Pack(builder, module.get()));
  if (builder.GetSize() > max_size)
    return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, builder.GetBufferPointer(), builder.GetSize());
  return builder.GetSize();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Refused modules never reach a child: verification alone is the module
  // fuzzer's job, and a fork per input would only slow this one down.
  if (!Verifies(data, size)) return 0;
  pid_t child = fork();
  if (child < 0) return 0;
  if (child == 0) {
    signal(SIGALRM, SIG_DFL);  // not the fuzzer's timeout handler
    alarm(kChildSeconds);
    _exit(RunModule(data, size));
  }
  ++g_children;
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    ++g_slow_children;
    return 0;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  if (WIFSIGNALED(status))
    std::fprintf(stderr, "running the module: killed by signal %d\n",
                 WTERMSIG(status));
  else
    std::fprintf(stderr, "running the module: exit status %d\n",
                 WEXITSTATUS(status));
  std::abort();
}
