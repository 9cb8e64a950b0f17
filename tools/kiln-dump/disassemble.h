//===- disassemble.h - Host function bodies as text and JSON ------*- C++ -*-===//
//
// kiln-dump --disassemble [--function=NAME]: the slot program of each host
// function (see "Host functions" in schema/module.fbs), one instruction
// per line.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_DISASSEMBLE_H_
#define KILN_TOOLS_KILN_DUMP_DISASSEMBLE_H_

#include <string>

#include "kiln/module.h"
#include "kiln/module_generated.h"
#include "kiln/status.h"
#include "nlohmann/json.hpp"
#include "options.h"

namespace kiln::dump {

/// `function` of `module` (a verified module: indices are in range):
///
///   func @main(%0: 4x8xf32) -> (4x8xf32)
///      0  %1 = dispatch main_dispatch_0::main_dispatch_0_add_4x8_f32(%0) :
///      4x8xf32 1  release %0 2  return %1
std::string DisassembleFunction(const Module& module,
                                const fb::Function& function);

/// The same as one JSON object: name, arguments, slot types and each
/// instruction's fields.
nlohmann::json DisassembleFunctionJson(const Module& module,
                                       const fb::Function& function);

/// --disassemble: every function of the module, or the one
/// `options.function` names, as text or JSON.
Status Disassemble(const Module& module, const Options& options);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_DISASSEMBLE_H_
