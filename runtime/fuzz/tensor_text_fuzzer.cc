//===- tensor_text_fuzzer.cc - Parse untrusted --input text ---------------===//
//
// kiln-run's --input values ("2x2xf32=[[1,2],[3,4]]", "4xi32=7", ...) come
// from the command line or scripts. Parsing must accept or refuse with a
// message, never crash or allocate without bound; what it accepts must
// format and parse back to the same tensor.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "kiln/tensor_io.h"

namespace {

constexpr std::string_view kSpace = " \t\n\r\f\v";

std::string_view Trim(std::string_view text) {
  size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  kiln::TensorType type;
  (void)kiln::ParseTensorType(text, &type);

  // "@path" reads a .npy file (npy_fuzzer covers the format); a fuzzer must
  // not open files.
  std::string_view trimmed = Trim(text);
  if (!trimmed.empty() && trimmed[0] == '@') return 0;
  // A valid type may ask for any size up to kMaxTensorByteSize ("1e9xf32",
  // zero-filled, or a splat): that is a request for memory, not a parsing
  // question, so large ones are left out to keep each run fast.
  uint64_t byte_size = 0;
  if (kiln::ParseTensorType(Trim(trimmed.substr(0, trimmed.find('='))), &type)
          .ok() &&
      kiln::ComputeTensorSize(type.element_type, type.shape, nullptr,
                              &byte_size)
          .ok() &&
      byte_size > (uint64_t{64} << 20))
    return 0;

  auto tensor = kiln::ParseTensor(text);
  if (!tensor.ok()) {
    if (tensor.status().message().empty()) __builtin_trap();
    return 0;
  }
  // Round trip small tensors only: formatting millions of values is slow
  // and proves nothing more.
  if (tensor->element_count() > 4096) {
    if (kiln::FormatTensor(*tensor, 16).empty()) __builtin_trap();
    return 0;
  }
  std::string formatted = kiln::FormatTensor(*tensor);
  auto again = kiln::ParseTensor(formatted);
  if (!again.ok()) __builtin_trap();
  if (again->type() != tensor->type()) __builtin_trap();
  return 0;
}
