//===- module.h - Loading and verifying kiln modules ---------------*- C++ -*-===//
//
// A Module is a verified, immutable view of a .kiln file plus the native
// libraries it carries, loaded and resolved. Everything the runtime later
// trusts (indices, sizes, types, slot definitions) is checked at load, so
// execution needs no further validation. A Module may be shared by several
// threads, each running its own Context.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_H_
#define KILN_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/module_format.h"
#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

namespace fb {
struct Module;  // schema/module.fbs, generated in kiln/module_generated.h
}  // namespace fb

inline constexpr uint32_t kModuleVersion = KILN_MODULE_VERSION;

/// The signature of a host function.
struct FunctionSignature {
  std::string name;
  std::vector<TensorType> arguments;
  std::vector<TensorType> results;

  /// "main(4x8xf32, 8x16xf32) -> (4x16xf32)".
  std::string ToString() const;
};

class Module {
 public:
  /// What LoadFromMemory does with the caller's bytes.
  enum class MemoryMode {
    kBorrow,  // use in place: the bytes must outlive the module
    kCopy,    // copy into a 64-byte aligned buffer owned by the module
  };

  /// Maps `path` read-only, verifies it and loads its libraries.
  static StatusOr<std::shared_ptr<const Module>> Load(const std::string& path);
  /// Same from bytes in memory. Borrowed bytes must be 64-byte aligned:
  /// constants are used in place and kernels may assume their alignment.
  static StatusOr<std::shared_ptr<const Module>> LoadFromMemory(
      const void* data, size_t size, MemoryMode mode);

  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// Module.name ("" when absent).
  std::string_view name() const;
  /// Signatures of the host functions, in module order.
  const std::vector<FunctionSignature>& functions() const;
  /// Index of the function called `name`; the error lists the functions
  /// that exist.
  StatusOr<size_t> FindFunction(std::string_view name) const;

  /// The verified FlatBuffer (include kiln/module_generated.h to use it).
  const fb::Module& flatbuffer() const;
  /// The module's bytes (mapped, copied or borrowed).
  const uint8_t* data() const;
  size_t size() const;

  struct Impl;  // module/module_impl.h

 private:
  friend class Context;
  explicit Module(std::unique_ptr<Impl> impl);
  static StatusOr<std::shared_ptr<const Module>> Create(
      std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln

#endif  // KILN_MODULE_H_
