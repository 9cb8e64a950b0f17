//===- float_convert.cc - Narrow float formats <-> double ----------------===//

#include "base/float_convert.h"

#include <cstring>

namespace kiln {

uint32_t FloatFormat::Load(const void* p) const {
  if (storage_bytes() == 1) return *static_cast<const uint8_t*>(p);
  uint16_t bits;
  std::memcpy(&bits, p, sizeof(bits));
  return bits;
}

void FloatFormat::Store(uint32_t bits, void* p) const {
  if (storage_bytes() == 1) {
    *static_cast<uint8_t*>(p) = static_cast<uint8_t>(bits);
    return;
  }
  const auto half = static_cast<uint16_t>(bits);
  std::memcpy(p, &half, sizeof(half));
}

double FloatFormat::ToDouble(uint32_t bits) const {
  const bool negative = (bits & sign_mask()) != 0;
  const uint32_t magnitude = bits & magnitude_mask();
  const int exponent = static_cast<int>(magnitude >> mantissa_bits);
  const uint32_t mantissa = magnitude & mantissa_mask();
  const double sign = negative ? -1.0 : 1.0;
  switch (non_finite) {
    case NonFiniteEncoding::kIeee:
      if (exponent == (1 << exponent_bits) - 1) {
        return std::copysign(mantissa ? NAN : INFINITY, sign);
      }
      break;
    case NonFiniteEncoding::kNanOnly:
      if (magnitude == magnitude_mask()) return std::copysign(NAN, sign);
      break;
    case NonFiniteEncoding::kNegativeZeroIsNan:
      if (bits == sign_mask()) return NAN;  // the sign bit is no sign here
      break;
    case NonFiniteEncoding::kNone:
      break;
  }
  double value;
  if (has_zero && exponent == 0) {
    // Zero or subnormal: mantissa * 2^(1 - bias - mantissa_bits).
    value = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>(mantissa | (1u << mantissa_bits)),
                       exponent - bias - mantissa_bits);
  }
  return std::copysign(value, sign);
}

uint32_t FloatFormat::FromDouble(double value, bool* out_of_range) const {
  bool unrepresentable = false;
  const bool negative = std::signbit(value);
  const uint32_t sign = negative ? sign_mask() : 0;
  // An infinity, or a finite value beyond the largest finite one.
  auto overflow = [&]() -> uint32_t {
    switch (non_finite) {
      case NonFiniteEncoding::kIeee:
        return sign | exponent_mask();
      case NonFiniteEncoding::kNanOnly:
      case NonFiniteEncoding::kNegativeZeroIsNan:
        return nan(negative);
      case NonFiniteEncoding::kNone:
        return sign | max_finite();
    }
    return 0;
  };
  uint32_t bits;
  const double magnitude = std::fabs(value);
  if (std::isnan(value)) {
    unrepresentable = !has_nan();
    bits = has_nan() ? nan(negative) : sign;
  } else if (!has_sign && negative && magnitude != 0) {
    unrepresentable = true;
    bits = nan(false);
  } else if (std::isinf(magnitude)) {
    unrepresentable = !has_infinity();
    bits = overflow();
  } else if (magnitude == 0 && has_zero) {
    bits = non_finite == NonFiniteEncoding::kNegativeZeroIsNan ? 0 : sign;
  } else {
    // Zero without a zero rounds to the smallest value, as tiny values do.
    unrepresentable = magnitude == 0;
    const int min_exponent = has_zero ? 1 - bias : -bias;
    int binary_exponent;
    std::frexp(magnitude, &binary_exponent);  // in [2^(e-1), 2^e)
    int exponent = binary_exponent - 1;
    if (exponent < min_exponent) exponent = min_exponent;  // subnormal range
    // Scale so the quantum (one unit in the last place) is 1, then round to
    // nearest even (the default floating-point rounding mode).
    const double scaled = std::ldexp(magnitude, mantissa_bits - exponent);
    uint64_t mantissa = static_cast<uint64_t>(std::nearbyint(scaled));
    if (mantissa >= (uint64_t{2} << mantissa_bits)) {  // into the next binade
      mantissa >>= 1;
      ++exponent;
    }
    uint64_t code;
    if (mantissa < (uint64_t{1} << mantissa_bits)) {
      code = mantissa;  // subnormal or zero (with has_zero), else 2^-bias
    } else {
      code = (static_cast<uint64_t>(exponent + bias) << mantissa_bits) |
             (mantissa & mantissa_mask());
    }
    if (code > max_finite()) {
      unrepresentable = true;
      bits = overflow();
    } else if (code == 0 &&
               non_finite == NonFiniteEncoding::kNegativeZeroIsNan) {
      bits = 0;  // no -0
    } else {
      bits = sign | static_cast<uint32_t>(code);
    }
  }
  if (out_of_range) *out_of_range = unrepresentable;
  return bits;
}

const FloatFormat* NarrowFloatFormat(ElementType type) {
  switch (type) {
    case ElementType::kF16:
      return &kF16Format;
    case ElementType::kBF16:
      return &kBF16Format;
    case ElementType::kF8E5M2:
      return &kF8E5M2Format;
    case ElementType::kF8E4M3FN:
      return &kF8E4M3FNFormat;
    case ElementType::kF8E5M2FNUZ:
      return &kF8E5M2FNUZFormat;
    case ElementType::kF8E4M3FNUZ:
      return &kF8E4M3FNUZFormat;
    case ElementType::kF8E8M0FNU:
      return &kF8E8M0FNUFormat;
    case ElementType::kF4E2M1FN:
      return &kF4E2M1FNFormat;
    default:
      return nullptr;
  }
}

}  // namespace kiln
