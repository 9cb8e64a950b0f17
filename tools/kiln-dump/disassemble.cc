//===- disassemble.cc - Host function bodies as text and JSON -------------===//

#include "disassemble.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/check_handler.h"
#include "kiln/module_format.h"
#include "kiln/printable.h"
#include "kiln/tensor.h"
#include "view_output.h"

namespace kiln::dump {
namespace {

using nlohmann::json;

std::string TypeString(const fb::TensorType& type) {
  Shape shape;
  if (type.shape()) shape.assign(type.shape()->begin(), type.shape()->end());
  // A verified module's element types are the runtime's.
  return FormatTensorType(static_cast<ElementType>(type.element_type()), shape);
}

std::string SlotTypeString(const fb::Function& function, uint32_t slot) {
  return TypeString(*function.slot_types()->Get(slot));
}

std::string Slot(uint32_t slot) { return StrCat("%", slot); }

std::string SlotList(const flatbuffers::Vector<uint32_t>* slots) {
  std::string out;
  if (!slots) return out;
  for (uint32_t i = 0; i < slots->size(); ++i) {
    if (i) out += ", ";
    out += Slot(slots->Get(i));
  }
  return out;
}

json SlotArray(const flatbuffers::Vector<uint32_t>* slots) {
  json out = json::array();
  if (slots) {
    for (uint32_t slot : *slots) out.push_back(slot);
  }
  return out;
}

/// "check.expect_eq", as the input program spells the op.
std::string CheckName(fb::CheckKind kind) {
  return "check." + std::string(CheckKindName(static_cast<CheckKind>(kind)));
}

bool HasRhs(fb::CheckKind kind) {
  return CheckKindHasRhs(static_cast<CheckKind>(kind));
}

/// "executable::export" of a dispatch.
std::string DispatchTarget(const Module& module, const fb::DispatchOp& op) {
  StatusOr<ExportView> target =
      module.GetExport(op.executable(), op.export_index());
  return QualifiedExportName(Printable(module.executable_name(op.executable())),
                             target.ok() ? Printable(target->name())
                                         : StrCat("export", op.export_index()));
}

/// "b0" for buffer 0 of the function.
std::string BufferName(uint32_t buffer) { return StrCat("b", buffer); }

/// "i0" for index register 0 of the function.
std::string RegisterName(uint32_t index) { return StrCat("i", index); }

/// " dims(i0, i1)" for `keyword` "dims" and registers 0 and 1 (a result's
/// dynamic dimensions, a dispatch's index constants), "" when there are none.
std::string RegisterList(std::string_view keyword,
                         const flatbuffers::Vector<uint32_t>* registers) {
  if (!registers || registers->size() == 0) return "";
  std::string out = StrCat(" ", keyword, "(");
  for (uint32_t i = 0; i < registers->size(); ++i) {
    if (i) out += ", ";
    out += RegisterName(registers->Get(i));
  }
  return out + ")";
}

json RegisterArray(const flatbuffers::Vector<uint32_t>* registers) {
  json out = json::array();
  for (uint32_t i = 0; registers && i < registers->size(); ++i) {
    out.push_back(registers->Get(i));
  }
  return out;
}

/// "add", "ceildiv", ...: IndexKind names as the disassembly spells them.
std::string IndexKindName(fb::IndexKind kind) {
  std::string name = fb::EnumNameIndexKind(kind);
  for (char& c : name) c = static_cast<char>(std::tolower(c));
  return name.empty() ? StrCat("kind", static_cast<int>(kind)) : name;
}

/// Where each result of a dispatch is written: "into(b0, new)", or "" when
/// every result is new storage as the module does not say otherwise.
std::string ResultBuffers(const fb::DispatchOp& op) {
  const auto* buffers = op.result_buffers();
  if (!buffers) return "";
  std::string out = " into(";
  for (uint32_t i = 0; i < buffers->size(); ++i) {
    if (i) out += ", ";
    const uint32_t buffer = buffers->Get(i);
    out += buffer == KILN_NEW_BUFFER ? "new" : BufferName(buffer);
  }
  return out + ")";
}

json ResultBuffersJson(const fb::DispatchOp& op) {
  json out = json::array();
  for (uint32_t i = 0; op.results() && i < op.results()->size(); ++i) {
    const uint32_t buffer =
        op.result_buffers() ? op.result_buffers()->Get(i) : KILN_NEW_BUFFER;
    if (buffer == KILN_NEW_BUFFER) {
      out.push_back(nullptr);
    } else {
      out.push_back(buffer);
    }
  }
  return out;
}

/// "%a, %b : T1, T2" for results.
std::string ResultsWithTypes(const fb::Function& function,
                             const flatbuffers::Vector<uint32_t>* results) {
  std::string types;
  if (results) {
    for (uint32_t i = 0; i < results->size(); ++i) {
      if (i) types += ", ";
      types += SlotTypeString(function, results->Get(i));
    }
  }
  return types;
}

/// One instruction as text, without its index.
std::string InstructionText(const Module& module, const fb::Function& function,
                            uint32_t index) {
  const auto type = function.body_type()->Get(index);
  const void* op = function.body()->Get(index);
  switch (type) {
    case fb::Op::ConstantOp: {
      const auto* c = static_cast<const fb::ConstantOp*>(op);
      return StrCat(Slot(c->result()), " = constant #", c->constant(), " : ",
                    SlotTypeString(function, c->result()));
    }
    case fb::Op::DispatchOp: {
      const auto* d = static_cast<const fb::DispatchOp*>(op);
      std::string out = SlotList(d->results());
      out += " = dispatch " + DispatchTarget(module, *d) + "(" +
             SlotList(d->operands()) + ")" +
             RegisterList("constants", d->constants()) + ResultBuffers(*d) +
             RegisterList("dims", d->result_dims());
      const std::string types = ResultsWithTypes(function, d->results());
      if (!types.empty()) out += " : " + types;
      return out;
    }
    case fb::Op::ReshapeOp: {
      const auto* r = static_cast<const fb::ReshapeOp*>(op);
      return StrCat(Slot(r->result()), " = reshape ", Slot(r->source()),
                    RegisterList("dims", r->result_dims()), " : ",
                    SlotTypeString(function, r->result()));
    }
    case fb::Op::DimOp: {
      const auto* d = static_cast<const fb::DimOp*>(op);
      return StrCat(RegisterName(d->result()), " = dim ", Slot(d->source()),
                    ", ", d->dimension());
    }
    case fb::Op::ExtractOp: {
      const auto* x = static_cast<const fb::ExtractOp*>(op);
      return StrCat(RegisterName(x->result()), " = extract ", Slot(x->source()),
                    "[", x->element(), "]", x->is_unsigned() ? " unsigned" : "",
                    " : ", SlotTypeString(function, x->source()));
    }
    case fb::Op::IndexOp: {
      const auto* x = static_cast<const fb::IndexOp*>(op);
      if (x->kind() == fb::IndexKind::Constant) {
        return StrCat(RegisterName(x->result()), " = index ", x->value());
      }
      return StrCat(RegisterName(x->result()), " = ", IndexKindName(x->kind()),
                    " ", RegisterName(x->lhs()), ", ", RegisterName(x->rhs()));
    }
    case fb::Op::ReleaseOp:
      return "release " +
             SlotList(static_cast<const fb::ReleaseOp*>(op)->slots());
    case fb::Op::ReturnOp: {
      const auto* r = static_cast<const fb::ReturnOp*>(op);
      return r->operands() && r->operands()->size() > 0
                 ? "return " + SlotList(r->operands())
                 : std::string("return");
    }
    case fb::Op::BranchOp:
      return StrCat("br ^", static_cast<const fb::BranchOp*>(op)->target());
    case fb::Op::CondBranchOp: {
      const auto* b = static_cast<const fb::CondBranchOp*>(op);
      return StrCat("cond_br ", Slot(b->condition()), ", ^", b->true_target(),
                    ", ^", b->false_target());
    }
    case fb::Op::CheckOp: {
      const auto* c = static_cast<const fb::CheckOp*>(op);
      std::string out = CheckName(c->kind()) + " " + Slot(c->lhs());
      if (HasRhs(c->kind())) out += ", " + Slot(c->rhs());
      if (c->kind() == fb::CheckKind::AlmostEqual) {
        out += StrCat(" atol ", c->atol(), " rtol ", c->rtol());
      }
      if (c->location() && c->location()->size() > 0) {
        out += "  // " + Printable(c->location()->string_view());
      }
      return out;
    }
    case fb::Op::NONE:
      break;
  }
  return "(unknown op)";
}

json InstructionJson(const Module& module, const fb::Function& function,
                     uint32_t index) {
  const auto type = function.body_type()->Get(index);
  const void* op = function.body()->Get(index);
  json out = {{"index", index}};
  switch (type) {
    case fb::Op::ConstantOp: {
      const auto* c = static_cast<const fb::ConstantOp*>(op);
      out["op"] = "constant";
      out["result"] = c->result();
      out["constant"] = c->constant();
      break;
    }
    case fb::Op::DispatchOp: {
      const auto* d = static_cast<const fb::DispatchOp*>(op);
      out["op"] = "dispatch";
      out["executable"] = d->executable();
      out["export"] = d->export_index();
      out["target"] = DispatchTarget(module, *d);
      out["operands"] = SlotArray(d->operands());
      out["results"] = SlotArray(d->results());
      // Per result, its buffer; null for new storage.
      out["result_buffers"] = ResultBuffersJson(*d);
      out["result_dims"] = RegisterArray(d->result_dims());
      out["constants"] = RegisterArray(d->constants());
      break;
    }
    case fb::Op::ReshapeOp: {
      const auto* r = static_cast<const fb::ReshapeOp*>(op);
      out["op"] = "reshape";
      out["result"] = r->result();
      out["source"] = r->source();
      out["result_dims"] = RegisterArray(r->result_dims());
      break;
    }
    case fb::Op::DimOp: {
      const auto* d = static_cast<const fb::DimOp*>(op);
      out["op"] = "dim";
      out["result"] = d->result();
      out["source"] = d->source();
      out["dimension"] = d->dimension();
      break;
    }
    case fb::Op::ExtractOp: {
      const auto* x = static_cast<const fb::ExtractOp*>(op);
      out["op"] = "extract";
      out["result"] = x->result();
      out["source"] = x->source();
      out["element"] = x->element();
      out["unsigned"] = x->is_unsigned();
      break;
    }
    case fb::Op::IndexOp: {
      const auto* x = static_cast<const fb::IndexOp*>(op);
      out["op"] = "index";
      out["kind"] = IndexKindName(x->kind());
      out["result"] = x->result();
      if (x->kind() == fb::IndexKind::Constant) {
        out["value"] = x->value();
      } else {
        out["lhs"] = x->lhs();
        out["rhs"] = x->rhs();
      }
      break;
    }
    case fb::Op::ReleaseOp:
      out["op"] = "release";
      out["slots"] = SlotArray(static_cast<const fb::ReleaseOp*>(op)->slots());
      break;
    case fb::Op::ReturnOp:
      out["op"] = "return";
      out["operands"] =
          SlotArray(static_cast<const fb::ReturnOp*>(op)->operands());
      break;
    case fb::Op::BranchOp:
      out["op"] = "br";
      out["target"] = static_cast<const fb::BranchOp*>(op)->target();
      break;
    case fb::Op::CondBranchOp: {
      const auto* b = static_cast<const fb::CondBranchOp*>(op);
      out["op"] = "cond_br";
      out["condition"] = b->condition();
      out["true_target"] = b->true_target();
      out["false_target"] = b->false_target();
      break;
    }
    case fb::Op::CheckOp: {
      const auto* c = static_cast<const fb::CheckOp*>(op);
      out["op"] = CheckName(c->kind());
      out["lhs"] = c->lhs();
      if (HasRhs(c->kind())) out["rhs"] = c->rhs();
      if (c->kind() == fb::CheckKind::AlmostEqual) {
        out["atol"] = c->atol();
        out["rtol"] = c->rtol();
      }
      out["location"] = c->location() ? c->location()->str() : std::string();
      break;
    }
    case fb::Op::NONE:
      out["op"] = nullptr;
      break;
  }
  return out;
}

uint32_t BodySize(const fb::Function& function) {
  return function.body() ? function.body()->size() : 0;
}

}  // namespace

std::string DisassembleFunction(const Module& module,
                                const fb::Function& function) {
  std::string out = "func @" + Printable(function.name()->string_view()) + "(";
  const auto* arguments = function.arguments();
  for (uint32_t i = 0; arguments && i < arguments->size(); ++i) {
    if (i) out += ", ";
    out += Slot(arguments->Get(i)) + ": " +
           SlotTypeString(function, arguments->Get(i));
  }
  out += ") -> (";
  const auto* results = function.result_types();
  for (uint32_t i = 0; results && i < results->size(); ++i) {
    if (i) out += ", ";
    out += TypeString(*results->Get(i));
  }
  out += ")\n";
  // The buffers dispatches write into, which the runtime keeps.
  if (const auto* sizes = function.buffer_sizes(); sizes && sizes->size()) {
    out += "  buffers:";
    for (uint32_t i = 0; i < sizes->size(); ++i) {
      out +=
          StrCat(i ? ", " : " ", BufferName(i), " ", sizes->Get(i), " bytes");
    }
    out += "\n";
  }
  // Indices right-aligned: branch targets name them.
  const uint32_t size = BodySize(function);
  const size_t width = StrCat(size > 0 ? size - 1 : 0).size();
  for (uint32_t i = 0; i < size; ++i) {
    std::string number = StrCat(i);
    out += std::string(2 + width - number.size(), ' ') + number + "  " +
           InstructionText(module, function, i) + "\n";
  }
  return out;
}

json DisassembleFunctionJson(const Module& module,
                             const fb::Function& function) {
  json slot_types = json::array();
  const uint32_t slots =
      function.slot_types() ? function.slot_types()->size() : 0;
  for (uint32_t s = 0; s < slots; ++s) {
    slot_types.push_back(SlotTypeString(function, s));
  }
  json body = json::array();
  for (uint32_t i = 0; i < BodySize(function); ++i) {
    body.push_back(InstructionJson(module, function, i));
  }
  json buffer_sizes = json::array();
  if (const auto* sizes = function.buffer_sizes()) {
    for (uint64_t size : *sizes) buffer_sizes.push_back(size);
  }
  return json{{"name", function.name()->str()},
              {"arguments", SlotArray(function.arguments())},
              {"slot_types", slot_types},
              {"buffer_sizes", buffer_sizes},
              {"body", body}};
}

Status Disassemble(const Module& module, const Options& options) {
  const auto* functions = module.flatbuffer().functions();
  std::vector<const fb::Function*> chosen;
  for (uint32_t i = 0; functions && i < functions->size(); ++i) {
    const fb::Function* function = functions->Get(i);
    if (!options.has_function ||
        function->name()->string_view() == options.function) {
      chosen.push_back(function);
    }
  }
  if (options.has_function && chosen.empty()) {
    return NotFoundError("no function '", Printable(options.function),
                         "' in the module (list them with 'kiln-dump ",
                         options.module_path, "')");
  }
  if (options.json) {
    json list = json::array();
    for (const fb::Function* function : chosen) {
      list.push_back(DisassembleFunctionJson(module, *function));
    }
    return PrintJson(json{{"functions", list}});
  }
  std::string out;
  for (const fb::Function* function : chosen) {
    if (!out.empty()) out += "\n";
    out += DisassembleFunction(module, *function);
  }
  return PrintText(out);
}

}  // namespace kiln::dump
