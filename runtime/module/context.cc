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

#include "cpu/dispatch.h"
#include "kiln/trace.h"
#include "module/module_impl.h"

namespace kiln {

namespace {

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
  Storage storage = Storage::kNone;
  uint32_t buffer = 0;
  uint64_t generation = 0;
  std::shared_ptr<void> owner;
};

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
  Status Dispatch(uint32_t executable, uint32_t export_index,
                  const std::array<uint32_t, 3>& workgroup_count,
                  const std::vector<Tensor>& bindings);

  DispatchObserver dispatch_observer;
  CheckHandler* check_handler = nullptr;

 private:
  Status Execute(size_t function_index, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs);
  /// Runs the DispatchOp at instruction `pc` of function `name`.
  Status RunDispatchOp(const fb::DispatchOp& op, const FunctionPlan& plan,
                       const std::string& name, uint32_t pc);
  /// Allocates the buffers `plan` needs that the Context does not hold yet
  /// (or holds smaller).
  Status PrepareBuffers(const FunctionPlan& plan, const std::string& name);
  /// Fails unless `slot` holds a value whose bytes are still its own.
  Status CheckRead(uint32_t slot, const std::string& name, uint32_t pc) const;
  /// A tensor viewing what `slot` holds, for the call only.
  StatusOr<Tensor> ViewSlot(uint32_t slot, const FunctionPlan& plan) const;
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
                         const std::vector<Tensor>& bindings) {
  return Dispatch(export_view.executable_index(), export_view.export_index(),
                  export_view.workgroup_count(), bindings);
}

Status Context::Dispatch(uint32_t executable, uint32_t export_index,
                         const std::array<uint32_t, 3>& workgroup_count,
                         const std::vector<Tensor>& bindings) {
  return impl_->Dispatch(executable, export_index, workgroup_count, bindings);
}

namespace {

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
    if (element_type != signature.arguments[i].element_type ||
        *shape != signature.arguments[i].shape) {
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
                               const std::array<uint32_t, 3>& workgroup_count,
                               const std::vector<Tensor>& bindings) {
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
    if (expected != binding.type()) {
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
  }
  const std::array<uint32_t, 3> compiled = view.workgroup_count();
  for (int d = 0; d < 3; ++d) {
    if (workgroup_count[d] < 1 || workgroup_count[d] > compiled[d]) {
      return InvalidArgumentError(
          context, ": workgroup count ", workgroup_count[0], "x",
          workgroup_count[1], "x", workgroup_count[2], " is outside [1, ",
          compiled[0], "x", compiled[1], "x", compiled[2],
          "] (the export's count bounds the workgroup ids its code handles)");
    }
  }

  const ResolvedExport& ex =
      module_->impl_->executables[executable][export_index];
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
  const SlotInfo& info = plan.slots[slot];
  return Tensor::Borrow(info.type.element_type, info.type.shape,
                        slots_[slot].data, info.byte_size);
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
  for (size_t i = 0; i < inputs.size(); ++i) {
    SlotValue& slot = slots_[plan.argument_slots[i]];
    slot.data = inputs[i].data();
    slot.storage = SlotValue::Storage::kInput;
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
        slot.storage = SlotValue::Storage::kConstant;
        break;
      }
      case fb::Op::DispatchOp: {
        const auto* op = static_cast<const fb::DispatchOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(RunDispatchOp(*op, plan, name, pc));
        break;
      }
      case fb::Op::ReshapeOp: {
        const auto* op = static_cast<const fb::ReshapeOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(CheckRead(op->source(), name, pc));
        // Same bytes, the result slot's type (the verifier checked sizes).
        slots_[op->result()] = slots_[op->source()];
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
          StatusOr<Tensor> result =
              value.storage == SlotValue::Storage::kOwned
                  ? Tensor::Share(info.type.element_type, info.type.shape,
                                  value.owner)
                  : Tensor::Allocate(info.type.element_type, info.type.shape,
                                     allocator_);
          if (!result.ok()) {
            return std::move(result).status().Prepend(
                StrCat("function '", name, "' instruction ", pc));
          }
          if (value.storage != SlotValue::Storage::kOwned) {
            std::memcpy(result->mutable_data(), value.data, info.byte_size);
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
  binding_ptrs_.clear();
  binding_lengths_.clear();
  if (operands) {
    for (uint32_t slot : *operands) {
      KILN_RETURN_IF_ERROR(CheckRead(slot, name, pc));
      binding_ptrs_.push_back(const_cast<void*>(slots_[slot].data));
      binding_lengths_.push_back(plan.slots[slot].byte_size);
    }
  }
  // Results replace their slots once the dispatch is done: a result slot
  // may also be an operand (a loop-carried value, `i = i + 1`), whose bytes
  // must live until then. The previous value of any other result slot is
  // dropped first, so a loop holds one copy of what it carries.
  new_storage_.clear();
  const uint32_t result_count = results ? results->size() : 0;
  for (uint32_t i = 0; i < result_count; ++i) {
    const uint32_t slot = results->Get(i);
    const uint64_t byte_size = plan.slots[slot].byte_size;
    const uint32_t buffer = buffer_of(i);
    if (buffer != KILN_NEW_BUFFER) {
      // A kernel must not write what it reads.
      for (uint32_t j = 0; operands && j < operands->size(); ++j) {
        const SlotValue& operand = slots_[operands->Get(j)];
        if (operand.storage == SlotValue::Storage::kBuffer &&
            operand.buffer == buffer) {
          return FailedPreconditionError(
              "function '", name, "' instruction ", pc, ": operand ", j,
              " (slot ", operands->Get(j), ") is in buffer ", buffer,
              ", which result ", i, " is written into");
        }
      }
      new_storage_.emplace_back();
      binding_ptrs_.push_back(buffers_[buffer].data);
      binding_lengths_.push_back(byte_size);
      continue;
    }
    bool is_operand = false;
    for (uint32_t j = 0; operands && j < operands->size(); ++j) {
      is_operand = is_operand || operands->Get(j) == slot;
    }
    if (!is_operand) slots_[slot] = SlotValue();
    StatusOr<std::shared_ptr<void>> storage =
        AllocateShared(allocator_, byte_size);
    if (!storage.ok()) {
      return std::move(storage).status().Prepend(
          StrCat("function '", name, "' instruction ", pc));
    }
    binding_ptrs_.push_back(storage->get());
    binding_lengths_.push_back(byte_size);
    new_storage_.push_back(std::move(storage).value());
  }
  DispatchParams params;
  params.export_name = ex.name;
  params.function = ex.function;
  for (int d = 0; d < 3; ++d) params.workgroup_count[d] = ex.workgroup_count[d];
  params.binding_count = static_cast<uint32_t>(binding_ptrs_.size());
  params.binding_ptrs = binding_ptrs_.data();
  params.binding_lengths = binding_lengths_.data();
  if (trace_sites_tracer_ && GetTracer().enabled()) {
    params.trace_site = &export_sites_[op.executable()][op.export_index()];
  }
  Status status = RunDispatch(*pool_, params);
  // The observer sees each binding as the kernel did: before the results
  // replace their slots, a loop-carried operand still holds its input.
  const uint32_t operand_count = operands ? operands->size() : 0;
  if (status.ok() && dispatch_observer) {
    StatusOr<ExportView> view =
        module_->GetExport(op.executable(), op.export_index());
    if (view.ok()) {
      std::vector<Tensor> bindings;
      for (uint32_t i = 0; status.ok() && i < binding_ptrs_.size(); ++i) {
        const SlotInfo& info =
            plan.slots[i < operand_count ? operands->Get(i)
                                         : results->Get(i - operand_count)];
        StatusOr<Tensor> binding =
            Tensor::Borrow(info.type.element_type, info.type.shape,
                           binding_ptrs_[i], info.byte_size);
        status = binding.status();
        if (binding.ok()) bindings.push_back(std::move(binding).value());
      }
      if (status.ok())
        status = dispatch_observer(*view, bindings, operand_count);
    } else {
      status = std::move(view).status();
    }
  }
  // What the kernel wrote is the results' now.
  for (uint32_t i = 0; i < result_count; ++i) {
    SlotValue& slot = slots_[results->Get(i)];
    slot = SlotValue();
    slot.data = binding_ptrs_[operand_count + i];
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
  if (!status.ok()) {
    return status.Prepend(StrCat("function '", name, "' instruction ", pc));
  }
  return OkStatus();
}

}  // namespace kiln
