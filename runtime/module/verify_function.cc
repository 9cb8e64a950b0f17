//===- verify_function.cc - Verification of a host function ---------------===//
//
// A host function's slots, buffers, registers and instructions: every index
// in range, every operand of the type its instruction needs, every buffer
// large enough for what is written into it, and in a function without
// branches every slot written exactly once before it is read, and never read
// once its buffer was written again. (With branches a slot may be written
// again, and whether it was written, or its buffer written since, depends on
// the path taken: the Context checks that as it runs.)
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "base/float_convert.h"
#include "kiln/check_handler.h"
#include "module/module_impl.h"
#include "module/verifier_internal.h"

namespace kiln {

namespace {

// Tracks which slots hold a value during the linear scan of a function body,
// and which buffer each views: a slot whose buffer a later dispatch wrote
// holds another value's bytes. Relaxed (for functions with branches, where
// the order of the body is not the order of execution), it checks indices
// only.
class SlotTracker {
 public:
  SlotTracker(const std::vector<SlotInfo>& slots, size_t buffer_count,
              bool relaxed, WorkBudget* budget)
      : slots_(slots),
        relaxed_(relaxed),
        budget_(budget),
        state_(slots.size(), State::kUndefined),
        views_(slots.size()),
        generations_(buffer_count, 0) {}

  // `role` names the use in messages ("operand", "result", ...).
  Status CheckIndex(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(budget_->Spend(1));
    if (slot >= slots_.size()) {
      return OutOfRangeError(role, " slot ", slot, " out of range (",
                             slots_.size(), " slots)");
    }
    return OkStatus();
  }
  Status Read(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(Holds(slot, role));
    if (relaxed_) return OkStatus();
    const View& view = views_[slot];
    if (view.buffer != kNoBuffer &&
        view.generation != generations_[view.buffer]) {
      return InvalidArgumentError(
          role, " slot ", slot, " is read after buffer ", view.buffer,
          ", which it views, was written again (by the dispatch at "
          "instruction ",
          writers_[view.buffer],
          "): two values live at once must not share a buffer");
    }
    return OkStatus();
  }
  // Whether `slot` holds a value (its bytes may have been overwritten).
  Status Holds(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(CheckIndex(slot, role));
    if (relaxed_) return OkStatus();
    if (state_[slot] == State::kUndefined) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is read before it is written");
    }
    if (state_[slot] == State::kReleased) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is read after it was released");
    }
    return OkStatus();
  }
  // Whether `slot` views what was last written into `buffer`.
  bool Views(uint32_t slot, uint32_t buffer) const {
    return !relaxed_ && views_[slot].buffer == buffer &&
           views_[slot].generation == generations_[buffer];
  }
  // `slot` (written) views what the instruction `pc` writes into `buffer`.
  void WriteBuffer(uint32_t slot, uint32_t buffer, uint32_t pc) {
    if (relaxed_) return;
    writers_.resize(generations_.size());
    writers_[buffer] = pc;
    views_[slot] = {buffer, ++generations_[buffer]};
  }
  // `result` (written) views what `source` views.
  void Alias(uint32_t result, uint32_t source) {
    if (!relaxed_) views_[result] = views_[source];
  }
  Status Write(uint32_t slot, std::string_view role) {
    KILN_RETURN_IF_ERROR(CheckIndex(slot, role));
    if (relaxed_) return OkStatus();
    if (state_[slot] != State::kUndefined) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is written more than once");
    }
    state_[slot] = State::kLive;
    return OkStatus();
  }
  Status Release(uint32_t slot) {
    KILN_RETURN_IF_ERROR(Holds(slot, "released"));
    state_[slot] = State::kReleased;
    return OkStatus();
  }

 private:
  enum class State : uint8_t { kUndefined, kLive, kReleased };
  static constexpr uint32_t kNoBuffer = KILN_NEW_BUFFER;
  struct View {
    uint32_t buffer = kNoBuffer;  // none: not in a buffer
    uint64_t generation = 0;      // which write of the buffer it views
  };
  const std::vector<SlotInfo>& slots_;
  const bool relaxed_;
  WorkBudget* budget_;
  std::vector<State> state_;
  std::vector<View> views_;
  // Per buffer: how many times it was written, and the last writer.
  std::vector<uint64_t> generations_;
  std::vector<uint32_t> writers_;
};

// A slot of `type` may be bound to a verified binding type: the same
// element type and rank, and each dimension the binding fixes fixed alike
// (a dynamic binding dimension takes any).
bool Binds(const TensorType& type, const fb::TensorType& binding) {
  if (static_cast<uint32_t>(type.element_type) !=
      static_cast<uint32_t>(binding.element_type())) {
    return false;
  }
  const auto* shape = binding.shape();
  if (SizeOf(shape) != type.shape.size()) return false;
  for (uint32_t d = 0; d < type.shape.size(); ++d) {
    if (shape->Get(d) != KILN_DYNAMIC_DIMENSION &&
        shape->Get(d) != type.shape[d]) {
      return false;
    }
  }
  return true;
}

bool IsIntegerType(ElementType type) {
  return type == ElementType::kI1 || type == ElementType::kI8 ||
         type == ElementType::kI16 || type == ElementType::kI32 ||
         type == ElementType::kI64;
}

bool IsFloatType(ElementType type) {
  return type == ElementType::kF32 || type == ElementType::kF64 ||
         NarrowFloatFormat(type) != nullptr;
}

class FunctionVerifier {
 public:
  FunctionVerifier(const fb::Module& module,
                   const std::vector<SlotInfo>& constant_types,
                   uint64_t max_buffer_bytes, WorkBudget* budget,
                   const fb::Function& function, FunctionPlan* plan,
                   FunctionSignature* signature)
      : module_(module),
        constant_types_(constant_types),
        max_buffer_bytes_(max_buffer_bytes),
        budget_(budget),
        function_(function),
        plan_(plan),
        signature_(signature) {}

  // Errors are prefixed "function 'NAME' <part>: ".
  Status Verify() {
    const std::string_view name = StringOf(function_.name());
    const std::string prefix = StrCat("function '", name, "'");
    plan_->function = &function_;
    signature_->name = std::string(name);

    plan_->slots.resize(SizeOf(function_.slot_types()));
    for (uint32_t i = 0; i < plan_->slots.size(); ++i) {
      SlotInfo& slot = plan_->slots[i];
      KILN_RETURN_IF_ERROR(
          ConvertTensorType(function_.slot_types()->Get(i), budget_, &slot,
                            Dimensions::kMayBeDynamic),
          prefix, " slot ", i);
      if (slot.dynamic) {
        slot.dims_offset = plan_->dynamic_dims;
        plan_->dynamic_dims += static_cast<uint32_t>(slot.type.shape.size());
      }
      // Refused now rather than failing (or exhausting memory) mid-run.
      if (plan_->slots[i].byte_size > max_buffer_bytes_) {
        return ResourceExhaustedError(
            prefix, " slot ", i, ": ", plan_->slots[i].type.ToString(),
            " needs ", plan_->slots[i].byte_size,
            " bytes, more than the buffer limit of ", max_buffer_bytes_,
            " bytes (", kBufferLimitSource, ")");
      }
    }
    const auto* buffer_sizes = function_.buffer_sizes();
    // As for shapes: the FlatBuffers verifier checks the alignment of the
    // length, not of the 8-byte elements.
    if (SizeOf(buffer_sizes) != 0 &&
        reinterpret_cast<uintptr_t>(buffer_sizes->data()) % alignof(uint64_t) !=
            0) {
      return InvalidArgumentError(prefix,
                                  " buffer sizes are not 8-byte aligned");
    }
    // The Context allocates every buffer of a function before its first
    // call: together they are within the limit, as each one is.
    uint64_t total_buffer_bytes = 0;
    for (uint32_t i = 0; i < SizeOf(buffer_sizes); ++i) {
      KILN_RETURN_IF_ERROR(budget_->Spend(1));
      const uint64_t size = buffer_sizes->Get(i);
      if (size > max_buffer_bytes_ - total_buffer_bytes) {
        if (size <= max_buffer_bytes_) {
          return ResourceExhaustedError(
              prefix, " buffers 0 to ", i,
              " add up to more than the buffer limit of ", max_buffer_bytes_,
              " bytes (", kBufferLimitSource, ")");
        }
        return ResourceExhaustedError(prefix, " buffer ", i, " is ", size,
                                      " bytes, more than the buffer limit of ",
                                      max_buffer_bytes_, " bytes (",
                                      kBufferLimitSource, ")");
      }
      total_buffer_bytes += size;
      plan_->buffer_sizes.push_back(size);
    }
    std::vector<SlotInfo> results(SizeOf(function_.result_types()));
    for (uint32_t i = 0; i < results.size(); ++i) {
      KILN_RETURN_IF_ERROR(
          ConvertTensorType(function_.result_types()->Get(i), budget_,
                            &results[i], Dimensions::kMayBeDynamic),
          prefix, " result ", i);
      signature_->results.push_back(results[i].type);
    }

    const auto* types = function_.body_type();
    const auto* body = function_.body();
    const uint32_t count = SizeOf(body);
    // Every register is written by an instruction of the body, so there are
    // no more of them than instructions.
    plan_->index_count = function_.index_count();
    if (plan_->index_count > count) {
      return InvalidArgumentError(prefix, " has ", plan_->index_count,
                                  " index registers but ", count,
                                  " instructions");
    }
    bool has_branches = false;
    for (uint32_t pc = 0; pc < count; ++pc) {
      const fb::Op type = types->GetEnum<fb::Op>(pc);
      has_branches = has_branches || type == fb::Op::BranchOp ||
                     type == fb::Op::CondBranchOp;
    }

    // Arguments fill distinct slots, with or without branches.
    SlotTracker argument_tracker(plan_->slots, plan_->buffer_sizes.size(),
                                 /*relaxed=*/false, budget_);
    for (uint32_t i = 0; i < SizeOf(function_.arguments()); ++i) {
      const uint32_t slot = function_.arguments()->Get(i);
      KILN_RETURN_IF_ERROR(argument_tracker.Write(slot, "argument"), prefix,
                           " argument ", i);
      plan_->argument_slots.push_back(slot);
      signature_->arguments.push_back(plan_->slots[slot].type);
    }
    // Names, when given, name every argument and result.
    for (auto [names, count, what, out] :
         {std::tuple{function_.argument_names(), SizeOf(function_.arguments()),
                     "argument", &signature_->argument_names},
          std::tuple{function_.result_names(), SizeOf(function_.result_types()),
                     "result", &signature_->result_names}}) {
      if (SizeOf(names) == 0) continue;
      if (SizeOf(names) != count) {
        return InvalidArgumentError(prefix, " has ", SizeOf(names), " ", what,
                                    " names for ", count, " ", what, "s");
      }
      for (uint32_t i = 0; i < count; ++i) {
        KILN_RETURN_IF_ERROR(budget_->Spend(1));
        out->emplace_back(StringOf(names->Get(i)));
      }
    }
    SlotTracker tracker =
        has_branches ? SlotTracker(plan_->slots, plan_->buffer_sizes.size(),
                                   /*relaxed=*/true, budget_)
                     : argument_tracker;

    bool returned = false;
    for (uint32_t pc = 0; pc < count; ++pc) {
      // Without branches nothing after the return could ever run.
      if (returned && !has_branches) {
        return InvalidArgumentError(prefix, " instruction ", pc,
                                    ": instruction after the return");
      }
      const fb::Op type = types->GetEnum<fb::Op>(pc);
      const void* op = body->Get(pc);
      pc_ = pc;
      KILN_RETURN_IF_ERROR(VerifyInstruction(type, op, results, &tracker),
                           prefix, " instruction ", pc);
      returned = type == fb::Op::ReturnOp;
    }
    if (!has_branches) {
      if (!returned) {
        return InvalidArgumentError(prefix,
                                    ": body does not end with a return");
      }
      return OkStatus();
    }
    // Execution must not run past the last instruction: it has to return or
    // jump (targets were checked above).
    const fb::Op last = types->GetEnum<fb::Op>(count - 1);
    if (last != fb::Op::ReturnOp && last != fb::Op::BranchOp &&
        last != fb::Op::CondBranchOp) {
      return InvalidArgumentError(
          prefix, ": execution can fall off the end of the body (instruction ",
          count - 1, " is a ", fb::EnumNameOp(last),
          "; the last instruction must be a return or a branch)");
    }
    KILN_RETURN_IF_ERROR(CheckNoEndlessLoop(), prefix);
    return OkStatus();
  }

 private:
  Status CheckSlotType(uint32_t slot, const SlotInfo& expected,
                       std::string_view what) const {
    const SlotInfo& actual = plan_->slots[slot];
    if (actual.type != expected.type) {
      return InvalidArgumentError("slot ", slot, " has type ",
                                  actual.type.ToString(), " but ", what, " is ",
                                  expected.type.ToString());
    }
    return OkStatus();
  }

  Status VerifyInstruction(fb::Op type, const void* op,
                           const std::vector<SlotInfo>& results,
                           SlotTracker* tracker) {
    switch (type) {
      case fb::Op::ConstantOp:
        return VerifyConstantOp(*static_cast<const fb::ConstantOp*>(op),
                                tracker);
      case fb::Op::DispatchOp:
        return VerifyDispatchOp(*static_cast<const fb::DispatchOp*>(op),
                                tracker);
      case fb::Op::ReshapeOp:
        return VerifyReshapeOp(*static_cast<const fb::ReshapeOp*>(op), tracker);
      case fb::Op::ReleaseOp: {
        const auto* slots = static_cast<const fb::ReleaseOp*>(op)->slots();
        for (uint32_t i = 0; i < SizeOf(slots); ++i) {
          KILN_RETURN_IF_ERROR(tracker->Release(slots->Get(i)));
        }
        return OkStatus();
      }
      case fb::Op::ReturnOp:
        return VerifyReturnOp(*static_cast<const fb::ReturnOp*>(op), results,
                              tracker);
      case fb::Op::BranchOp:
        return VerifyTarget(static_cast<const fb::BranchOp*>(op)->target(),
                            "branch target");
      case fb::Op::CondBranchOp:
        return VerifyCondBranchOp(*static_cast<const fb::CondBranchOp*>(op),
                                  tracker);
      case fb::Op::CheckOp:
        return VerifyCheckOp(*static_cast<const fb::CheckOp*>(op), tracker);
      case fb::Op::DimOp:
        return VerifyDimOp(*static_cast<const fb::DimOp*>(op), tracker);
      case fb::Op::ExtractOp:
        return VerifyExtractOp(*static_cast<const fb::ExtractOp*>(op), tracker);
      case fb::Op::IndexOp:
        return VerifyIndexOp(*static_cast<const fb::IndexOp*>(op));
      default:
        break;
    }
    return InvalidArgumentError("unknown instruction type ",
                                static_cast<int>(type));
  }

  Status VerifyRegister(uint32_t index, std::string_view role) const {
    KILN_RETURN_IF_ERROR(budget_->Spend(1));
    if (index >= plan_->index_count) {
      return OutOfRangeError(role, " index register ", index, " out of range (",
                             plan_->index_count, " registers)");
    }
    return OkStatus();
  }

  Status VerifyDimOp(const fb::DimOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    const size_t rank = plan_->slots[op.source()].type.shape.size();
    if (op.dimension() >= rank) {
      return OutOfRangeError("dimension ", op.dimension(), " of slot ",
                             op.source(), " out of range (rank ", rank, ")");
    }
    return OkStatus();
  }

  Status VerifyExtractOp(const fb::ExtractOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    const SlotInfo& source = plan_->slots[op.source()];
    switch (source.type.element_type) {
      case ElementType::kI1:
      case ElementType::kI8:
      case ElementType::kI16:
      case ElementType::kI32:
      case ElementType::kI64:
        break;
      default:
        return InvalidArgumentError("element read of slot ", op.source(),
                                    " of type ", source.type.ToString(),
                                    ": not an integer");
    }
    if (source.dynamic) {
      return InvalidArgumentError("element read of slot ", op.source(),
                                  " of dynamic type ", source.type.ToString());
    }
    const uint64_t count =
        source.byte_size / ElementTypeByteSize(source.type.element_type);
    if (op.element() >= count) {
      return OutOfRangeError("element ", op.element(), " of slot ", op.source(),
                             " out of range (", count, " elements)");
    }
    return OkStatus();
  }

  Status VerifyIndexOp(const fb::IndexOp& op) {
    const auto kind = static_cast<uint32_t>(op.kind());
    if (kind > static_cast<uint32_t>(fb::IndexKind::MAX)) {
      return InvalidArgumentError("invalid index kind ", kind);
    }
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    // A constant's operands too: the context reads both before it looks at
    // the kind (the compiler writes register 0).
    KILN_RETURN_IF_ERROR(VerifyRegister(op.lhs(), "lhs"));
    return VerifyRegister(op.rhs(), "rhs");
  }

  Status VerifyConstantOp(const fb::ConstantOp& op, SlotTracker* tracker) {
    const uint32_t constant = op.constant();
    if (constant >= constant_types_.size()) {
      return OutOfRangeError("constant ", constant, " out of range (",
                             constant_types_.size(), " constants)");
    }
    KILN_RETURN_IF_ERROR(tracker->Write(op.result(), "result"));
    return CheckSlotType(op.result(), constant_types_[constant],
                         StrCat("constant ", constant));
  }

  Status VerifyDispatchOp(const fb::DispatchOp& op, SlotTracker* tracker) {
    // Every variant has these executables and exports, as a dispatch sees
    // them (verified before functions are): the first stands for all.
    const auto* executables = module_.variants()->Get(0)->executables();
    const uint32_t executable_count = SizeOf(executables);
    if (op.executable() >= executable_count) {
      return OutOfRangeError("executable ", op.executable(), " out of range (",
                             executable_count, " executables)");
    }
    const fb::Executable* executable = executables->Get(op.executable());
    const uint32_t export_count = SizeOf(executable->exports());
    if (op.export_index() >= export_count) {
      return OutOfRangeError(
          "export ", op.export_index(), " out of range (executable '",
          StringOf(executable->name()), "' has ", export_count, " exports)");
    }
    const fb::Export* ex = executable->exports()->Get(op.export_index());
    const uint32_t operand_count = SizeOf(op.operands());
    const uint32_t result_count = SizeOf(op.results());
    if (uint64_t{operand_count} + result_count != ex->binding_count()) {
      return InvalidArgumentError(
          "dispatch of '", StringOf(ex->name()), "' has ",
          uint64_t{operand_count} + result_count, " bindings (", operand_count,
          " operands + ", result_count, " results) but the export has ",
          ex->binding_count());
    }
    for (uint32_t i = 0; i < operand_count; ++i) {
      KILN_RETURN_IF_ERROR(tracker->Read(op.operands()->Get(i), "operand"));
    }
    uint64_t result_dims = 0;
    for (uint32_t i = 0; i < result_count; ++i) {
      const uint32_t slot = op.results()->Get(i);
      KILN_RETURN_IF_ERROR(tracker->Write(slot, "result"));
      for (int64_t dim : plan_->slots[slot].type.shape) {
        result_dims += dim == KILN_DYNAMIC_DIMENSION;
      }
    }
    if (SizeOf(op.result_dims()) != result_dims) {
      return InvalidArgumentError(
          "results have ", result_dims, " dynamic dimensions but ",
          SizeOf(op.result_dims()), " registers name them");
    }
    for (uint32_t i = 0; i < SizeOf(op.result_dims()); ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.result_dims()->Get(i), "result"));
    }
    if (SizeOf(op.constants()) != ex->index_constant_count()) {
      return InvalidArgumentError("dispatch of '", StringOf(ex->name()),
                                  "' passes ", SizeOf(op.constants()),
                                  " index constants but the export takes ",
                                  ex->index_constant_count());
    }
    for (uint32_t i = 0; i < SizeOf(op.constants()); ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.constants()->Get(i), "constant"));
    }
    KILN_RETURN_IF_ERROR(VerifyResultBuffers(op, *tracker));
    for (uint32_t i = 0; i < SizeOf(op.result_buffers()); ++i) {
      const uint32_t buffer = op.result_buffers()->Get(i);
      if (buffer != KILN_NEW_BUFFER) {
        tracker->WriteBuffer(op.results()->Get(i), buffer, pc_);
      }
    }
    // Kernels have their shapes built in: a buffer of another type would be
    // read or written out of bounds.
    if (const auto* types = ex->binding_types(); types && types->size() != 0) {
      for (uint32_t i = 0; i < operand_count + result_count; ++i) {
        const uint32_t slot = i < operand_count
                                  ? op.operands()->Get(i)
                                  : op.results()->Get(i - operand_count);
        const TensorType& actual = plan_->slots[slot].type;
        if (!Binds(actual, *types->Get(i))) {
          SlotInfo expected;
          (void)ConvertTensorType(types->Get(i), budget_, &expected,
                                  Dimensions::kMayBeDynamic);
          return InvalidArgumentError(
              "dispatch of '", StringOf(ex->name()), "' binding ", i,
              " is slot ", slot, " of type ", actual.ToString(),
              " but the export takes ", expected.type.ToString());
        }
      }
    }
    return OkStatus();
  }

  // Where a dispatch's results go: each into a buffer large enough for it
  // (a kernel writes its whole binding), no two into one, none into the
  // buffer an operand views (the kernel would overwrite what it reads).
  Status VerifyResultBuffers(const fb::DispatchOp& op,
                             const SlotTracker& tracker) const {
    const auto* buffers = op.result_buffers();
    if (!buffers) return OkStatus();
    const uint32_t result_count = SizeOf(op.results());
    if (buffers->size() != result_count) {
      return InvalidArgumentError("dispatch has ", result_count,
                                  " results but ", buffers->size(),
                                  " result buffers");
    }
    const std::vector<uint64_t>& sizes = plan_->buffer_sizes;
    for (uint32_t i = 0; i < result_count; ++i) {
      const uint32_t buffer = buffers->Get(i);
      if (buffer == KILN_NEW_BUFFER) continue;
      if (buffer >= sizes.size()) {
        return OutOfRangeError("result ", i, " buffer ", buffer,
                               " out of range (", sizes.size(), " buffers)");
      }
      const uint32_t slot = op.results()->Get(i);
      const SlotInfo& info = plan_->slots[slot];
      // A dynamic result's size is checked when it is known, at run time.
      if (!info.dynamic && info.byte_size > sizes[buffer]) {
        return InvalidArgumentError("result ", i, " (slot ", slot, ", ",
                                    info.type.ToString(), ", ", info.byte_size,
                                    " bytes) is written into buffer ", buffer,
                                    " of ", sizes[buffer], " bytes");
      }
      for (uint32_t j = 0; j < i; ++j) {
        if (buffers->Get(j) == buffer) {
          return InvalidArgumentError("results ", j, " and ", i,
                                      " are written into one buffer (", buffer,
                                      ")");
        }
      }
      for (uint32_t j = 0; j < SizeOf(op.operands()); ++j) {
        if (tracker.Views(op.operands()->Get(j), buffer)) {
          return InvalidArgumentError("operand ", j, " (slot ",
                                      op.operands()->Get(j), ") views buffer ",
                                      buffer, ", which result ", i,
                                      " is written into");
        }
      }
    }
    return OkStatus();
  }

  Status VerifyReshapeOp(const fb::ReshapeOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(tracker->Write(op.result(), "result"));
    tracker->Alias(op.result(), op.source());
    const SlotInfo& source = plan_->slots[op.source()];
    const SlotInfo& result = plan_->slots[op.result()];
    if (source.type.element_type != result.type.element_type) {
      return InvalidArgumentError("reshape changes the element type (",
                                  source.type.ToString(), " to ",
                                  result.type.ToString(), ")");
    }
    // Where either side is dynamic, the sizes are compared at run time.
    if (!source.dynamic && !result.dynamic &&
        source.byte_size != result.byte_size) {
      return InvalidArgumentError("reshape changes the size (",
                                  source.type.ToString(), " to ",
                                  result.type.ToString(), ")");
    }
    uint32_t dynamic = 0;
    for (int64_t dim : result.type.shape) {
      dynamic += dim == KILN_DYNAMIC_DIMENSION;
    }
    if (SizeOf(op.result_dims()) != dynamic) {
      return InvalidArgumentError(
          "result has ", dynamic, " dynamic dimensions but ",
          SizeOf(op.result_dims()), " registers name them");
    }
    for (uint32_t i = 0; i < dynamic; ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.result_dims()->Get(i), "result"));
    }
    return OkStatus();
  }

  Status VerifyReturnOp(const fb::ReturnOp& op,
                        const std::vector<SlotInfo>& results,
                        SlotTracker* tracker) {
    const uint32_t count = SizeOf(op.operands());
    if (count != results.size()) {
      return InvalidArgumentError("return has ", count,
                                  " operands but the function has ",
                                  results.size(), " results");
    }
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t slot = op.operands()->Get(i);
      KILN_RETURN_IF_ERROR(tracker->Read(slot, "returned"));
      KILN_RETURN_IF_ERROR(
          CheckSlotType(slot, results[i], StrCat("result ", i)));
    }
    return OkStatus();
  }

  // Rejects a cycle that only unconditional branches and straight-line code
  // lead through: once entered it never ends (a loop whose exit depends on
  // a condition is the program's business). Each instruction is visited
  // once: O(body).
  Status CheckNoEndlessLoop() const {
    const auto* types = function_.body_type();
    const auto* body = function_.body();
    const uint32_t count = SizeOf(body);
    enum class Mark : uint8_t { kUnknown, kOnPath, kEnds };
    std::vector<Mark> marks(count, Mark::kUnknown);
    std::vector<uint32_t> path;
    for (uint32_t start = 0; start < count; ++start) {
      path.clear();
      uint32_t pc = start;
      while (marks[pc] == Mark::kUnknown) {
        marks[pc] = Mark::kOnPath;
        path.push_back(pc);
        const fb::Op type = types->GetEnum<fb::Op>(pc);
        if (type == fb::Op::ReturnOp || type == fb::Op::CondBranchOp) break;
        // The last instruction is a terminator (checked above): pc + 1 is in
        // range for the others.
        pc = type == fb::Op::BranchOp
                 ? static_cast<const fb::BranchOp*>(body->Get(pc))->target()
                 : pc + 1;
      }
      if (marks[pc] == Mark::kOnPath && pc != path.back()) {
        return InvalidArgumentError(
            "instruction ", path.back(), " leads back to instruction ", pc,
            " with no conditional branch or return in between: an endless "
            "loop");
      }
      if (marks[pc] == Mark::kOnPath) {
        const fb::Op type = types->GetEnum<fb::Op>(pc);
        if (type != fb::Op::ReturnOp && type != fb::Op::CondBranchOp) {
          return InvalidArgumentError("instruction ", pc,
                                      " branches to itself: an endless loop");
        }
      }
      for (uint32_t visited : path) marks[visited] = Mark::kEnds;
    }
    return OkStatus();
  }

  Status VerifyTarget(uint32_t target, std::string_view what) const {
    const uint32_t count = SizeOf(function_.body());
    if (target >= count) {
      return OutOfRangeError(what, " ", target, " out of range (", count,
                             " instructions)");
    }
    return OkStatus();
  }

  Status VerifyCondBranchOp(const fb::CondBranchOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.condition(), "condition"));
    const TensorType& type = plan_->slots[op.condition()].type;
    if (type.element_type != ElementType::kI1 || !type.shape.empty()) {
      return InvalidArgumentError("condition slot ", op.condition(),
                                  " has type ", type.ToString(),
                                  " but must be a 0-d i1 tensor");
    }
    KILN_RETURN_IF_ERROR(VerifyTarget(op.true_target(), "true target"));
    return VerifyTarget(op.false_target(), "false target");
  }

  Status VerifyCheckOp(const fb::CheckOp& op, SlotTracker* tracker) {
    plan_->has_checks = true;
    const auto kind = static_cast<uint32_t>(op.kind());
    if (kind > static_cast<uint32_t>(fb::CheckKind::MAX)) {
      return InvalidArgumentError("invalid check kind ", kind);
    }
    const std::string_view name =
        CheckKindName(static_cast<CheckKind>(op.kind()));
    KILN_RETURN_IF_ERROR(tracker->Read(op.lhs(), "lhs"), "check ", name);
    const TensorType& lhs = plan_->slots[op.lhs()].type;
    switch (op.kind()) {
      case fb::CheckKind::True:
      case fb::CheckKind::False:
        if (!IsIntegerType(lhs.element_type) || !lhs.shape.empty()) {
          return InvalidArgumentError(
              "check ", name, ": lhs slot ", op.lhs(), " has type ",
              lhs.ToString(), " but must be a 0-d integer tensor (i1 to i64)");
        }
        break;
      case fb::CheckKind::AllTrue:
        if (!IsIntegerType(lhs.element_type)) {
          return InvalidArgumentError("check ", name, ": lhs slot ", op.lhs(),
                                      " has type ", lhs.ToString(),
                                      " but must be an integer tensor (i1 to "
                                      "i64)");
        }
        break;
      case fb::CheckKind::Equal:
      case fb::CheckKind::AlmostEqual: {
        KILN_RETURN_IF_ERROR(tracker->Read(op.rhs(), "rhs"), "check ", name);
        const TensorType& rhs = plan_->slots[op.rhs()].type;
        if (lhs != rhs) {
          return InvalidArgumentError("check ", name, ": lhs slot ", op.lhs(),
                                      " has type ", lhs.ToString(),
                                      " but rhs slot ", op.rhs(), " has type ",
                                      rhs.ToString(), " (they must match)");
        }
        if (op.kind() == fb::CheckKind::AlmostEqual &&
            !IsFloatType(lhs.element_type)) {
          return InvalidArgumentError(
              "check ", name, ": operands have type ", lhs.ToString(),
              " but must be float tensors (f16, bf16, f32 or f64)");
        }
        break;
      }
    }
    for (const auto& [what, value] :
         {std::pair<std::string_view, float>{"atol", op.atol()},
          std::pair<std::string_view, float>{"rtol", op.rtol()}}) {
      if (!std::isfinite(value) || value < 0) {
        return InvalidArgumentError("check ", name, ": ", what, " is ", value,
                                    " (must be finite and >= 0)");
      }
    }
    if (!op.location()) {
      return InvalidArgumentError("check ", name,
                                  ": missing location (it may be empty, not "
                                  "absent)");
    }
    return OkStatus();
  }

  const fb::Module& module_;
  const std::vector<SlotInfo>& constant_types_;
  const uint64_t max_buffer_bytes_;
  WorkBudget* budget_;
  const fb::Function& function_;
  FunctionPlan* plan_;
  FunctionSignature* signature_;
  // The instruction being verified.
  uint32_t pc_ = 0;
};

}  // namespace

Status VerifyFunction(const fb::Module& module,
                      const std::vector<SlotInfo>& constant_types,
                      uint64_t max_buffer_bytes, WorkBudget* budget,
                      const fb::Function& function, FunctionPlan* plan,
                      FunctionSignature* signature) {
  return FunctionVerifier(module, constant_types, max_buffer_bytes, budget,
                          function, plan, signature)
      .Verify();
}

}  // namespace kiln
