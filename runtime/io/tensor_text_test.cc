//===- tensor_text_test.cc - Tensor parsing and printing tests ------------===//

#include <cmath>
#include <cstring>
#include <limits>

#include "base/float_convert.h"
#include "gtest/gtest.h"
#include "kiln/tensor_io.h"

namespace kiln {
namespace {

Tensor MustParse(std::string_view text) {
  StatusOr<Tensor> tensor = ParseTensor(text);
  EXPECT_TRUE(tensor.ok()) << text << ": " << tensor.status().ToString();
  return tensor.ok() ? std::move(tensor).value() : Tensor();
}

std::string ParseError(std::string_view text) {
  StatusOr<Tensor> tensor = ParseTensor(text);
  EXPECT_FALSE(tensor.ok()) << text << " parsed unexpectedly";
  return tensor.ok() ? "" : tensor.status().message();
}

template <typename T>
std::vector<T> Values(const Tensor& tensor) {
  const T* p = tensor.data_as<T>();
  return std::vector<T>(p, p + tensor.element_count());
}

TEST(ParseTensorTypeTest, ParsesShapes) {
  TensorType type;
  ASSERT_TRUE(ParseTensorType("2x3xf32", &type).ok());
  EXPECT_EQ(type.element_type, ElementType::kF32);
  EXPECT_EQ(type.shape, (Shape{2, 3}));
  ASSERT_TRUE(ParseTensorType("i1", &type).ok());
  EXPECT_TRUE(type.shape.empty());
  ASSERT_TRUE(ParseTensorType("0x7xbf16", &type).ok());
  EXPECT_EQ(type.shape, (Shape{0, 7}));
}

TEST(ParseTensorTypeTest, Errors) {
  TensorType type;
  EXPECT_EQ(ParseTensorType("2xx3xf32", &type).message(),
            "bad tensor type '2xx3xf32': dimension 1 is empty");
  EXPECT_EQ(ParseTensorType("2x3xf33", &type).message(),
            "bad tensor type '2x3xf33': unknown element type 'f33' (expected "
            "one of f32, f64, f16, bf16, i1, i8, i16, i32, i64, f8E5M2, "
            "f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN)");
  EXPECT_EQ(ParseTensorType("2x-3xf32", &type).message(),
            "bad tensor type '2x-3xf32': dimension 1 ('-3') is not a "
            "non-negative integer");
  EXPECT_EQ(ParseTensorType("2x3x", &type).message(),
            "bad tensor type '2x3x': missing element type");
  EXPECT_FALSE(ParseTensorType("99999999999999999999xf32", &type).ok());
  EXPECT_FALSE(ParseTensorType("100000x100000x100000xf32", &type).ok());
  EXPECT_FALSE(ParseTensorType("", &type).ok());
  EXPECT_FALSE(ParseTensorType("x", &type).ok());
}

TEST(ParseTensorTest, FlatCommaSeparated) {
  Tensor t = MustParse("2x3xf32=1,2,3,4,5,6");
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(Values<float>(t), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ParseTensorTest, NestedBrackets) {
  Tensor t = MustParse("2x2xf32=[[1,2],[3,4]]");
  EXPECT_EQ(Values<float>(t), (std::vector<float>{1, 2, 3, 4}));
  Tensor printed = MustParse("2x2xi32=[1 2][3 4]");
  EXPECT_EQ(Values<int32_t>(printed), (std::vector<int32_t>{1, 2, 3, 4}));
  Tensor mixed = MustParse("  2x2xf64=[ 1 ,\t-2 ]\n[3e2, +4.5]  ");
  EXPECT_EQ(Values<double>(mixed), (std::vector<double>{1, -2, 300, 4.5}));
}

TEST(ParseTensorTest, SplatAndZeroFill) {
  EXPECT_EQ(Values<float>(MustParse("2x3xf32=0.5")),
            std::vector<float>(6, 0.5f));
  EXPECT_EQ(Values<int8_t>(MustParse("4xi8=-7")), std::vector<int8_t>(4, -7));
  EXPECT_EQ(Values<int32_t>(MustParse("3xi32")), std::vector<int32_t>(3, 0));
  EXPECT_EQ(Values<int32_t>(MustParse("3xi32=")), std::vector<int32_t>(3, 0));
}

TEST(ParseTensorTest, ZeroDimensional) {
  Tensor t = MustParse("f32=3.5");
  EXPECT_EQ(t.rank(), 0u);
  EXPECT_EQ(t.element_count(), 1);
  EXPECT_EQ(t.data_as<float>()[0], 3.5f);
  EXPECT_EQ(MustParse("i64=-9223372036854775808").data_as<int64_t>()[0],
            std::numeric_limits<int64_t>::min());
}

TEST(ParseTensorTest, EmptyTensors) {
  Tensor t = MustParse("0x3xf32=");
  EXPECT_EQ(t.element_count(), 0);
  EXPECT_EQ(MustParse("2x0xf32=[][]").element_count(), 0);
}

TEST(ParseTensorTest, Booleans) {
  EXPECT_EQ(Values<uint8_t>(MustParse("4xi1=0,1,true,false")),
            (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(ParseError("2xi1=1,2"), "bad i1 value '2' (value 1, column 8)");
}

TEST(ParseTensorTest, SpecialFloats) {
  Tensor t = MustParse("4xf32=inf,-inf,nan,-0");
  const float* v = t.data_as<float>();
  EXPECT_TRUE(std::isinf(v[0]) && v[0] > 0);
  EXPECT_TRUE(std::isinf(v[1]) && v[1] < 0);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_TRUE(v[3] == 0 && std::signbit(v[3]));
  // Underflow rounds to a subnormal or zero rather than failing.
  EXPECT_EQ(MustParse("f32=1e-46").data_as<float>()[0], 0.0f);
  EXPECT_EQ(MustParse("f32=1e-45").data_as<float>()[0],
            std::numeric_limits<float>::denorm_min());
}

TEST(ParseTensorTest, IntegerRanges) {
  EXPECT_EQ(Values<int8_t>(MustParse("2xi8=-128,127")),
            (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(ParseError("i8=128"), "bad i8 value '128' (value 0, column 4)");
  EXPECT_EQ(Values<int16_t>(MustParse("2xi16=-32768,32767")),
            (std::vector<int16_t>{-32768, 32767}));
  EXPECT_FALSE(ParseTensor("i16=32768").ok());
  EXPECT_FALSE(ParseTensor("i32=2147483648").ok());
  EXPECT_FALSE(ParseTensor("i64=9223372036854775808").ok());
  EXPECT_FALSE(ParseTensor("i32=1.5").ok());
}

TEST(ParseTensorTest, Errors) {
  EXPECT_EQ(ParseError("2x3xf32=1,2,3,4,5"),
            "expected 6 values for 2x3xf32, got 5");
  EXPECT_EQ(ParseError("2x3xf32=1,2,3,4,5,6,7"),
            "expected 6 values for 2x3xf32, got 7");
  EXPECT_EQ(ParseError("2xf32=1,abc"),
            "bad f32 value 'abc' (value 1, column 9)");
  EXPECT_EQ(ParseError("2xf32=1,1e"), "bad f32 value '1e' (value 1, column 9)");
  EXPECT_EQ(ParseError("f32=1e39"), "bad f32 value '1e39' (value 0, column 5)");
  EXPECT_EQ(ParseError("f16=70000"),
            "bad f16 value '70000' (value 0, column 5)");
  // Values a small float type cannot hold: beyond its largest value after
  // rounding, an infinity or NaN it lacks, a negative or zero scale.
  EXPECT_EQ(ParseError("f8E4M3FN=465"),
            "bad f8E4M3FN value '465' (value 0, column 10)");
  EXPECT_FALSE(ParseTensor("f8E4M3FN=inf").ok());
  EXPECT_FALSE(ParseTensor("f8E5M2=61440").ok());
  EXPECT_FALSE(ParseTensor("f8E5M2FNUZ=-inf").ok());
  EXPECT_FALSE(ParseTensor("f8E4M3FNUZ=248").ok());
  EXPECT_FALSE(ParseTensor("f8E8M0FNU=-1").ok());
  EXPECT_FALSE(ParseTensor("f8E8M0FNU=0").ok());
  EXPECT_FALSE(ParseTensor("f4E2M1FN=7").ok());
  EXPECT_FALSE(ParseTensor("f4E2M1FN=nan").ok());
  EXPECT_EQ(ParseError("2x2xf32=[[1,2],[3,4]"),
            "unbalanced '[': 1 bracket(s) not closed");
  EXPECT_EQ(ParseError("2xf32=1,2]"), "unbalanced ']' at column 10");
  EXPECT_EQ(ParseError("2xx3xf32=1"),
            "bad tensor type '2xx3xf32': dimension 1 is empty");
  EXPECT_EQ(ParseError("2x3xq8=1"),
            "bad tensor type '2x3xq8': unknown element type 'q8' (expected "
            "one of f32, f64, f16, bf16, i1, i8, i16, i32, i64, f8E5M2, "
            "f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN)");
  EXPECT_EQ(ParseError(""), "empty tensor value");
  EXPECT_EQ(ParseError("@/nonexistent/x.npy"),
            "cannot open '/nonexistent/x.npy': No such file or directory");
  // A second '=' is just a bad value, never a crash.
  EXPECT_FALSE(ParseTensor("f32==1").ok());
}

TEST(FormatTensorTest, IreeLayout) {
  EXPECT_EQ(FormatTensor(MustParse("2x2xf32=1,2,3,4")), "2x2xf32=[1 2][3 4]");
  EXPECT_EQ(FormatTensor(MustParse("4xi32=1,-2,3,4")), "4xi32=1 -2 3 4");
  EXPECT_EQ(FormatTensor(MustParse("2x2x2xi8=1,2,3,4,5,6,7,8")),
            "2x2x2xi8=[[1 2][3 4]][[5 6][7 8]]");
  EXPECT_EQ(FormatTensor(MustParse("f32=3.5")), "f32=3.5");
  EXPECT_EQ(FormatTensor(MustParse("3xi1=true,false,1")), "3xi1=1 0 1");
  // No values, no brackets: the type says it all, however large its dims.
  EXPECT_EQ(FormatTensor(MustParse("2x0xf32")), "2x0xf32=");
  EXPECT_EQ(FormatTensor(MustParse("0x2xf32")), "0x2xf32=");
  EXPECT_EQ(FormatTensor(MustParse("1000000000x0xf32")), "1000000000x0xf32=");
  EXPECT_EQ(FormatTensor(MustParse("3xf32=0.1,1e20,-inf")),
            "3xf32=0.1 1e+20 -inf");
  // 16-bit floats print their own shortest form, not the f32 expansion.
  EXPECT_EQ(FormatTensor(MustParse("3xf16=0.1,1000,-2.5")),
            "3xf16=0.1 1000 -2.5");
  EXPECT_EQ(FormatTensor(MustParse("2xbf16=0.1,3.140625")), "2xbf16=0.1 3.14");
  // Floats of at most 8 bits print the f32 they are: 0.1 reads as the
  // nearest f8E4M3FN, 0.1015625.
  EXPECT_EQ(FormatTensor(MustParse("5xf8E4M3FN=0.1,448,-0,nan,-nan")),
            "5xf8E4M3FN=0.1015625 448 -0 nan -nan");
  EXPECT_EQ(FormatTensor(MustParse("4xf8E5M2=1e-5,-inf,nan,57344")),
            "4xf8E5M2=1.5258789e-05 -inf nan 57344");
  EXPECT_EQ(FormatTensor(MustParse("3xf8E5M2FNUZ=-0,nan,-nan")),
            "3xf8E5M2FNUZ=0 nan nan");
  EXPECT_EQ(FormatTensor(MustParse("2xf8E4M3FNUZ=0.3,-240")),
            "2xf8E4M3FNUZ=0.3125 -240");
  EXPECT_EQ(FormatTensor(MustParse("4xf8E8M0FNU=1e-39,3,1e38,nan")),
            "4xf8E8M0FNU=5.877472e-39 4 8.507059e+37 nan");
  EXPECT_EQ(FormatTensor(MustParse("4xf4E2M1FN=2.5,-0.25,6.5,0.75")),
            "4xf4E2M1FN=2 -0 6 1");
}

TEST(ParseTensorTest, SmallFloatBits) {
  EXPECT_EQ(Values<uint8_t>(MustParse("4xf8E4M3FN=1,-2,0.1,nan")),
            (std::vector<uint8_t>{0x38, 0xC0, 0x1D, 0x7F}));
  EXPECT_EQ(Values<uint8_t>(MustParse("3xf8E5M2FNUZ=nan,-0,1")),
            (std::vector<uint8_t>{0x80, 0x00, 0x40}));
  // f4E2M1FN takes a byte, its value in the low four bits.
  EXPECT_EQ(Values<uint8_t>(MustParse("4xf4E2M1FN=0.5,-6,-0,3")),
            (std::vector<uint8_t>{0x1, 0xF, 0x8, 0x5}));
}

TEST(FormatTensorTest, AtMostSomeElements) {
  const Tensor v = MustParse("6xi32=1,2,3,4,5,6");
  EXPECT_EQ(FormatTensor(v, 6), "6xi32=1 2 3 4 5 6");
  EXPECT_EQ(FormatTensor(v, 100), "6xi32=1 2 3 4 5 6");
  EXPECT_EQ(FormatTensor(v, 3), "6xi32=1 2 3...");
  EXPECT_EQ(FormatTensor(v, 0), "6xi32=...");
  const Tensor m = MustParse("3x2xf32=1,2,3,4,5,6");
  EXPECT_EQ(FormatTensor(m, 6), "3x2xf32=[1 2][3 4][5 6]");
  EXPECT_EQ(FormatTensor(m, 4), "3x2xf32=[1 2][3 4]...");
  EXPECT_EQ(FormatTensor(m, 0), "3x2xf32=...");
  EXPECT_EQ(FormatTensor(m, 3), "3x2xf32=[1 2][3...");
  EXPECT_EQ(FormatTensor(MustParse("f32=2.5"), 1), "f32=2.5");
  EXPECT_EQ(FormatTensor(MustParse("f32=2.5"), 0), "f32=...");
  EXPECT_EQ(FormatTensor(MustParse("2x0xf32"), 0), "2x0xf32=");
}

// Every value of the type, printed then parsed, comes back bit-identical.
template <typename Bits>
void ExpectRoundTrip(ElementType type, const std::vector<Bits>& values) {
  StatusOr<Tensor> tensor =
      Tensor::Allocate(type, {static_cast<int64_t>(values.size())});
  ASSERT_TRUE(tensor.ok());
  std::memcpy(tensor->mutable_data(), values.data(),
              values.size() * sizeof(Bits));
  const std::string text = FormatTensor(*tensor);
  StatusOr<Tensor> parsed = ParseTensor(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->type(), tensor->type());
  const Bits* got = parsed->data_as<Bits>();
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(got[i], values[i])
        << "element " << i << " of " << text.substr(0, 200);
  }
}

TEST(RoundTripTest, F32SpecialValues) {
  const float specials[] = {0.0f,
                            -0.0f,
                            1.0f,
                            0.1f,
                            -1e-7f,
                            3.4028235e38f,
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            1.1754942e-38f,  // largest subnormal
                            INFINITY,
                            -INFINITY,
                            16777217.0f,
                            123456.789f};
  std::vector<uint32_t> bits;
  for (float f : specials) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    bits.push_back(b);
  }
  ExpectRoundTrip(ElementType::kF32, bits);
  // NaN stays NaN (payloads are not preserved by text).
  Tensor nan = MustParse(FormatTensor(MustParse("f32=nan")));
  EXPECT_TRUE(std::isnan(nan.data_as<float>()[0]));
  Tensor negative_nan = MustParse(FormatTensor(MustParse("f32=-nan")));
  EXPECT_TRUE(std::isnan(negative_nan.data_as<float>()[0]));
  EXPECT_TRUE(std::signbit(negative_nan.data_as<float>()[0]));
}

TEST(RoundTripTest, F32BitPatternSweep) {
  // A stride over all bit patterns (skipping NaNs) covers normals and
  // subnormals of every exponent.
  std::vector<uint32_t> bits;
  for (uint64_t b = 0; b <= 0xffffffffu; b += 65521) {
    const uint32_t v = static_cast<uint32_t>(b);
    if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu)) continue;
    bits.push_back(v);
  }
  for (uint32_t v = 1; v < 64; ++v) bits.push_back(v);  // tiny subnormals
  ExpectRoundTrip(ElementType::kF32, bits);
}

TEST(RoundTripTest, F64) {
  std::vector<uint64_t> bits = {0,
                                1,
                                2,
                                0x000fffffffffffffull,
                                0x0010000000000000ull,
                                0x3ff0000000000001ull,
                                0x7fefffffffffffffull,
                                0x7ff0000000000000ull,
                                0x8000000000000000ull,
                                0xfff0000000000000ull};
  for (uint64_t b = 0; b < 0x7ff0000000000000ull; b += 0x0000fedcba987654ull) {
    bits.push_back(b);
    bits.push_back(b | 0x8000000000000000ull);
  }
  ExpectRoundTrip(ElementType::kF64, bits);
}

TEST(RoundTripTest, AllF16AndBF16) {
  std::vector<uint16_t> f16, bf16;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    if (!((b & 0x7c00) == 0x7c00 && (b & 0x3ff))) f16.push_back(b);
    if (!((b & 0x7f80) == 0x7f80 && (b & 0x7f))) bf16.push_back(b);
  }
  ExpectRoundTrip(ElementType::kF16, f16);
  ExpectRoundTrip(ElementType::kBF16, bf16);
}

TEST(RoundTripTest, AllSmallFloats) {
  for (ElementType type : {ElementType::kF8E5M2, ElementType::kF8E4M3FN,
                           ElementType::kF8E5M2FNUZ, ElementType::kF8E4M3FNUZ,
                           ElementType::kF8E8M0FNU, ElementType::kF4E2M1FN}) {
    const FloatFormat& format = *NarrowFloatFormat(type);
    std::vector<uint8_t> bits;
    for (uint32_t b = 0; b < (1u << format.bit_width()); ++b) {
      // NaNs come back as the format's NaN of their sign.
      if (!std::isnan(format.ToDouble(b)) ||
          b == format.nan(format.ToDouble(b) < 0 || (b & format.sign_mask()))) {
        bits.push_back(static_cast<uint8_t>(b));
      }
    }
    ExpectRoundTrip(type, bits);
  }
}

TEST(RoundTripTest, Integers) {
  ExpectRoundTrip<int64_t>(ElementType::kI64,
                           {0, -1, std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max()});
  ExpectRoundTrip<int32_t>(ElementType::kI32, {0, -1, INT32_MIN, INT32_MAX});
  ExpectRoundTrip<int16_t>(ElementType::kI16, {0, -1, INT16_MIN, INT16_MAX});
  ExpectRoundTrip<int8_t>(ElementType::kI8, {0, -1, INT8_MIN, INT8_MAX});
  ExpectRoundTrip<uint8_t>(ElementType::kI1, {0, 1, 1, 0});
}

}  // namespace
}  // namespace kiln
