//===- context.cc - Host function interpreter -----------------------------===//
//
// Runs the slot programs described in schema/module.fbs. The module was
// verified at load, so indices, types and buffer sizes are trusted here;
// whether a slot holds a value when it is read, and whether its buffer was
// written again since, is checked as it runs (in a function with branches
// the verifier cannot know).
//
//===----------------------------------------------------------------------===//

#include "kiln/context.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "cpu/dispatch.h"
#include "kiln/printable.h"
#include "kiln/trace.h"
#include "module/module_impl.h"

namespace kiln {

namespace {

static_assert(kTensorAlignment % KILN_WRITTEN_BINDING_ALIGNMENT == 0,
              "result buffers are allocated as aligned as kernels assume");

/// Where a value of no bytes points: kernels get an aligned address all the
/// same.
alignas(kTensorAlignment) const uint8_t kNoBytes[kTensorAlignment] = {};

/// What a slot holds during a call: a view of bytes of the slot's type.
struct SlotValue {
  enum class Storage : uint8_t {
    kNone,      // nothing (yet)
    kInput,     // the caller's
    kConstant,  // the module's
    kBuffer,    // buffer `buffer` of the Context, as written `generation`
    kOwned,     // new storage, kept alive by `owner`
  };
  const void* data = nullptr;
  uint64_t byte_size = 0;  // of what it holds (the slot type's, if static)
  Storage storage = Storage::kNone;
  uint32_t buffer = 0;
  uint64_t generation = 0;
  std::shared_ptr<void> owner;
};

/// Element `element` of integers of `type` at `data`, widened to 64 bits.
int64_t ReadElement(ElementType type, const void* data, uint64_t element,
                    bool is_unsigned) {
  auto read = [&](auto tag) -> int64_t {
    using T = decltype(tag);
    T value;
    std::memcpy(&value, static_cast<const uint8_t*>(data) + element * sizeof(T),
                sizeof(T));
    if (is_unsigned) {
      return static_cast<int64_t>(static_cast<std::make_unsigned_t<T>>(value));
    }
    return value;
  };
  switch (type) {
    case ElementType::kI1:
      return *(static_cast<const uint8_t*>(data) + element) != 0;
    case ElementType::kI8:
      return read(int8_t());
    case ElementType::kI16:
      return read(int16_t());
    case ElementType::kI32:
      return read(int32_t());
    default:
      return read(int64_t());
  }
}

}  // namespace

class Context::Impl {
 public:
  Impl(std::shared_ptr<const Module> module, ThreadPool* pool,
       std::shared_ptr<Allocator> allocator)
      : module_(std::move(module)),
        pool_(pool),
        allocator_(allocator ? std::move(allocator) : Allocator::Default()) {}
  ~Impl() {
    for (const Buffer& buffer : buffers_) {
      if (buffer.data) allocator_->Free(buffer.data, buffer.size);
    }
  }

  const Module& module() const { return *module_; }

  Status Call(size_t function_index, const std::vector<Tensor>& inputs,
              std::vector<Tensor>* outputs);
  /// `workgroup_count` null: the grid the export's code handles for these
  /// bindings.
  Status Dispatch(uint32_t executable, uint32_t export_index,
                  const std::array<uint32_t, 3>* workgroup_count,
                  const std::vector<Tensor>& bindings,
                  const std::vector<int64_t>& index_constants);

  DispatchObserver dispatch_observer;
  CheckHandler* check_handler = nullptr;

 private:
  Status Execute(size_t function_index, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs);
  /// Runs the DispatchOp at instruction `pc` of function `name`.
  // `status` of a failed dispatch of export `export_index` of `executable`,
  // followed by the input program's op and location it was made from
  // (level >= 1): "... (linalg.matmul at model.mlir:9:8)".
  Status AppendInputLocation(Status status, uint32_t executable,
                             uint32_t export_index) const;
  Status RunDispatchOp(const fb::DispatchOp& op, const FunctionPlan& plan,
                       const std::string& name, uint32_t pc);
  /// Allocates the buffers `plan` needs that the Context does not hold yet
  /// (or holds smaller).
  Status PrepareBuffers(const FunctionPlan& plan, const std::string& name);
  /// Fails unless `slot` holds a value whose bytes are still its own.
  Status CheckRead(uint32_t slot, const std::string& name, uint32_t pc) const;
  /// A tensor viewing what `slot` holds, for the call only.
  StatusOr<Tensor> ViewSlot(uint32_t slot, const FunctionPlan& plan) const;
  /// Dimension `d` of what `slot` holds.
  int64_t DimOf(const FunctionPlan& plan, uint32_t slot, size_t d) const {
    const SlotInfo& info = plan.slots[slot];
    return info.dynamic ? slot_dims_[info.dims_offset + d] : info.type.shape[d];
  }
  /// The shape of what `slot` holds.
  Shape ShapeOf(const FunctionPlan& plan, uint32_t slot) const;
  /// The shape a value written into `slot` takes: its type's, with each
  /// dynamic dimension from the index register `dims[(*next_dim)++]`; into
  /// `shape` (the slot's rank of entries), its byte size into `byte_size`.
  Status ComputeShape(const FunctionPlan& plan, uint32_t slot,
                      const flatbuffers::Vector<uint32_t>* dims,
                      uint32_t* next_dim, int64_t* shape,
                      uint64_t* byte_size) const;
  /// Makes `shape` the shape of what dynamic `slot` holds (no-op if static).
  void SetShape(const FunctionPlan& plan, uint32_t slot, const int64_t* shape);
  /// Runs the IndexOp `op` over the registers.
  Status RunIndexOp(const fb::IndexOp& op);
  /// Builds the trace sites of every function and export for the process
  /// tracer, when it changed since the last call; false when tracing is off.
  bool PrepareTraceSites();

  /// Storage of the functions' buffers, kept from call to call. Each write
  /// of a dispatch result into it makes a new generation: slots viewing an
  /// older one hold bytes that are no longer theirs.
  struct Buffer {
    void* data = nullptr;
    uint64_t size = 0;  // as allocated
    uint64_t generation = 0;
  };

  std::shared_ptr<const Module> module_;
  ThreadPool* pool_;
  std::shared_ptr<Allocator> allocator_;
  std::vector<Buffer> buffers_;
  // Per-call state, kept to reuse its capacity.
  std::vector<SlotValue> slots_;
  std::vector<std::shared_ptr<void>> new_storage_;
  std::vector<void*> binding_ptrs_;
  std::vector<uint64_t> binding_lengths_;
  std::vector<int64_t> constants_;
  // The index constants of the running DispatchOp (the tail of constants_).
  std::vector<int64_t> index_constants_;
  // The shapes of the dynamic slots (SlotInfo::dims_offset), and the index
  // registers.
  std::vector<int64_t> slot_dims_;
  std::vector<int64_t> registers_;
  // Shapes of the values an instruction writes, before they are committed.
  std::vector<int64_t> pending_dims_;
  // What zones show, per function and per [executable][export], built for
  // `trace_sites_tracer_` (views into the module; see kiln/trace.h).
  const Tracer* trace_sites_tracer_ = nullptr;
  std::vector<TraceSite> function_sites_;
  std::vector<std::vector<TraceSite>> export_sites_;
};

Context::Context(std::shared_ptr<const Module> module, ThreadPool* pool,
                 std::shared_ptr<Allocator> allocator)
    : impl_(std::make_unique<Impl>(std::move(module), pool,
                                   std::move(allocator))) {}

Context::~Context() = default;

const Module& Context::module() const { return impl_->module(); }

void Context::SetDispatchObserver(DispatchObserver observer) {
  impl_->dispatch_observer = std::move(observer);
}

void Context::SetCheckHandler(CheckHandler* handler) {
  impl_->check_handler = handler;
}

Status Context::Call(std::string_view function,
                     const std::vector<Tensor>& inputs,
                     std::vector<Tensor>* outputs) {
  KILN_ASSIGN_OR_RETURN(size_t index, module().FindFunction(function));
  return Call(index, inputs, outputs);
}

Status Context::Call(size_t function_index, const std::vector<Tensor>& inputs,
                     std::vector<Tensor>* outputs) {
  return impl_->Call(function_index, inputs, outputs);
}

Status Context::Dispatch(const ExportView& export_view,
                         const std::vector<Tensor>& bindings,
                         const std::vector<int64_t>& index_constants) {
  return impl_->Dispatch(export_view.executable_index(),
                         export_view.export_index(), nullptr, bindings,
                         index_constants);
}

Status Context::Dispatch(uint32_t executable, uint32_t export_index,
                         const std::array<uint32_t, 3>& workgroup_count,
                         const std::vector<Tensor>& bindings,
                         const std::vector<int64_t>& index_constants) {
  return impl_->Dispatch(executable, export_index, &workgroup_count, bindings,
                         index_constants);
}

namespace {

/// "binding 1 dimension 0" or "index constant 2": what dispatch constant
/// `constant` of `ex` is.
std::string DescribeConstant(const ResolvedExport& ex, uint32_t constant) {
  if (constant >= ex.constant_dims.size()) {
    return StrCat("index constant ", constant - ex.constant_dims.size());
  }
  const auto [binding, dim] = ex.constant_dims[constant];
  return StrCat("binding ", binding, " dimension ", dim);
}

/// Fails unless the dispatch's `constants` agree where the kernel takes
/// them to be equal, and its tiles cover the extents the kernel takes them
/// to (it would read or write past a binding otherwise).
Status CheckConstants(const ResolvedExport& ex,
                      const std::vector<int64_t>& constants) {
  for (uint32_t i = 0; i < SizeOf(ex.covering_tiles); ++i) {
    const fb::CoveringTiles* row = ex.covering_tiles->Get(i);
    const int64_t tiles = constants[row->tiles()];
    const int64_t extent = constants[row->extent()];
    int64_t covered = 0;
    if (tiles < 0 ||
        (!__builtin_mul_overflow(tiles, int64_t{row->tile()}, &covered) &&
         covered < extent)) {
      return InvalidArgumentError(
          "dispatch of '", ex.name, "': ", DescribeConstant(ex, row->tiles()),
          " is ", tiles, " tiles of ", row->tile(), ", which do not cover ",
          DescribeConstant(ex, row->extent()), " (", extent,
          "); the kernel reads the tiles that extent needs");
    }
  }
  if (!ex.equal_constants) return OkStatus();
  for (uint32_t i = 0; i + 1 < ex.equal_constants->size(); i += 2) {
    const uint32_t a = ex.equal_constants->Get(i);
    const uint32_t b = ex.equal_constants->Get(i + 1);
    if (constants[a] != constants[b]) {
      return InvalidArgumentError(
          "dispatch of '", ex.name, "': ", DescribeConstant(ex, a), " is ",
          constants[a], " but ", DescribeConstant(ex, b), " is ", constants[b],
          "; the kernel runs one loop over both (sizes the program says "
          "agree must agree)");
    }
  }
  return OkStatus();
}

/// Multiplies `count` (the export's static grid) by the export's workgroup
/// tiles over `constants`, the dispatch's dynamic extents.
Status ApplyWorkgroupTiles(const ResolvedExport& ex,
                           const std::vector<int64_t>& constants,
                           uint32_t count[3]) {
  if (!ex.workgroup_tiles) return OkStatus();
  uint64_t total[3] = {count[0], count[1], count[2]};
  for (const fb::WorkgroupTile* tile : *ex.workgroup_tiles) {
    // A loop over a negative extent (an index constant) runs no iteration;
    // the tile is >= 1.
    const uint64_t extent =
        static_cast<uint64_t>(std::max<int64_t>(constants[tile->constant()], 0));
    const uint64_t tiles = extent / tile->tile() + (extent % tile->tile() != 0);
    uint64_t& dim = total[tile->dimension()];
    if (__builtin_mul_overflow(dim, tiles, &dim) || dim > UINT32_MAX) {
      dim = uint64_t{UINT32_MAX} + 1;
    }
  }
  uint64_t product = 1;
  bool too_many = false;
  for (uint64_t dim : total) {
    too_many = too_many || dim > UINT32_MAX ||
               __builtin_mul_overflow(product, dim, &product) ||
               product > kMaxWorkgroupsPerDispatch;
  }
  if (too_many) {
    return ResourceExhaustedError("dispatch of '", ex.name,
                                  "' would have more than ",
                                  kMaxWorkgroupsPerDispatch, " workgroups");
  }
  for (int d = 0; d < 3; ++d) count[d] = static_cast<uint32_t>(total[d]);
  return OkStatus();
}

Status CheckLibrariesLoaded(const Module& module) {
  if (!module.libraries_loaded()) {
    return FailedPreconditionError(
        "the module was loaded without its libraries "
        "(ModuleLoadOptions::load_libraries); it cannot run");
  }
  return OkStatus();
}

}  // namespace

namespace {

/// What CheckInputs and CheckInputTypes check, of `count` inputs whose
/// element type and shape `type_of(i)` gives (without copying a shape:
/// Context::Call checks every call).
template <typename TypeOf>
Status CheckTypesAgainst(const FunctionSignature& signature, size_t count,
                         TypeOf type_of) {
  if (count != signature.arguments.size()) {
    return InvalidArgumentError(signature.ToString(), " takes ",
                                signature.arguments.size(), " inputs, got ",
                                count);
  }
  for (size_t i = 0; i < count; ++i) {
    const auto [element_type, shape] = type_of(i);
    const Shape& expected = signature.arguments[i].shape;
    bool matches = element_type == signature.arguments[i].element_type &&
                   shape->size() == expected.size();
    for (size_t d = 0; matches && d < expected.size(); ++d) {
      matches =
          expected[d] == KILN_DYNAMIC_DIMENSION || expected[d] == (*shape)[d];
    }
    if (!matches) {
      return InvalidArgumentError("input ", i, ": expected ",
                                  signature.arguments[i].ToString(), ", got ",
                                  FormatTensorType(element_type, *shape));
    }
  }
  return OkStatus();
}

}  // namespace

Status CheckInputTypes(const FunctionSignature& signature,
                       const std::vector<TensorType>& types) {
  return CheckTypesAgainst(signature, types.size(), [&](size_t i) {
    return std::make_pair(types[i].element_type, &types[i].shape);
  });
}

Status CheckInputs(const FunctionSignature& signature,
                   const std::vector<Tensor>& inputs) {
  // A wrong count is reported first, as by CheckInputTypes.
  for (size_t i = 0;
       inputs.size() == signature.arguments.size() && i < inputs.size(); ++i) {
    if (inputs[i].empty()) {
      return InvalidArgumentError("input ", i, ": empty tensor");
    }
  }
  return CheckTypesAgainst(signature, inputs.size(), [&](size_t i) {
    return std::make_pair(inputs[i].element_type(), &inputs[i].shape());
  });
}

Status Context::Impl::Call(size_t function_index,
                           const std::vector<Tensor>& inputs,
                           std::vector<Tensor>* outputs) {
  outputs->clear();
  KILN_RETURN_IF_ERROR(CheckLibrariesLoaded(*module_));
  const std::vector<FunctionSignature>& signatures = module_->functions();
  if (function_index >= signatures.size()) {
    return OutOfRangeError("function index ", function_index, " out of range (",
                           signatures.size(), " functions)");
  }
  KILN_RETURN_IF_ERROR(CheckInputs(signatures[function_index], inputs));
  // Refused before anything runs, as IREE refuses a module whose imports
  // nothing provides: half a test run is no answer either.
  const FunctionPlan& plan = module_->impl_->functions[function_index];
  if (plan.has_checks && !check_handler) {
    return FailedPreconditionError(
        "function '", signatures[function_index].name,
        "' has check instructions (check.expect_*) and the context has no "
        "check handler: link kiln_check and set a kiln::CheckRecorder "
        "(kiln/check.h) with Context::SetCheckHandler");
  }
  std::optional<ScopedZone> zone;
  if (PrepareTraceSites()) zone.emplace(function_sites_[function_index]);
  Status status = Execute(function_index, inputs, outputs);
  zone.reset();
  // Drop every intermediate reference; keep the capacity for the next call.
  for (SlotValue& slot : slots_) slot = SlotValue();
  new_storage_.clear();
  if (!status.ok()) outputs->clear();
  return status;
}

Status Context::Impl::Dispatch(uint32_t executable, uint32_t export_index,
                               const std::array<uint32_t, 3>* requested_count,
                               const std::vector<Tensor>& bindings,
                               const std::vector<int64_t>& index_constants) {
  KILN_RETURN_IF_ERROR(CheckLibrariesLoaded(*module_));
  KILN_ASSIGN_OR_RETURN(ExportView view,
                        module_->GetExport(executable, export_index));
  const std::string context = StrCat("dispatch '", view.name(), "'");
  if (bindings.size() != view.binding_count()) {
    return InvalidArgumentError(context, ": expected ", view.binding_count(),
                                " bindings, got ", bindings.size());
  }
  if (!view.has_binding_types()) {
    return FailedPreconditionError(
        context,
        ": the module does not record the export's binding types, "
        "so its bindings cannot be checked");
  }
  for (size_t i = 0; i < bindings.size(); ++i) {
    const Tensor& binding = bindings[i];
    if (binding.empty()) {
      return InvalidArgumentError(context, ": binding ", i, ": empty tensor");
    }
    const TensorTypeView expected = view.binding_type(static_cast<uint32_t>(i));
    if (!expected.Admits(binding.type())) {
      return InvalidArgumentError(context, ": binding ", i, ": expected ",
                                  expected.ToString(), ", got ",
                                  binding.type().ToString());
    }
    if (binding.is_borrowed()) {
      return InvalidArgumentError(
          context, ": binding ", i,
          ": borrowed tensor (the kernel may write any binding; pass an "
          "allocated tensor)");
    }
    // Tensor::Share asks for 64-byte aligned storage, and kernels store to
    // the bindings they write with aligned stores.
    if (reinterpret_cast<uintptr_t>(binding.data()) %
            KILN_WRITTEN_BINDING_ALIGNMENT !=
        0) {
      return InvalidArgumentError(context, ": binding ", i, ": data is not ",
                                  KILN_WRITTEN_BINDING_ALIGNMENT,
                                  "-byte aligned");
    }
  }
  const ResolvedExport& ex =
      module_->impl_->executables[executable][export_index];
  if (index_constants.size() != ex.index_constant_count) {
    return InvalidArgumentError(context, ": expected ",
                                ex.index_constant_count,
                                " index constants, got ",
                                index_constants.size());
  }
  constants_.clear();
  for (const auto& [binding, d] : ex.constant_dims) {
    constants_.push_back(bindings[binding].shape()[d]);
  }
  constants_.insert(constants_.end(), index_constants.begin(),
                    index_constants.end());
  KILN_RETURN_IF_ERROR(CheckConstants(ex, constants_));
  // The grid the code handles for these bindings.
  uint32_t compiled[3];
  for (int d = 0; d < 3; ++d) compiled[d] = ex.workgroup_count[d];
  KILN_RETURN_IF_ERROR(ApplyWorkgroupTiles(ex, constants_, compiled), context);
  const std::array<uint32_t, 3> workgroup_count =
      requested_count
          ? *requested_count
          : std::array<uint32_t, 3>{compiled[0], compiled[1], compiled[2]};
  // A requested count lies within the export's grid; the export's own may
  // be empty (an extent of 0 leaves no work).
  for (int d = 0; requested_count && d < 3; ++d) {
    if (workgroup_count[d] < 1 || workgroup_count[d] > compiled[d]) {
      return InvalidArgumentError(
          context, ": workgroup count ", workgroup_count[0], "x",
          workgroup_count[1], "x", workgroup_count[2], " is outside [1, ",
          compiled[0], "x", compiled[1], "x", compiled[2],
          "] (the export's count bounds the workgroup ids its code handles)");
    }
  }

  binding_ptrs_.clear();
  binding_lengths_.clear();
  for (const Tensor& binding : bindings) {
    binding_ptrs_.push_back(binding.mutable_data());
    binding_lengths_.push_back(binding.byte_size());
  }
  DispatchParams params;
  params.export_name = ex.name;
  params.function = ex.function;
  for (int d = 0; d < 3; ++d) params.workgroup_count[d] = workgroup_count[d];
  params.binding_count = static_cast<uint32_t>(binding_ptrs_.size());
  params.binding_ptrs = binding_ptrs_.data();
  params.binding_lengths = binding_lengths_.data();
  params.constant_count = static_cast<uint32_t>(constants_.size());
  params.constants = constants_.empty() ? nullptr : constants_.data();
  if (PrepareTraceSites())
    params.trace_site = &export_sites_[executable][export_index];
  return RunDispatch(*pool_, params);
}

bool Context::Impl::PrepareTraceSites() {
  const Tracer& tracer = GetTracer();
  if (!tracer.enabled()) return false;
  if (trace_sites_tracer_ == &tracer) return true;
  trace_sites_tracer_ = &tracer;
  const Module& module = *module_;
  function_sites_.clear();
  for (const FunctionSignature& signature : module.functions()) {
    TraceSite site;
    site.kind = ZoneKind::kFunction;
    site.name = signature.name;
    // No file: the module name may also name a binary file on disk, which a
    // profiler would then read as source text.
    function_sites_.push_back(site);
  }
  export_sites_.assign(module.executable_count(), {});
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      StatusOr<ExportView> view = module.GetExport(e, x);
      export_sites_[e].push_back(
          view.ok() ? MakeDispatchSite(module, *view, tracer.options())
                    : TraceSite());
    }
  }
  return true;
}

Status Context::Impl::PrepareBuffers(const FunctionPlan& plan,
                                     const std::string& name) {
  if (buffers_.size() < plan.buffer_sizes.size()) {
    buffers_.resize(plan.buffer_sizes.size());
  }
  for (size_t i = 0; i < plan.buffer_sizes.size(); ++i) {
    Buffer& buffer = buffers_[i];
    const uint64_t size = std::max<uint64_t>(plan.buffer_sizes[i], 1);
    if (buffer.data && buffer.size >= size) continue;
    if (buffer.data) allocator_->Free(buffer.data, buffer.size);
    buffer.data = allocator_->Allocate(size);
    buffer.size = buffer.data ? size : 0;
    if (!buffer.data) {
      return ResourceExhaustedError("function '", name, "' buffer ", i,
                                    ": cannot allocate ", size, " bytes");
    }
  }
  return OkStatus();
}

Status Context::Impl::CheckRead(uint32_t slot, const std::string& name,
                                uint32_t pc) const {
  const SlotValue& value = slots_[slot];
  if (__builtin_expect(value.storage == SlotValue::Storage::kNone, 0)) {
    return FailedPreconditionError("function '", name, "' instruction ", pc,
                                   ": slot ", slot,
                                   " read before it was written");
  }
  if (__builtin_expect(
          value.storage == SlotValue::Storage::kBuffer &&
              value.generation != buffers_[value.buffer].generation,
          0)) {
    return FailedPreconditionError(
        "function '", name, "' instruction ", pc, ": slot ", slot,
        " read after buffer ", value.buffer,
        ", which it views, was written again: two values live at once "
        "share a buffer");
  }
  return OkStatus();
}

StatusOr<Tensor> Context::Impl::ViewSlot(uint32_t slot,
                                         const FunctionPlan& plan) const {
  return Tensor::Borrow(plan.slots[slot].type.element_type, ShapeOf(plan, slot),
                        slots_[slot].data, slots_[slot].byte_size);
}

Shape Context::Impl::ShapeOf(const FunctionPlan& plan, uint32_t slot) const {
  const SlotInfo& info = plan.slots[slot];
  if (!info.dynamic) return info.type.shape;
  const int64_t* dims = slot_dims_.data() + info.dims_offset;
  return Shape(dims, dims + info.type.shape.size());
}

Status Context::Impl::ComputeShape(const FunctionPlan& plan, uint32_t slot,
                                   const flatbuffers::Vector<uint32_t>* dims,
                                   uint32_t* next_dim, int64_t* shape,
                                   uint64_t* byte_size) const {
  const SlotInfo& info = plan.slots[slot];
  if (!info.dynamic) {
    std::copy(info.type.shape.begin(), info.type.shape.end(), shape);
    *byte_size = info.byte_size;
    return OkStatus();
  }
  uint64_t count = 1;
  bool overflow = false;
  for (size_t d = 0; d < info.type.shape.size(); ++d) {
    int64_t dim = info.type.shape[d];
    if (dim == KILN_DYNAMIC_DIMENSION) {
      dim = registers_[dims->Get((*next_dim)++)];
      if (dim < 0) {
        return InvalidArgumentError("slot ", slot, " (", info.type.ToString(),
                                    ") dimension ", d, " would be ", dim);
      }
    }
    shape[d] = dim;
    overflow =
        overflow ||
        __builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count) ||
        count > kMaxTensorByteSize;
  }
  const uint64_t limit = module_->impl_->max_buffer_bytes;
  const uint64_t element_size = ElementTypeByteSize(info.type.element_type);
  if (count != 0 && (overflow || count * element_size > limit)) {
    return ResourceExhaustedError(
        "slot ", slot, " (", info.type.ToString(), ") would be ",
        FormatTensorType(info.type.element_type,
                         Shape(shape, shape + info.type.shape.size())),
        ", more than the buffer limit of ", limit, " bytes (",
        kBufferLimitSource, ")");
  }
  *byte_size = count * element_size;
  return OkStatus();
}

void Context::Impl::SetShape(const FunctionPlan& plan, uint32_t slot,
                             const int64_t* shape) {
  const SlotInfo& info = plan.slots[slot];
  if (info.dynamic) {
    std::copy(shape, shape + info.type.shape.size(),
              slot_dims_.begin() + info.dims_offset);
  }
}

Status Context::Impl::RunIndexOp(const fb::IndexOp& op) {
  const int64_t lhs = registers_[op.lhs()];
  const int64_t rhs = registers_[op.rhs()];
  int64_t result = 0;
  bool overflow = false;
  switch (op.kind()) {
    case fb::IndexKind::Constant:
      result = op.value();
      break;
    case fb::IndexKind::Add:
      overflow = __builtin_add_overflow(lhs, rhs, &result);
      break;
    case fb::IndexKind::Sub:
      overflow = __builtin_sub_overflow(lhs, rhs, &result);
      break;
    case fb::IndexKind::Mul:
      overflow = __builtin_mul_overflow(lhs, rhs, &result);
      break;
    case fb::IndexKind::Div:
    case fb::IndexKind::FloorDiv:
    case fb::IndexKind::CeilDiv:
    case fb::IndexKind::Rem: {
      if (rhs == 0) return InvalidArgumentError("index division by zero");
      if (lhs == INT64_MIN && rhs == -1) {
        overflow = true;
        break;
      }
      const int64_t quotient = lhs / rhs;  // truncated
      const int64_t remainder = lhs % rhs;
      const bool inexact = remainder != 0;
      const bool negative = (lhs < 0) != (rhs < 0);
      if (op.kind() == fb::IndexKind::Rem) {
        result = remainder;
      } else if (op.kind() == fb::IndexKind::Div) {
        result = quotient;
      } else if (op.kind() == fb::IndexKind::FloorDiv) {
        result = quotient - (inexact && negative);
      } else {
        result = quotient + (inexact && !negative);
      }
      break;
    }
    case fb::IndexKind::Min:
      result = std::min(lhs, rhs);
      break;
    case fb::IndexKind::Max:
      result = std::max(lhs, rhs);
      break;
    case fb::IndexKind::DivU:
    case fb::IndexKind::CeilDivU:
    case fb::IndexKind::RemU: {
      if (rhs == 0) return InvalidArgumentError("index division by zero");
      const uint64_t a = static_cast<uint64_t>(lhs);
      const uint64_t b = static_cast<uint64_t>(rhs);
      uint64_t value = a % b;
      if (op.kind() == fb::IndexKind::DivU) {
        value = a / b;
      } else if (op.kind() == fb::IndexKind::CeilDivU) {
        value = a / b + (a % b != 0);
      }
      result = static_cast<int64_t>(value);
      break;
    }
  }
  if (overflow) {
    return InvalidArgumentError("index ", fb::EnumNameIndexKind(op.kind()),
                                " of ", lhs, " and ", rhs, " overflows");
  }
  registers_[op.result()] = result;
  return OkStatus();
}

Status Context::Impl::Execute(size_t function_index,
                              const std::vector<Tensor>& inputs,
                              std::vector<Tensor>* outputs) {
  const Module::Impl& module = *module_->impl_;
  const FunctionPlan& plan = module.functions[function_index];
  const fb::Function& function = *plan.function;
  const std::string& name = module.signatures[function_index].name;

  KILN_RETURN_IF_ERROR(PrepareBuffers(plan, name));
  slots_.resize(plan.slots.size());
  slot_dims_.resize(plan.dynamic_dims);
  registers_.assign(plan.index_count, 0);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const uint32_t index = plan.argument_slots[i];
    SlotValue& slot = slots_[index];
    slot.data = inputs[i].data();
    slot.byte_size = inputs[i].byte_size();
    slot.storage = SlotValue::Storage::kInput;
    SetShape(plan, index, inputs[i].shape().data());
  }

  const auto* types = function.body_type();
  const auto* body = function.body();
  const uint32_t count = body->size();
  uint32_t pc = 0;
  while (pc < count) {
    uint32_t next = pc + 1;
    switch (types->GetEnum<fb::Op>(pc)) {
      case fb::Op::ConstantOp: {
        const auto* op = static_cast<const fb::ConstantOp*>(body->Get(pc));
        const fb::Constant* constant =
            module.root->constants()->Get(op->constant());
        // Constants are used in place from the module's bytes.
        SlotValue& slot = slots_[op->result()];
        slot = SlotValue();
        slot.data = constant->data() && constant->data()->size() != 0
                        ? constant->data()->data()
                        : kNoBytes;
        slot.byte_size = plan.slots[op->result()].byte_size;
        slot.storage = SlotValue::Storage::kConstant;
        break;
      }
      case fb::Op::DispatchOp: {
        const auto* op = static_cast<const fb::DispatchOp*>(body->Get(pc));
        Status status = RunDispatchOp(*op, plan, name, pc);
        if (!status.ok()) {
          return AppendInputLocation(std::move(status), op->executable(),
                                     op->export_index());
        }
        break;
      }
      case fb::Op::ReshapeOp: {
        const auto* op = static_cast<const fb::ReshapeOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(CheckRead(op->source(), name, pc));
        // Same bytes, the result slot's type (the verifier checked static
        // sizes; dynamic ones are compared here).
        const uint32_t rank = plan.slots[op->result()].type.shape.size();
        pending_dims_.resize(rank);
        uint32_t next_dim = 0;
        uint64_t byte_size = 0;
        Status status =
            ComputeShape(plan, op->result(), op->result_dims(), &next_dim,
                         pending_dims_.data(), &byte_size);
        if (status.ok() && byte_size != slots_[op->source()].byte_size) {
          status = InvalidArgumentError(
              "reshape of ",
              FormatTensorType(plan.slots[op->source()].type.element_type,
                               ShapeOf(plan, op->source())),
              " to ",
              FormatTensorType(
                  plan.slots[op->result()].type.element_type,
                  Shape(pending_dims_.begin(), pending_dims_.end())),
              " changes its size");
        }
        if (!status.ok()) {
          return status.Prepend(
              StrCat("function '", name, "' instruction ", pc));
        }
        slots_[op->result()] = slots_[op->source()];
        SetShape(plan, op->result(), pending_dims_.data());
        break;
      }
      case fb::Op::DimOp: {
        const auto* op = static_cast<const fb::DimOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(CheckRead(op->source(), name, pc));
        registers_[op->result()] = DimOf(plan, op->source(), op->dimension());
        break;
      }
      case fb::Op::ExtractOp: {
        const auto* op = static_cast<const fb::ExtractOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(CheckRead(op->source(), name, pc));
        registers_[op->result()] = ReadElement(
            plan.slots[op->source()].type.element_type,
            slots_[op->source()].data, op->element(), op->is_unsigned());
        break;
      }
      case fb::Op::IndexOp: {
        const auto* op = static_cast<const fb::IndexOp*>(body->Get(pc));
        Status status = RunIndexOp(*op);
        if (!status.ok()) {
          return status.Prepend(
              StrCat("function '", name, "' instruction ", pc));
        }
        break;
      }
      case fb::Op::ReleaseOp: {
        const auto* op = static_cast<const fb::ReleaseOp*>(body->Get(pc));
        if (const auto* slots = op->slots()) {
          for (uint32_t slot : *slots) slots_[slot] = SlotValue();
        }
        break;
      }
      case fb::Op::ReturnOp: {
        const auto* op = static_cast<const fb::ReturnOp*>(body->Get(pc));
        const auto* operands = op->operands();
        if (!operands) return OkStatus();
        for (uint32_t slot : *operands) {
          KILN_RETURN_IF_ERROR(CheckRead(slot, name, pc));
        }
        outputs->reserve(operands->size());
        for (uint32_t slot : *operands) {
          const SlotValue& value = slots_[slot];
          const SlotInfo& info = plan.slots[slot];
          // The caller owns its results: new storage is handed over, and
          // anything else copied (the caller's inputs, the module's
          // constants, a buffer the next call writes).
          Shape shape = ShapeOf(plan, slot);
          StatusOr<Tensor> result =
              value.storage == SlotValue::Storage::kOwned
                  ? Tensor::Share(info.type.element_type, std::move(shape),
                                  value.owner)
                  : Tensor::Allocate(info.type.element_type, std::move(shape),
                                     allocator_);
          if (!result.ok()) {
            return std::move(result).status().Prepend(
                StrCat("function '", name, "' instruction ", pc));
          }
          if (value.storage != SlotValue::Storage::kOwned) {
            std::memcpy(result->mutable_data(), value.data, value.byte_size);
          }
          outputs->push_back(std::move(result).value());
        }
        return OkStatus();
      }
      case fb::Op::BranchOp:
        next = static_cast<const fb::BranchOp*>(body->Get(pc))->target();
        break;
      case fb::Op::CondBranchOp: {
        const auto* op = static_cast<const fb::CondBranchOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(CheckRead(op->condition(), name, pc));
        // A 0-d i1: one byte, 1 for true (any nonzero byte counts as true).
        next = *static_cast<const uint8_t*>(slots_[op->condition()].data) != 0
                   ? op->true_target()
                   : op->false_target();
        break;
      }
      case fb::Op::CheckOp: {
        const auto* op = static_cast<const fb::CheckOp*>(body->Get(pc));
        const auto kind = static_cast<CheckKind>(op->kind());
        const bool has_rhs = CheckKindHasRhs(kind);
        KILN_RETURN_IF_ERROR(CheckRead(op->lhs(), name, pc));
        if (has_rhs) KILN_RETURN_IF_ERROR(CheckRead(op->rhs(), name, pc));
        KILN_ASSIGN_OR_RETURN(Tensor lhs, ViewSlot(op->lhs(), plan));
        Tensor rhs;
        if (has_rhs) {
          KILN_ASSIGN_OR_RETURN(rhs, ViewSlot(op->rhs(), plan));
          // Types were compared at load; dynamic shapes only now.
          if (lhs.shape() != rhs.shape()) {
            return InvalidArgumentError("function '", name, "' instruction ",
                                        pc, ": check ", CheckKindName(kind),
                                        " at ", StringOf(op->location()),
                                        " compares ", lhs.type().ToString(),
                                        " with ", rhs.type().ToString());
          }
        }
        CheckCall call;
        call.kind = kind;
        call.lhs = &lhs;
        call.rhs = has_rhs ? &rhs : nullptr;
        call.atol = op->atol();
        call.rtol = op->rtol();
        call.location = StringOf(op->location());
        call.function = name;
        call.instruction = pc;
        // Call() made sure there is a handler.
        Status status = check_handler->Check(call);
        if (!status.ok()) {
          return status.Prepend(
              StrCat("function '", name, "' instruction ", pc));
        }
        break;
      }
      default:
        // Unreachable: the verifier rejects unknown instructions.
        return InternalError("function '", name, "' instruction ", pc,
                             ": unknown instruction");
    }
    pc = next;
  }
  // Unreachable: the verifier makes every body end in a return or a branch.
  return InternalError("function '", name, "' ran past its last instruction");
}

Status Context::Impl::AppendInputLocation(Status status, uint32_t executable,
                                          uint32_t export_index) const {
  StatusOr<ExportView> view = module_->GetExport(executable, export_index);
  if (!view.ok() || !view->location().known()) return status;
  // The op at that location, as the program names it (level >= 2).
  const SourceLocationView location = view->location();
  std::string_view op_name;
  for (uint32_t p = 0; p < view->provenance_count() && op_name.empty(); ++p) {
    const SourceLocationView fused = view->provenance(p).location;
    if (fused.file == location.file && fused.line == location.line &&
        fused.column == location.column) {
      op_name = view->provenance(p).name;
    }
  }
  return Status(status.code(),
                StrCat(status.message(), " (",
                       op_name.empty() ? "" : StrCat(Printable(op_name), " "),
                       "at ", Printable(location.ToString()), ")"));
}

Status Context::Impl::RunDispatchOp(const fb::DispatchOp& op,
                                    const FunctionPlan& plan,
                                    const std::string& name, uint32_t pc) {
  const Module::Impl& module = *module_->impl_;
  const ResolvedExport& ex =
      module.executables[op.executable()][op.export_index()];
  const auto* operands = op.operands();
  const auto* results = op.results();
  const auto* result_buffers = op.result_buffers();
  const auto buffer_of = [result_buffers](uint32_t i) {
    return result_buffers ? result_buffers->Get(i) : KILN_NEW_BUFFER;
  };
  const auto fail = [&](Status status) {
    return status.Prepend(StrCat("function '", name, "' instruction ", pc));
  };
  const uint32_t operand_count = operands ? operands->size() : 0;
  const uint32_t result_count = results ? results->size() : 0;
  binding_ptrs_.clear();
  binding_lengths_.clear();
  for (uint32_t i = 0; i < operand_count; ++i) {
    const uint32_t slot = operands->Get(i);
    KILN_RETURN_IF_ERROR(CheckRead(slot, name, pc));
    binding_ptrs_.push_back(const_cast<void*>(slots_[slot].data));
    binding_lengths_.push_back(slots_[slot].byte_size);
  }
  // The results' shapes, result after result in pending_dims_; committed to
  // their slots only once the kernel ran (a result slot may also be an
  // operand, whose shape the kernel takes).
  pending_dims_.clear();
  uint32_t next_dim = 0;
  for (uint32_t i = 0; i < result_count; ++i) {
    const uint32_t slot = results->Get(i);
    const size_t offset = pending_dims_.size();
    pending_dims_.resize(offset + plan.slots[slot].type.shape.size());
    uint64_t byte_size = 0;
    Status status = ComputeShape(plan, slot, op.result_dims(), &next_dim,
                                 pending_dims_.data() + offset, &byte_size);
    if (!status.ok()) return fail(std::move(status));
    binding_lengths_.push_back(byte_size);
  }
  const auto dim_of_binding = [&](uint32_t binding, uint32_t d) -> int64_t {
    if (binding < operand_count) {
      return DimOf(plan, operands->Get(binding), d);
    }
    size_t offset = 0;
    for (uint32_t i = 0; i < binding - operand_count; ++i) {
      offset += plan.slots[results->Get(i)].type.shape.size();
    }
    return pending_dims_[offset + d];
  };
  constants_.clear();
  for (const auto& [binding, d] : ex.constant_dims) {
    constants_.push_back(dim_of_binding(binding, d));
  }
  index_constants_.clear();
  for (uint32_t i = 0; i < SizeOf(op.constants()); ++i) {
    index_constants_.push_back(registers_[op.constants()->Get(i)]);
  }
  constants_.insert(constants_.end(), index_constants_.begin(),
                    index_constants_.end());
  Status equal_status = CheckConstants(ex, constants_);
  if (!equal_status.ok()) return fail(std::move(equal_status));
  DispatchParams params;
  for (int d = 0; d < 3; ++d) params.workgroup_count[d] = ex.workgroup_count[d];
  Status count_status =
      ApplyWorkgroupTiles(ex, constants_, params.workgroup_count);
  if (!count_status.ok()) return fail(std::move(count_status));

  // Results replace their slots once the dispatch is done: a result slot
  // may also be an operand (a loop-carried value, `i = i + 1`), whose bytes
  // must live until then. The previous value of any other result slot is
  // dropped first, so a loop holds one copy of what it carries.
  new_storage_.clear();
  for (uint32_t i = 0; i < result_count; ++i) {
    const uint32_t slot = results->Get(i);
    const uint64_t byte_size = binding_lengths_[operand_count + i];
    const uint32_t buffer = buffer_of(i);
    if (buffer != KILN_NEW_BUFFER) {
      // A kernel must not write what it reads.
      for (uint32_t j = 0; j < operand_count; ++j) {
        const SlotValue& operand = slots_[operands->Get(j)];
        if (operand.storage == SlotValue::Storage::kBuffer &&
            operand.buffer == buffer) {
          return FailedPreconditionError(
              "function '", name, "' instruction ", pc, ": operand ", j,
              " (slot ", operands->Get(j), ") is in buffer ", buffer,
              ", which result ", i, " is written into");
        }
      }
      if (byte_size > plan.buffer_sizes[buffer]) {
        return FailedPreconditionError(
            "function '", name, "' instruction ", pc, ": result ", i, " (",
            byte_size, " bytes) does not fit buffer ", buffer, " (",
            plan.buffer_sizes[buffer], " bytes)");
      }
      new_storage_.emplace_back();
      binding_ptrs_.push_back(buffers_[buffer].data);
      continue;
    }
    bool is_operand = false;
    for (uint32_t j = 0; j < operand_count; ++j) {
      is_operand = is_operand || operands->Get(j) == slot;
    }
    if (!is_operand) slots_[slot] = SlotValue();
    StatusOr<std::shared_ptr<void>> storage =
        AllocateShared(allocator_, byte_size);
    if (!storage.ok()) return fail(std::move(storage).status());
    binding_ptrs_.push_back(storage->get());
    new_storage_.push_back(std::move(storage).value());
  }
  params.export_name = ex.name;
  params.function = ex.function;
  params.binding_count = static_cast<uint32_t>(binding_ptrs_.size());
  params.binding_ptrs = binding_ptrs_.data();
  params.binding_lengths = binding_lengths_.data();
  params.constant_count = static_cast<uint32_t>(constants_.size());
  params.constants = constants_.empty() ? nullptr : constants_.data();
  if (trace_sites_tracer_ && GetTracer().enabled()) {
    params.trace_site = &export_sites_[op.executable()][op.export_index()];
  }
  Status status = RunDispatch(*pool_, params);
  // The observer sees each binding as the kernel did: before the results
  // replace their slots, a loop-carried operand still holds its input.
  if (status.ok() && dispatch_observer) {
    StatusOr<ExportView> view =
        module_->GetExport(op.executable(), op.export_index());
    if (view.ok()) {
      std::vector<Tensor> bindings;
      for (uint32_t i = 0; status.ok() && i < binding_ptrs_.size(); ++i) {
        const uint32_t slot = i < operand_count
                                  ? operands->Get(i)
                                  : results->Get(i - operand_count);
        Shape shape(plan.slots[slot].type.shape.size());
        for (size_t d = 0; d < shape.size(); ++d) {
          shape[d] = dim_of_binding(i, static_cast<uint32_t>(d));
        }
        StatusOr<Tensor> binding =
            Tensor::Borrow(plan.slots[slot].type.element_type, std::move(shape),
                           binding_ptrs_[i], binding_lengths_[i]);
        status = binding.status();
        if (binding.ok()) bindings.push_back(std::move(binding).value());
      }
      if (status.ok())
        status = dispatch_observer(*view, bindings, operand_count,
                                   index_constants_);
    } else {
      status = std::move(view).status();
    }
  }
  // What the kernel wrote is the results' now.
  size_t offset = 0;
  for (uint32_t i = 0; i < result_count; ++i) {
    const uint32_t slot_index = results->Get(i);
    SlotValue& slot = slots_[slot_index];
    slot = SlotValue();
    slot.data = binding_ptrs_[operand_count + i];
    slot.byte_size = binding_lengths_[operand_count + i];
    SetShape(plan, slot_index, pending_dims_.data() + offset);
    offset += plan.slots[slot_index].type.shape.size();
    const uint32_t buffer = buffer_of(i);
    if (buffer != KILN_NEW_BUFFER) {
      slot.storage = SlotValue::Storage::kBuffer;
      slot.buffer = buffer;
      slot.generation = ++buffers_[buffer].generation;
    } else {
      slot.storage = SlotValue::Storage::kOwned;
      slot.owner = std::move(new_storage_[i]);
    }
  }
  new_storage_.clear();
  if (!status.ok()) return fail(std::move(status));
  return OkStatus();
}

}  // namespace kiln
