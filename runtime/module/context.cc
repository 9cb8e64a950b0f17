//===- context.cc - Host function interpreter -----------------------------===//
//
// Runs the slot programs described in schema/module.fbs. The module was
// verified at load, so indices and types are trusted here; whether a slot
// holds a value when it is read is checked as it runs (in a function with
// branches the verifier cannot know).
//
//===----------------------------------------------------------------------===//

#include "kiln/context.h"

#include <optional>
#include <string>

#include "cpu/dispatch.h"
#include "kiln/trace.h"
#include "module/module_impl.h"

namespace kiln {

class Context::Impl {
 public:
  Impl(std::shared_ptr<const Module> module, ThreadPool* pool)
      : module_(std::move(module)), pool_(pool) {}

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
  /// Builds the trace sites of every function and export for the process
  /// tracer, when it changed since the last call; false when tracing is off.
  bool PrepareTraceSites();

  std::shared_ptr<const Module> module_;
  ThreadPool* pool_;
  // Per-call state, kept to reuse its capacity.
  std::vector<Tensor> slots_;
  std::vector<Tensor> dispatch_results_;
  std::vector<void*> binding_ptrs_;
  std::vector<uint64_t> binding_lengths_;
  // What zones show, per function and per [executable][export], built for
  // `trace_sites_tracer_` (views into the module; see kiln/trace.h).
  const Tracer* trace_sites_tracer_ = nullptr;
  std::vector<TraceSite> function_sites_;
  std::vector<std::vector<TraceSite>> export_sites_;
};

Context::Context(std::shared_ptr<const Module> module, ThreadPool* pool)
    : impl_(std::make_unique<Impl>(std::move(module), pool)) {}

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
    return OutOfRangeError("function index ", function_index,
                           " out of range (", signatures.size(),
                           " functions)");
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
  slots_.clear();
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
        context, ": the module does not record the export's binding types, "
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
          workgroup_count[1], "x", workgroup_count[2],
          " is outside [1, ", compiled[0], "x", compiled[1], "x", compiled[2],
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
  if (PrepareTraceSites()) params.trace_site = &export_sites_[executable][export_index];
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

Status Context::Impl::Execute(size_t function_index,
                              const std::vector<Tensor>& inputs,
                              std::vector<Tensor>* outputs) {
  const Module::Impl& module = *module_->impl_;
  const FunctionPlan& plan = module.functions[function_index];
  const fb::Function& function = *plan.function;
  const std::string& name = module.signatures[function_index].name;

  slots_.resize(plan.slots.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    slots_[plan.argument_slots[i]] = inputs[i];
  }

  const auto* types = function.body_type();
  const auto* body = function.body();
  const uint32_t count = body->size();
  uint32_t pc = 0;
  // Every read goes through here: in a function with branches the verifier
  // cannot tell whether a slot was written on the path taken.
  auto read = [&](uint32_t slot) -> Status {
    if (__builtin_expect(slots_[slot].empty(), 0)) {
      return FailedPreconditionError("function '", name, "' instruction ", pc,
                                     ": slot ", slot,
                                     " read before it was written");
    }
    return OkStatus();
  };
  while (pc < count) {
    uint32_t next = pc + 1;
    switch (types->GetEnum<fb::Op>(pc)) {
      case fb::Op::ConstantOp: {
        const auto* op = static_cast<const fb::ConstantOp*>(body->Get(pc));
        const fb::Constant* constant =
            module.root->constants()->Get(op->constant());
        const SlotInfo& slot = plan.slots[op->result()];
        // Constants are used in place from the module's bytes.
        KILN_ASSIGN_OR_RETURN(
            slots_[op->result()],
            Tensor::Borrow(slot.type.element_type, slot.type.shape,
                           constant->data() ? constant->data()->data() : nullptr,
                           slot.byte_size));
        break;
      }
      case fb::Op::DispatchOp: {
        const auto* op = static_cast<const fb::DispatchOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(RunDispatchOp(*op, plan, name, pc));
        break;
      }
      case fb::Op::ReshapeOp: {
        const auto* op = static_cast<const fb::ReshapeOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(read(op->source()));
        const SlotInfo& info = plan.slots[op->result()];
        KILN_ASSIGN_OR_RETURN(
            slots_[op->result()],
            slots_[op->source()].Reshape(info.type.element_type,
                                         info.type.shape));
        break;
      }
      case fb::Op::ReleaseOp: {
        const auto* op = static_cast<const fb::ReleaseOp*>(body->Get(pc));
        if (const auto* slots = op->slots()) {
          for (uint32_t slot : *slots) slots_[slot] = Tensor();
        }
        break;
      }
      case fb::Op::ReturnOp: {
        const auto* op = static_cast<const fb::ReturnOp*>(body->Get(pc));
        const auto* operands = op->operands();
        if (!operands) return OkStatus();
        for (uint32_t slot : *operands) KILN_RETURN_IF_ERROR(read(slot));
        outputs->reserve(operands->size());
        for (uint32_t slot : *operands) {
          const Tensor& value = slots_[slot];
          // The caller owns its results: never hand out module memory or
          // storage the caller passed in.
          bool must_copy = value.is_borrowed();
          for (const Tensor& input : inputs) {
            must_copy = must_copy || value.SharesStorageWith(input);
          }
          if (must_copy) {
            StatusOr<Tensor> copy = value.Clone();
            if (!copy.ok()) {
              return std::move(copy).status().Prepend(
                  StrCat("function '", name, "' instruction ", pc));
            }
            outputs->push_back(std::move(copy).value());
          } else {
            outputs->push_back(value);
          }
        }
        return OkStatus();
      }
      case fb::Op::BranchOp:
        next = static_cast<const fb::BranchOp*>(body->Get(pc))->target();
        break;
      case fb::Op::CondBranchOp: {
        const auto* op = static_cast<const fb::CondBranchOp*>(body->Get(pc));
        KILN_RETURN_IF_ERROR(read(op->condition()));
        // A 0-d i1: one byte, 1 for true (any nonzero byte counts as true).
        next = *slots_[op->condition()].data_as<uint8_t>() != 0
                   ? op->true_target()
                   : op->false_target();
        break;
      }
      case fb::Op::CheckOp: {
        const auto* op = static_cast<const fb::CheckOp*>(body->Get(pc));
        const auto kind = static_cast<CheckKind>(op->kind());
        const bool has_rhs = CheckKindHasRhs(kind);
        KILN_RETURN_IF_ERROR(read(op->lhs()));
        if (has_rhs) KILN_RETURN_IF_ERROR(read(op->rhs()));
        CheckCall call;
        call.kind = kind;
        call.lhs = &slots_[op->lhs()];
        call.rhs = has_rhs ? &slots_[op->rhs()] : nullptr;
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
  const auto is_operand = [operands](uint32_t slot) {
    if (!operands) return false;
    for (uint32_t operand : *operands) {
      if (operand == slot) return true;
    }
    return false;
  };
  binding_ptrs_.clear();
  binding_lengths_.clear();
  if (operands) {
    for (uint32_t slot : *operands) {
      if (slots_[slot].empty()) {
        return FailedPreconditionError("function '", name, "' instruction ",
                                       pc, ": slot ", slot,
                                       " read before it was written");
      }
      binding_ptrs_.push_back(slots_[slot].mutable_data());
      binding_lengths_.push_back(slots_[slot].byte_size());
    }
  }
  // Results go to fresh buffers and replace their slots once the dispatch
  // is done: a result slot may also be an operand (a loop-carried value,
  // `i = i + 1`), whose buffer must live until then. The previous value of
  // any other result slot is dropped first, so a loop holds one copy.
  dispatch_results_.clear();
  if (results) {
    for (uint32_t slot : *results) {
      if (!is_operand(slot)) slots_[slot] = Tensor();
      const SlotInfo& info = plan.slots[slot];
      StatusOr<Tensor> result =
          Tensor::Allocate(info.type.element_type, info.type.shape);
      if (!result.ok()) {
        dispatch_results_.clear();
        return std::move(result).status().Prepend(
            StrCat("function '", name, "' instruction ", pc));
      }
      dispatch_results_.push_back(std::move(result).value());
      binding_ptrs_.push_back(dispatch_results_.back().mutable_data());
      binding_lengths_.push_back(dispatch_results_.back().byte_size());
    }
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
  if (status.ok() && dispatch_observer) {
    StatusOr<ExportView> view =
        module_->GetExport(op.executable(), op.export_index());
    if (view.ok()) {
      std::vector<Tensor> bindings;
      if (operands) {
        for (uint32_t slot : *operands) bindings.push_back(slots_[slot]);
      }
      bindings.insert(bindings.end(), dispatch_results_.begin(),
                      dispatch_results_.end());
      status = dispatch_observer(*view, bindings,
                                  operands ? operands->size() : 0);
    } else {
      status = std::move(view).status();
    }
  }
  if (!status.ok()) {
    dispatch_results_.clear();
    return status.Prepend(StrCat("function '", name, "' instruction ", pc));
  }
  if (results) {
    for (uint32_t i = 0; i < results->size(); ++i) {
      slots_[results->Get(i)] = std::move(dispatch_results_[i]);
    }
  }
  dispatch_results_.clear();
  return OkStatus();
}

}  // namespace kiln
