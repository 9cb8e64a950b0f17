//===- float_convert.h - f16 / bf16 <-> double conversions ---------*- C++ -*-===//
//
// Exact widening and correctly rounded (round-to-nearest-even) narrowing
// between double and the 16-bit IEEE-style formats f16 (5 exponent bits, 10
// mantissa bits) and bf16 (8, 7). Internal to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BASE_FLOAT_CONVERT_H_
#define KILN_RUNTIME_BASE_FLOAT_CONVERT_H_

#include <cmath>
#include <cstdint>

namespace kiln {

/// A binary16-like format with `ExponentBits` and `MantissaBits`.
template <int ExponentBits, int MantissaBits>
struct SmallFloatFormat {
  static_assert(ExponentBits + MantissaBits == 15, "16-bit formats only");
  static constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  static constexpr uint16_t kExponentMask =
      ((1u << ExponentBits) - 1) << MantissaBits;
  static constexpr uint16_t kMantissaMask = (1u << MantissaBits) - 1;
  static constexpr uint16_t kSignMask = 0x8000;

  static double ToDouble(uint16_t bits) {
    const int exponent_field = (bits & kExponentMask) >> MantissaBits;
    const int mantissa = bits & kMantissaMask;
    double magnitude;
    if (exponent_field == (kExponentMask >> MantissaBits)) {
      magnitude = mantissa ? NAN : INFINITY;
    } else if (exponent_field == 0) {
      // Subnormal: mantissa * 2^(1 - bias - mantissa_bits).
      magnitude = std::ldexp(static_cast<double>(mantissa),
                             1 - kBias - MantissaBits);
    } else {
      magnitude = std::ldexp(static_cast<double>(mantissa | (1 << MantissaBits)),
                             exponent_field - kBias - MantissaBits);
    }
    return (bits & kSignMask) ? -magnitude : magnitude;
  }

  static uint16_t FromDouble(double value) {
    const uint16_t sign = std::signbit(value) ? kSignMask : 0;
    if (std::isnan(value)) {
      return sign | kExponentMask | (1u << (MantissaBits - 1));  // quiet NaN
    }
    const double magnitude = std::fabs(value);
    if (std::isinf(magnitude)) return sign | kExponentMask;
    if (magnitude == 0) return sign;
    constexpr int kMinExponent = 1 - kBias;
    constexpr int kMaxExponent = kBias;
    int binary_exponent;
    std::frexp(magnitude, &binary_exponent);  // magnitude in [2^(e-1), 2^e)
    int exponent = binary_exponent - 1;
    if (exponent < kMinExponent) exponent = kMinExponent;  // subnormal range
    if (exponent > kMaxExponent + 1) return sign | kExponentMask;
    // Scale so the quantum (one unit in the last place) is 1, then round to
    // nearest even (the default floating-point rounding mode).
    const double scaled = std::ldexp(magnitude, MantissaBits - exponent);
    uint32_t mantissa = static_cast<uint32_t>(std::nearbyint(scaled));
    if (mantissa >= (2u << MantissaBits)) {  // rounded up to the next binade
      mantissa >>= 1;
      ++exponent;
    }
    if (mantissa < (1u << MantissaBits)) {  // subnormal (or zero)
      return sign | static_cast<uint16_t>(mantissa);
    }
    if (exponent > kMaxExponent) return sign | kExponentMask;  // overflow
    return sign |
           static_cast<uint16_t>((exponent + kBias) << MantissaBits) |
           static_cast<uint16_t>(mantissa & kMantissaMask);
  }
};

using F16Format = SmallFloatFormat<5, 10>;
using BF16Format = SmallFloatFormat<8, 7>;

}  // namespace kiln

#endif  // KILN_RUNTIME_BASE_FLOAT_CONVERT_H_
