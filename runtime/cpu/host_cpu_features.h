//===- host_cpu_features.h - Instruction sets of this machine ------*- C++ -*-===//
//
// Whether this machine can run code that uses an x86 feature, by the names
// LLVM gives them ("avx2", "avx512f", "fma4", ...), as recorded in a module's
// libraries by the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CPU_HOST_CPU_FEATURES_H_
#define KILN_RUNTIME_CPU_HOST_CPU_FEATURES_H_

#include <optional>
#include <string_view>

namespace kiln {

/// True when the processor has feature `name` and the OS saves the
/// registers it uses; nullopt for a name this runtime does not know. Knows
/// every feature LLVM 22 lists for an x86 CPU.
std::optional<bool> HostHasCpuFeature(std::string_view name);

}  // namespace kiln

#endif  // KILN_RUNTIME_CPU_HOST_CPU_FEATURES_H_
