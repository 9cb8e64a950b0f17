//===- tensor_text.cc - Tensor parsing and printing (iree-run-module syntax) ===//

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "base/float_convert.h"
#include "kiln/tensor_io.h"

namespace kiln {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string AllElementTypeNames() {
  std::string names;
  for (int i = 0; i < kElementTypeCount; ++i) {
    if (i) names.append(", ");
    names.append(ElementTypeName(static_cast<ElementType>(i)));
  }
  return names;
}

//===----------------------------------------------------------------------===//
// Element parsing
//===----------------------------------------------------------------------===//

// from_chars rejects a leading '+'; accept it like strtod does.
std::string_view StripPlus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' &&
      token[1] != '+') {
    token.remove_prefix(1);
  }
  return token;
}

// Parses a floating-point token completely. Values too small for T round to
// zero or a subnormal; finite values too large for T are an error.
template <typename T>
bool ParseFloatToken(std::string_view token, T* out) {
  token = StripPlus(token);
  T value;
  auto result = std::from_chars(token.data(), token.data() + token.size(),
                                value, std::chars_format::general);
  if (result.ptr != token.data() + token.size()) return false;
  if (result.ec == std::errc()) {
    *out = value;
    return true;
  }
  if (result.ec != std::errc::result_out_of_range) return false;
  // Out of range: strtod/strtof distinguish underflow (a correctly rounded
  // tiny value) from overflow (HUGE_VAL). The token is known to be a number.
  std::string copy(token);
  errno = 0;
  T fallback;
  if constexpr (std::is_same_v<T, float>) {
    fallback = std::strtof(copy.c_str(), nullptr);
  } else {
    fallback = std::strtod(copy.c_str(), nullptr);
  }
  if (std::isinf(fallback)) return false;
  *out = fallback;
  return true;
}

template <typename T>
bool ParseIntToken(std::string_view token, T* out) {
  token = StripPlus(token);
  int64_t value;
  auto result =
      std::from_chars(token.data(), token.data() + token.size(), value);
  if (result.ec != std::errc() || result.ptr != token.data() + token.size()) {
    return false;
  }
  if (value < std::numeric_limits<T>::min() ||
      value > std::numeric_limits<T>::max()) {
    return false;
  }
  *out = static_cast<T>(value);
  return true;
}

// Stores the element parsed from `token` at `dest`; false when the token is
// not a valid value of `type`.
bool ParseElement(ElementType type, std::string_view token, void* dest) {
  if (const FloatFormat* format = NarrowFloatFormat(type)) {
    double v;
    if (!ParseFloatToken(token, &v)) return false;
    // A value the format cannot hold (a finite literal that rounds past the
    // largest finite value, an infinity or NaN the format lacks) is out of
    // range.
    bool out_of_range;
    const uint32_t bits = format->FromDouble(v, &out_of_range);
    if (out_of_range) return false;
    format->Store(bits, dest);
    return true;
  }
  switch (type) {
    case ElementType::kF32: {
      float v;
      if (!ParseFloatToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    case ElementType::kF64: {
      double v;
      if (!ParseFloatToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    case ElementType::kI1: {
      uint8_t v;
      if (token == "0" || token == "false") {
        v = 0;
      } else if (token == "1" || token == "true") {
        v = 1;
      } else {
        return false;
      }
      std::memcpy(dest, &v, 1);
      return true;
    }
    case ElementType::kI8: {
      int8_t v;
      if (!ParseIntToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    case ElementType::kI16: {
      int16_t v;
      if (!ParseIntToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    case ElementType::kI32: {
      int32_t v;
      if (!ParseIntToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    case ElementType::kI64: {
      int64_t v;
      if (!ParseIntToken(token, &v)) return false;
      std::memcpy(dest, &v, sizeof(v));
      return true;
    }
    default:  // the narrow floats, above
      return false;
  }
}

//===----------------------------------------------------------------------===//
// Element printing
//===----------------------------------------------------------------------===//

template <typename T>
void AppendNumber(std::string& out, T value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

// Shortest decimal text that rounds back to the same 16-bit value: the
// fewest significant digits that round-trip, printed via the shortest form of
// that decimal as a double (which picks fixed or scientific notation).
void AppendHalf(std::string& out, const FloatFormat& format, uint16_t bits) {
  const double value = format.ToDouble(bits);
  if (!std::isfinite(value)) {
    AppendNumber(out, value);  // "inf", "-inf", "nan", "-nan"
    return;
  }
  char buffer[64];
  for (int precision = 0; precision < 17; ++precision) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                std::chars_format::scientific, precision);
    double rounded;
    std::from_chars(buffer, result.ptr, rounded);
    if (format.FromDouble(rounded) == bits) {
      AppendNumber(out, rounded);
      return;
    }
  }
  AppendNumber(out, value);  // unreachable: 17 digits are always exact
}

void AppendElement(std::string& out, ElementType type, const uint8_t* p) {
  if (const FloatFormat* format = NarrowFloatFormat(type)) {
    if (format->bit_width() > 8) {
      AppendHalf(out, *format, format->Load(p));
    } else {
      // The f32 the value is (exact): what the program computes with.
      AppendNumber(out, static_cast<float>(format->ToDouble(format->Load(p))));
    }
    return;
  }
  switch (type) {
    case ElementType::kF32: {
      float v;
      std::memcpy(&v, p, sizeof(v));
      AppendNumber(out, v);
      return;
    }
    case ElementType::kF64: {
      double v;
      std::memcpy(&v, p, sizeof(v));
      AppendNumber(out, v);
      return;
    }
    case ElementType::kI1:
      AppendNumber(out, static_cast<int>(*p));
      return;
    case ElementType::kI8:
      AppendNumber(out, static_cast<int>(static_cast<int8_t>(*p)));
      return;
    case ElementType::kI16: {
      int16_t v;
      std::memcpy(&v, p, sizeof(v));
      AppendNumber(out, v);
      return;
    }
    case ElementType::kI32: {
      int32_t v;
      std::memcpy(&v, p, sizeof(v));
      AppendNumber(out, v);
      return;
    }
    case ElementType::kI64: {
      int64_t v;
      std::memcpy(&v, p, sizeof(v));
      AppendNumber(out, v);
      return;
    }
    default:  // the narrow floats, above
      return;
  }
}

}  // namespace

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

Status ParseTensorType(std::string_view text, TensorType* out_type) {
  if (text.empty()) return InvalidArgumentError("empty tensor type");
  TensorType type;
  size_t start = 0;
  for (size_t dim_index = 0;; ++dim_index) {
    size_t x = text.find('x', start);
    if (x == std::string_view::npos) break;
    std::string_view dim = text.substr(start, x - start);
    if (dim.empty()) {
      return InvalidArgumentError("bad tensor type '", text, "': dimension ",
                                  dim_index, " is empty");
    }
    int64_t value = 0;
    auto result = std::from_chars(dim.data(), dim.data() + dim.size(), value);
    if (dim[0] == '-' || dim[0] == '+' || result.ec != std::errc() ||
        result.ptr != dim.data() + dim.size()) {
      return InvalidArgumentError("bad tensor type '", text, "': dimension ",
                                  dim_index, " ('", dim,
                                  "') is not a non-negative integer");
    }
    type.shape.push_back(value);
    start = x + 1;
  }
  std::string_view name = text.substr(start);
  if (!ParseElementTypeName(name, &type.element_type)) {
    if (name.empty()) {
      return InvalidArgumentError("bad tensor type '", text,
                                  "': missing element type");
    }
    return InvalidArgumentError(
        "bad tensor type '", text, "': unknown element type '", name,
        "' (expected one of ", AllElementTypeNames(), ")");
  }
  KILN_RETURN_IF_ERROR(
      ComputeTensorSize(type.element_type, type.shape, nullptr, nullptr),
      "bad tensor type '", text, "'");
  *out_type = std::move(type);
  return OkStatus();
}

StatusOr<TensorType> ParseTensorValueType(std::string_view text) {
  return ParseTensorValueType(text, NpyReadOptions());
}

StatusOr<TensorType> ParseTensorValueType(std::string_view text,
                                          const NpyReadOptions& npy) {
  text = Trim(text);
  if (text.empty()) return InvalidArgumentError("empty tensor value");
  if (text[0] == '@') return ReadNpyFileType(std::string(text.substr(1)), npy);
  TensorType type;
  KILN_RETURN_IF_ERROR(
      ParseTensorType(Trim(text.substr(0, text.find('='))), &type));
  return type;
}

StatusOr<Tensor> ParseTensor(std::string_view text) {
  return ParseTensor(text, NpyReadOptions());
}

StatusOr<Tensor> ParseTensor(std::string_view text, const NpyReadOptions& npy) {
  text = Trim(text);
  if (text.empty()) return InvalidArgumentError("empty tensor value");
  if (text[0] == '@') {
    return ReadNpyFile(std::string(text.substr(1)), npy);
  }

  const size_t equals = text.find('=');
  TensorType type;
  KILN_RETURN_IF_ERROR(ParseTensorType(Trim(text.substr(0, equals)), &type));
  KILN_ASSIGN_OR_RETURN(Tensor tensor,
                        Tensor::AllocateZeroed(type.element_type, type.shape));
  if (equals == std::string_view::npos) return tensor;  // zero-filled
  const size_t values_begin = equals + 1;
  if (Trim(text.substr(values_begin)).empty()) return tensor;  // zero-filled

  // Tokens are separated by whitespace, commas and brackets; brackets only
  // have to balance (the element count is what is checked against the shape).
  const int64_t expected = tensor.element_count();
  const size_t element_size = ElementTypeByteSize(type.element_type);
  auto* dest = tensor.mutable_data_as<uint8_t>();
  int64_t count = 0;
  int depth = 0;
  size_t i = values_begin;
  while (i < text.size()) {
    const char c = text[i];
    if (IsSpace(c) || c == ',') {
      ++i;
      continue;
    }
    if (c == '[') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ']') {
      if (--depth < 0) {
        return InvalidArgumentError("unbalanced ']' at column ", i + 1);
      }
      ++i;
      continue;
    }
    const size_t token_begin = i;
    while (i < text.size() && !IsSpace(text[i]) && text[i] != ',' &&
           text[i] != '[' && text[i] != ']') {
      ++i;
    }
    std::string_view token = text.substr(token_begin, i - token_begin);
    // Values beyond the expected count are still validated and counted so
    // the count error below reports the real number.
    alignas(8) uint8_t scratch[8];
    void* slot = count < expected ? dest + count * element_size : scratch;
    if (!ParseElement(type.element_type, token, slot)) {
      return InvalidArgumentError("bad ", ElementTypeName(type.element_type),
                                  " value '", token, "' (value ", count,
                                  ", column ", token_begin + 1, ")");
    }
    ++count;
  }
  if (depth != 0) {
    return InvalidArgumentError("unbalanced '[': ", depth,
                                " bracket(s) not closed");
  }
  if (count == 1 && expected > 1) {
    // Splat: replicate the first element.
    for (int64_t e = 1; e < expected; ++e) {
      std::memcpy(dest + e * element_size, dest, element_size);
    }
  } else if (count != expected) {
    return InvalidArgumentError("expected ", expected, " values for ",
                                type.ToString(), ", got ", count);
  }
  return tensor;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string FormatElement(ElementType type, const void* data) {
  std::string out;
  AppendElement(out, type, static_cast<const uint8_t*>(data));
  return out;
}

std::string FormatTensor(const Tensor& tensor) {
  return FormatTensor(tensor, tensor.element_count());
}

std::string FormatTensor(const Tensor& tensor, int64_t max_elements) {
  std::string out = tensor.type().ToString();
  out.push_back('=');
  // No values (an outer dimension may still be huge: "1000000000x0xf32").
  if (tensor.empty() || tensor.element_count() == 0) return out;
  const Shape& shape = tensor.shape();
  const ElementType type = tensor.element_type();
  const size_t element_size = ElementTypeByteSize(type);
  const auto* p = tensor.data_as<uint8_t>();
  if (max_elements < 0) max_elements = 0;
  const int64_t printed = std::min(tensor.element_count(), max_elements);
  out.reserve(out.size() + printed * 4 + 3);
  if (shape.empty()) {
    if (printed == 0) {
      out.append("...");
    } else {
      AppendElement(out, type, p);
    }
    return out;
  }
  // Outer dimensions are bracketed, the innermost is space separated:
  // 2x2 -> [1 2][3 4]; 2x2x2 -> [[1 2][3 4]][[5 6][7 8]]; 4 -> 1 2 3 4.
  // Once `printed` elements are out, "..." ends the text (brackets left
  // open, as iree-run-module does).
  const size_t rank = shape.size();
  int64_t remaining = printed;
  bool elided = false;
  auto emit = [&](auto& self, size_t dim) -> void {
    if (dim + 1 == rank) {
      for (int64_t i = 0; i < shape[dim]; ++i) {
        if (remaining == 0) {
          out.append("...");
          elided = true;
          return;
        }
        if (i) out.push_back(' ');
        AppendElement(out, type, p);
        p += element_size;
        --remaining;
      }
      return;
    }
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (remaining == 0 && printed < tensor.element_count()) {
        out.append("...");
        elided = true;
        return;
      }
      out.push_back('[');
      self(self, dim + 1);
      if (elided) return;
      out.push_back(']');
    }
  };
  emit(emit, 0);
  return out;
}

}  // namespace kiln
