//===- npy_fuzzer.cc - Parse untrusted .npy files -------------------------===//
//
// kiln-run reads --input=@file.npy. The header is Python-literal text with a
// declared shape and dtype; parsing must check them against the bytes that
// follow and refuse anything else with a message. What it accepts must encode
// and parse back to the same tensor.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kiln/tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto tensor = kiln::ParseNpy(data, size);
  if (!tensor.ok()) {
    if (tensor.status().message().empty()) __builtin_trap();
    return 0;
  }
  auto encoded = kiln::EncodeNpy(*tensor);
  if (!encoded.ok()) __builtin_trap();
  auto again = kiln::ParseNpy(encoded->data(), encoded->size());
  if (!again.ok() || again->type() != tensor->type() ||
      again->byte_size() != tensor->byte_size() ||
      std::memcmp(again->data(), tensor->data(), tensor->byte_size()) != 0)
    __builtin_trap();
  return 0;
}
