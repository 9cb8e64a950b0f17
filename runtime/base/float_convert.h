//===- float_convert.h - Narrow float formats <-> double ---------*- C++ -*-===//
//
// Exact widening and correctly rounded (round-to-nearest-even) narrowing
// between double and the float formats narrower than f32: f16, bf16, the
// fp8 formats f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ and f8E8M0FNU, and
// f4E2M1FN. Each is described by a FloatFormat; the names and encodings are
// MLIR's (and llvm::APFloat's). Internal to the runtime.
//
// Narrowing follows the rules the compiler's truncf follows (compiler/
// Codegen/CPU/ExpandSmallFloats.cpp), so that a value given as text and the
// same value converted by a kernel have the same bits:
//   - NaN becomes the format's NaN with the value's sign (a quiet NaN for
//     IEEE formats, 0x80 for FNUZ formats, 0xFF for f8E8M0FNU), or a zero
//     with its sign where the format has no NaN (f4E2M1FN);
//   - an infinity, and a finite value that rounds beyond the largest finite
//     one, becomes the infinity where the format has one, else NaN, else
//     (f4E2M1FN) the largest finite value with the value's sign;
//   - FNUZ formats have no -0: negative values that round to zero are +0;
//   - f8E8M0FNU (powers of two from 2^-127 to 2^127, no sign, no zero)
//     rounds a positive value to the nearest power of two (1.5 * 2^k, the
//     midpoint, to 2^(k+1)), zero to 2^-127, and any negative value to NaN.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BASE_FLOAT_CONVERT_H_
#define KILN_RUNTIME_BASE_FLOAT_CONVERT_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kiln/tensor.h"

namespace kiln {

/// What a format makes of the encodings beyond its finite numbers.
enum class NonFiniteEncoding : uint8_t {
  /// The largest exponent holds the infinities (mantissa 0) and NaNs (f16,
  /// bf16, f8E5M2).
  kIeee,
  /// No infinities; only the all-ones magnitude is NaN (f8E4M3FN,
  /// f8E8M0FNU).
  kNanOnly,
  /// No infinities and no -0: the sign bit alone is NaN (the FNUZ formats).
  kNegativeZeroIsNan,
  /// Neither infinities nor NaNs (f4E2M1FN).
  kNone,
};

/// A binary floating-point format of at most 16 bits: [sign] exponent
/// mantissa, the value of a normal number (1.mantissa) * 2^(exponent - bias).
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  /// False when exponent 0 is a normal number: no zero, no subnormals
  /// (f8E8M0FNU).
  bool has_zero;
  NonFiniteEncoding non_finite;

  constexpr int bit_width() const {
    return (has_sign ? 1 : 0) + exponent_bits + mantissa_bits;
  }
  constexpr uint32_t sign_mask() const {
    return has_sign ? 1u << (exponent_bits + mantissa_bits) : 0;
  }
  constexpr uint32_t magnitude_mask() const {
    return (1u << (exponent_bits + mantissa_bits)) - 1;
  }
  constexpr uint32_t exponent_mask() const {
    return ((1u << exponent_bits) - 1) << mantissa_bits;
  }
  constexpr uint32_t mantissa_mask() const { return (1u << mantissa_bits) - 1; }
  constexpr bool has_infinity() const {
    return non_finite == NonFiniteEncoding::kIeee;
  }
  constexpr bool has_nan() const {
    return non_finite != NonFiniteEncoding::kNone;
  }
  /// The magnitude bits of the largest finite value.
  constexpr uint32_t max_finite() const {
    switch (non_finite) {
      case NonFiniteEncoding::kIeee:
        return exponent_mask() -
               1;  // exponent all-ones minus one, mantissa all-ones
      case NonFiniteEncoding::kNanOnly:
        return magnitude_mask() - 1;
      case NonFiniteEncoding::kNegativeZeroIsNan:
      case NonFiniteEncoding::kNone:
        return magnitude_mask();
    }
    return 0;
  }
  /// The bits of NaN with the sign of `negative` (where the format keeps
  /// one); 0 for a format without NaN.
  constexpr uint32_t nan(bool negative) const {
    const uint32_t sign = negative ? sign_mask() : 0;
    switch (non_finite) {
      case NonFiniteEncoding::kIeee:  // quiet: the top mantissa bit set
        return sign | exponent_mask() | (1u << (mantissa_bits - 1));
      case NonFiniteEncoding::kNanOnly:
        return sign | magnitude_mask();
      case NonFiniteEncoding::kNegativeZeroIsNan:
        return sign_mask();
      case NonFiniteEncoding::kNone:
        return 0;
    }
    return 0;
  }

  /// Bytes an element takes: two for f16 and bf16, one for the others
  /// (f4E2M1FN in the low four bits of its byte).
  constexpr size_t storage_bytes() const { return bit_width() > 8 ? 2 : 1; }
  /// The bits of the element stored at `p`, and storing them there.
  uint32_t Load(const void* p) const;
  void Store(uint32_t bits, void* p) const;

  /// The value of `bits` (exact).
  double ToDouble(uint32_t bits) const;

  /// `value` rounded to nearest even, with the rules above. Sets
  /// `*out_of_range` (when given) if the value has no counterpart in the
  /// format and a substitute was returned: NaN or an infinity where the
  /// format has none, a finite value that rounds beyond the largest finite
  /// one (an infinity is such a substitute too), a negative value or zero
  /// for f8E8M0FNU.
  uint32_t FromDouble(double value, bool* out_of_range = nullptr) const;
};

inline constexpr FloatFormat kF16Format = {
    5, 10, 15, true, true, NonFiniteEncoding::kIeee};
inline constexpr FloatFormat kBF16Format = {
    8, 7, 127, true, true, NonFiniteEncoding::kIeee};
inline constexpr FloatFormat kF8E5M2Format = {
    5, 2, 15, true, true, NonFiniteEncoding::kIeee};
inline constexpr FloatFormat kF8E4M3FNFormat = {
    4, 3, 7, true, true, NonFiniteEncoding::kNanOnly};
inline constexpr FloatFormat kF8E5M2FNUZFormat = {
    5, 2, 16, true, true, NonFiniteEncoding::kNegativeZeroIsNan};
inline constexpr FloatFormat kF8E4M3FNUZFormat = {
    4, 3, 8, true, true, NonFiniteEncoding::kNegativeZeroIsNan};
inline constexpr FloatFormat kF8E8M0FNUFormat = {
    8, 0, 127, false, false, NonFiniteEncoding::kNanOnly};
inline constexpr FloatFormat kF4E2M1FNFormat = {
    2, 1, 1, true, true, NonFiniteEncoding::kNone};

/// The format of a float element type narrower than f32 (f16, bf16, the fp8
/// types and f4E2M1FN, which is stored one element per byte in its low four
/// bits); null for every other type.
const FloatFormat* NarrowFloatFormat(ElementType type);

}  // namespace kiln

#endif  // KILN_RUNTIME_BASE_FLOAT_CONVERT_H_
