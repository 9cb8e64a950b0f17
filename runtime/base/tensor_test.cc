//===- tensor_test.cc - Element types, sizes and tensor storage tests -----===//

#include "kiln/tensor.h"

#include <cstring>

#include "base/float_convert.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(ElementTypeTest, NamesAndSizes) {
  const char* names[] = {"f32",        "f64",       "f16",      "bf16",
                         "i1",         "i8",        "i16",      "i32",
                         "i64",        "f8E5M2",    "f8E4M3FN", "f8E5M2FNUZ",
                         "f8E4M3FNUZ", "f8E8M0FNU", "f4E2M1FN"};
  const size_t sizes[] = {4, 8, 2, 2, 1, 1, 2, 4, 8, 1, 1, 1, 1, 1, 1};
  for (int i = 0; i < kElementTypeCount; ++i) {
    auto type = static_cast<ElementType>(i);
    EXPECT_EQ(ElementTypeName(type), names[i]);
    EXPECT_EQ(ElementTypeByteSize(type), sizes[i]);
    ElementType parsed;
    ASSERT_TRUE(ParseElementTypeName(names[i], &parsed));
    EXPECT_EQ(parsed, type);
  }
  ElementType parsed;
  EXPECT_FALSE(ParseElementTypeName("f33", &parsed));
  EXPECT_FALSE(IsValidElementType(15));
}

TEST(TensorSizeTest, ComputesCountAndBytes) {
  int64_t count = 0;
  uint64_t bytes = 0;
  ASSERT_TRUE(
      ComputeTensorSize(ElementType::kF32, {2, 3}, &count, &bytes).ok());
  EXPECT_EQ(count, 6);
  EXPECT_EQ(bytes, 24u);
  ASSERT_TRUE(ComputeTensorSize(ElementType::kI64, {}, &count, &bytes).ok());
  EXPECT_EQ(count, 1);
  EXPECT_EQ(bytes, 8u);
  // A zero dimension makes the tensor empty even next to huge ones.
  ASSERT_TRUE(ComputeTensorSize(ElementType::kF32, {0, int64_t{1} << 62},
                                &count, &bytes)
                  .ok());
  EXPECT_EQ(bytes, 0u);
}

TEST(TensorSizeTest, RejectsOverflowAndNegativeDims) {
  uint64_t bytes = 0;
  Status overflow = ComputeTensorSize(
      ElementType::kF32, {int64_t{1} << 32, int64_t{1} << 32}, nullptr, &bytes);
  EXPECT_FALSE(overflow.ok());
  EXPECT_NE(overflow.message().find("exceeds the limit"), std::string::npos)
      << overflow.message();
  // Wraps around 2^64 exactly: must still be rejected.
  EXPECT_FALSE(ComputeTensorSize(ElementType::kI8,
                                 {int64_t{1} << 32, int64_t{1} << 32}, nullptr,
                                 &bytes)
                   .ok());
  EXPECT_FALSE(ComputeTensorSize(ElementType::kF64, {int64_t{1} << 38}, nullptr,
                                 &bytes)
                   .ok());  // 2^41 bytes: over the limit
  Status negative =
      ComputeTensorSize(ElementType::kF32, {2, -1}, nullptr, &bytes);
  EXPECT_EQ(negative.message(), "dimension 1 is negative (-1)");
  EXPECT_FALSE(
      ComputeTensorSize(static_cast<ElementType>(42), {1}, nullptr, &bytes)
          .ok());
  EXPECT_FALSE(
      ComputeTensorSize(ElementType::kF32, Shape(65, 1), nullptr, &bytes).ok());
}

TEST(TensorTest, FormatType) {
  EXPECT_EQ(FormatTensorType(ElementType::kF32, {4, 8}), "4x8xf32");
  EXPECT_EQ(FormatTensorType(ElementType::kBF16, {}), "bf16");
  EXPECT_EQ((TensorType{ElementType::kI1, {0}}).ToString(), "0xi1");
}

TEST(TensorTest, AllocateIsAlignedAndOwned) {
  StatusOr<Tensor> tensor = Tensor::AllocateZeroed(ElementType::kF32, {3, 5});
  ASSERT_TRUE(tensor.ok());
  EXPECT_EQ(tensor->byte_size(), 60u);
  EXPECT_EQ(tensor->element_count(), 15);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor->data()) % 64, 0u);
  EXPECT_FALSE(tensor->is_borrowed());
  for (int i = 0; i < 15; ++i) EXPECT_EQ(tensor->data_as<float>()[i], 0.0f);
  // Zero-sized tensors still have storage.
  StatusOr<Tensor> empty = Tensor::Allocate(ElementType::kF32, {0});
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->empty());
  EXPECT_EQ(empty->byte_size(), 0u);
}

// Large buffers are mapped on their own (huge-page aligned outside
// sanitizer builds): still aligned, whole, distinct, and shared by copies.
TEST(TensorTest, LargeBuffersAreAlignedAndWhole) {
  constexpr int64_t kCount = (int64_t{9} << 20) / 4 + 3;  // 9 MiB + 12 bytes
  StatusOr<Tensor> a = Tensor::AllocateZeroed(ElementType::kF32, {kCount});
  StatusOr<Tensor> b = Tensor::Allocate(ElementType::kF32, {kCount});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % 64, 0u);
  float* values = a->mutable_data_as<float>();
  EXPECT_EQ(values[0], 0.0f);
  EXPECT_EQ(values[kCount - 1], 0.0f);
  values[0] = 1.0f;
  values[kCount - 1] = 2.0f;
  std::memset(b->mutable_data(), 0xff, b->byte_size());
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[kCount - 1], 2.0f);
  Tensor copy = *a;
  a = Tensor();
  EXPECT_EQ(copy.data_as<float>()[kCount - 1], 2.0f);
}

#ifndef KILN_SANITIZER_ADDRESS
// A freed buffer of 64 KiB or more is kept for the next of its length, so
// a model called again writes into pages it has already touched; a buffer
// taken again is still whole and writable.
TEST(TensorTest, FreedMappedBuffersAreReused) {
  for (int64_t count : {int64_t{64} << 8, int64_t{1} << 18, int64_t{3} << 20}) {
    StatusOr<Tensor> first = Tensor::Allocate(ElementType::kF32, {count});
    ASSERT_TRUE(first.ok());
    const void* address = first->data();
    first = Tensor();
    StatusOr<Tensor> second =
        Tensor::AllocateZeroed(ElementType::kF32, {count});
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->data(), address) << count;
    EXPECT_EQ(second->data_as<float>()[count - 1], 0.0f);
    second->mutable_data_as<float>()[count - 1] = 1.0f;
    // A live buffer is never handed out twice.
    StatusOr<Tensor> third = Tensor::Allocate(ElementType::kF32, {count});
    ASSERT_TRUE(third.ok());
    EXPECT_NE(third->data(), address) << count;
  }
}
#endif

TEST(TensorTest, AllocateRejectsHugeSizes) {
  StatusOr<Tensor> huge =
      Tensor::Allocate(ElementType::kF32, {int64_t{1} << 40});
  EXPECT_FALSE(huge.ok());
}

TEST(TensorTest, ReshapeAliasesAndCloneCopies) {
  StatusOr<Tensor> tensor = Tensor::AllocateZeroed(ElementType::kI32, {2, 3});
  ASSERT_TRUE(tensor.ok());
  StatusOr<Tensor> reshaped = tensor->Reshape(ElementType::kI32, {6});
  ASSERT_TRUE(reshaped.ok());
  EXPECT_EQ(reshaped->data(), tensor->data());
  EXPECT_TRUE(reshaped->SharesStorageWith(*tensor));
  reshaped->mutable_data_as<int32_t>()[5] = 42;
  EXPECT_EQ(tensor->data_as<int32_t>()[5], 42);

  StatusOr<Tensor> bad = tensor->Reshape(ElementType::kI32, {7});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "cannot reshape 2x3xi32 (24 bytes) to 7xi32 (28 bytes)");

  StatusOr<Tensor> clone = tensor->Clone();
  ASSERT_TRUE(clone.ok());
  EXPECT_NE(clone->data(), tensor->data());
  EXPECT_FALSE(clone->SharesStorageWith(*tensor));
  EXPECT_EQ(clone->data_as<int32_t>()[5], 42);
  EXPECT_EQ(clone->shape(), (Shape{2, 3}));
}

TEST(TensorTest, StorageOutlivesTheFirstReference) {
  Tensor alias;
  {
    StatusOr<Tensor> tensor = Tensor::AllocateZeroed(ElementType::kF64, {4});
    ASSERT_TRUE(tensor.ok());
    tensor->mutable_data_as<double>()[3] = 1.5;
    alias = *tensor;
  }
  EXPECT_EQ(alias.data_as<double>()[3], 1.5);
}

TEST(TensorTest, BorrowNeverOwns) {
  alignas(64) float data[4] = {1, 2, 3, 4};
  StatusOr<Tensor> borrowed =
      Tensor::Borrow(ElementType::kF32, {2, 2}, data, sizeof(data));
  ASSERT_TRUE(borrowed.ok());
  EXPECT_TRUE(borrowed->is_borrowed());
  EXPECT_EQ(borrowed->data(), data);
  StatusOr<Tensor> tail =
      Tensor::Borrow(ElementType::kF32, {1}, data + 3, sizeof(float));
  ASSERT_TRUE(tail.ok());
  EXPECT_TRUE(borrowed->SharesStorageWith(*tail));
  StatusOr<Tensor> wrong_size =
      Tensor::Borrow(ElementType::kF32, {2, 2}, data, 12);
  EXPECT_FALSE(wrong_size.ok());
}

TEST(FloatConvertTest, F16Conversions) {
  EXPECT_EQ(kF16Format.FromDouble(1.0), 0x3c00);
  EXPECT_EQ(kF16Format.FromDouble(-2.0), 0xc000);
  EXPECT_EQ(kF16Format.FromDouble(65504.0), 0x7bff);
  EXPECT_EQ(kF16Format.FromDouble(65520.0), 0x7c00);  // rounds to inf
  EXPECT_EQ(kF16Format.FromDouble(65519.0), 0x7bff);
  EXPECT_EQ(kF16Format.FromDouble(std::ldexp(1.0, -24)),
            0x0001);  // min subnormal
  EXPECT_EQ(kF16Format.FromDouble(std::ldexp(1.0, -25)),
            0x0000);  // tie to even
  EXPECT_EQ(kF16Format.FromDouble(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(kF16Format.FromDouble(1.0 + std::ldexp(1.0, -11)), 0x3c00);  // tie
  EXPECT_EQ(kF16Format.FromDouble(1.0 + std::ldexp(3.0, -11)),
            0x3c02);  // tie up
  EXPECT_EQ(kF16Format.FromDouble(-0.0), 0x8000);
  EXPECT_EQ(kF16Format.FromDouble(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(kF16Format.ToDouble(kF16Format.FromDouble(NAN))));
  // Every finite f16 survives the round trip through double.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff)) continue;  // NaN
    ASSERT_EQ(kF16Format.FromDouble(kF16Format.ToDouble(bits)), bits) << bits;
  }
}

TEST(FloatConvertTest, BF16Conversions) {
  EXPECT_EQ(kBF16Format.FromDouble(1.0), 0x3f80);
  EXPECT_EQ(kBF16Format.FromDouble(3.0e38), 0x7f62);
  EXPECT_EQ(kBF16Format.FromDouble(1e39), 0x7f80);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7f80) == 0x7f80 && (bits & 0x7f)) continue;  // NaN
    ASSERT_EQ(kBF16Format.FromDouble(kBF16Format.ToDouble(bits)), bits) << bits;
  }
  // bf16 is the top half of an f32.
  float f = 1.5f;
  uint32_t f_bits;
  std::memcpy(&f_bits, &f, 4);
  EXPECT_EQ(kBF16Format.FromDouble(1.5), f_bits >> 16);
}

// Expected bits are llvm::APFloat's conversions (round to nearest even),
// except where float_convert.h says otherwise.
TEST(FloatConvertTest, Fp8AndFp4Rounding) {
  struct Case {
    const FloatFormat& format;
    double value;
    uint32_t bits;
    bool out_of_range;
  };
  const Case cases[] = {
      {kF8E5M2Format, 1.5, 0x3e, false},
      {kF8E5M2Format, 2.5, 0x41, false},
      {kF8E5M2Format, 0.2, 0x32, false},
      {kF8E5M2Format, -0.0, 0x80, false},
      {kF8E5M2Format, 57344, 0x7b, false},  // largest finite
      {kF8E5M2Format, 61439, 0x7b, false},
      {kF8E5M2Format, 61440, 0x7c, true},  // the tie rounds to odd max: inf
      {kF8E5M2Format, -INFINITY, 0xfc, false},
      {kF8E5M2Format, -NAN, 0xfe, false},
      {kF8E5M2Format, std::ldexp(1.0, -16), 0x01, false},  // min subnormal
      {kF8E5M2Format, std::ldexp(1.0, -17), 0x00, false},  // tie to even
      {kF8E4M3FNFormat, 2.5, 0x42, false},
      {kF8E4M3FNFormat, 6.5, 0x4d, false},
      {kF8E4M3FNFormat, 464, 0x7e, false},  // the tie rounds to even 448
      {kF8E4M3FNFormat, 464.5, 0x7f, true},
      {kF8E4M3FNFormat, -1e30, 0xff, true},
      {kF8E4M3FNFormat, INFINITY, 0x7f, true},
      {kF8E4M3FNFormat, -NAN, 0xff, false},
      {kF8E4M3FNFormat, 0.0048828125, 0x02, false},  // 2.5/512: tie to even
      {kF8E4M3FNFormat, 0.0068359375, 0x04, false},  // 3.5/512
      {kF8E5M2FNUZFormat, 1.5, 0x42, false},
      {kF8E5M2FNUZFormat, 2.25, 0x44, false},
      {kF8E5M2FNUZFormat, 3.25, 0x46, false},
      {kF8E5M2FNUZFormat, -0.0, 0x00, false},  // no -0
      {kF8E5M2FNUZFormat, -1e-30, 0x00, false},
      {kF8E5M2FNUZFormat, 7.62939453125e-06, 0x01, false},
      {kF8E5M2FNUZFormat, 65536, 0x80, true},
      {kF8E5M2FNUZFormat, -INFINITY, 0x80, true},
      {kF8E5M2FNUZFormat, NAN, 0x80, false},
      {kF8E4M3FNUZFormat, 7, 0x56, false},
      {kF8E4M3FNUZFormat, 240, 0x7f, false},
      {kF8E4M3FNUZFormat, 248, 0x80, true},
      {kF8E8M0FNUFormat, 1, 0x7f, false},
      {kF8E8M0FNUFormat, 1.5, 0x80, false},  // the midpoint rounds up
      {kF8E8M0FNUFormat, 2.5, 0x80, false},
      {kF8E8M0FNUFormat, 3, 0x81, false},
      {kF8E8M0FNUFormat, 0.75, 0x7f, false},
      {kF8E8M0FNUFormat, 1e30, 0xe3, false},
      {kF8E8M0FNUFormat, 1e-30, 0x1b, false},
      {kF8E8M0FNUFormat, std::ldexp(1.0, 127), 0xfe, false},
      {kF8E8M0FNUFormat, std::ldexp(1.5, 127), 0xff, true},
      {kF8E8M0FNUFormat, 3e-39, 0x00, false},  // nearest: 2^-127
      {kF8E8M0FNUFormat, 0.0, 0x00, true},
      {kF8E8M0FNUFormat, -6.5, 0xff, true},  // APFloat: 0x82
      {kF8E8M0FNUFormat, INFINITY, 0xff, true},
      {kF8E8M0FNUFormat, NAN, 0xff, false},
      {kF4E2M1FNFormat, 0.25, 0x0, false},  // tie to even 0
      {kF4E2M1FNFormat, 0.75, 0x2, false},
      {kF4E2M1FNFormat, 2.5, 0x4, false},
      {kF4E2M1FNFormat, 5, 0x6, false},
      {kF4E2M1FNFormat, 6.5, 0x7, false},
      {kF4E2M1FNFormat, 7, 0x7, true},  // saturates
      {kF4E2M1FNFormat, -1e30, 0xf, true},
      {kF4E2M1FNFormat, -INFINITY, 0xf, true},  // APFloat: -0
      {kF4E2M1FNFormat, -0.0, 0x8, false},
      {kF4E2M1FNFormat, -NAN, 0x8, true},
  };
  for (const Case& c : cases) {
    bool out_of_range = !c.out_of_range;
    EXPECT_EQ(c.format.FromDouble(c.value, &out_of_range), c.bits) << c.value;
    EXPECT_EQ(out_of_range, c.out_of_range) << c.value;
  }
}

TEST(FloatConvertTest, Fp8AndFp4Values) {
  EXPECT_EQ(kF8E5M2Format.ToDouble(0x08), std::ldexp(1.0, -13));
  EXPECT_EQ(kF8E5M2Format.ToDouble(0x7c), INFINITY);
  EXPECT_TRUE(std::isnan(kF8E5M2Format.ToDouble(0x7d)));
  EXPECT_TRUE(std::signbit(kF8E5M2Format.ToDouble(0x80)));
  EXPECT_EQ(kF8E4M3FNFormat.ToDouble(0x7e), 448);
  EXPECT_TRUE(std::isnan(kF8E4M3FNFormat.ToDouble(0xff)));
  EXPECT_EQ(kF8E5M2FNUZFormat.ToDouble(0x7f), 57344);
  EXPECT_EQ(kF8E5M2FNUZFormat.ToDouble(0x01), std::ldexp(1.0, -17));
  EXPECT_TRUE(std::isnan(kF8E5M2FNUZFormat.ToDouble(0x80)));
  EXPECT_EQ(kF8E4M3FNUZFormat.ToDouble(0xff), -240);
  EXPECT_EQ(kF8E8M0FNUFormat.ToDouble(0x00), std::ldexp(1.0, -127));
  EXPECT_EQ(kF8E8M0FNUFormat.ToDouble(0x7f), 1);
  EXPECT_TRUE(std::isnan(kF8E8M0FNUFormat.ToDouble(0xff)));  // APFloat: inf
  EXPECT_EQ(kF4E2M1FNFormat.ToDouble(0x1), 0.5);
  EXPECT_EQ(kF4E2M1FNFormat.ToDouble(0xf), -6);
  // Every other encoding survives the round trip through double.
  for (ElementType type : {ElementType::kF8E5M2, ElementType::kF8E4M3FN,
                           ElementType::kF8E5M2FNUZ, ElementType::kF8E4M3FNUZ,
                           ElementType::kF8E8M0FNU, ElementType::kF4E2M1FN}) {
    const FloatFormat& format = *NarrowFloatFormat(type);
    for (uint32_t bits = 0; bits < (1u << format.bit_width()); ++bits) {
      const double value = format.ToDouble(bits);
      if (std::isnan(value)) continue;
      ASSERT_EQ(format.FromDouble(value), bits)
          << ElementTypeName(type) << " " << bits;
    }
  }
  EXPECT_EQ(NarrowFloatFormat(ElementType::kBF16), &kBF16Format);
  EXPECT_EQ(NarrowFloatFormat(ElementType::kI8), nullptr);
}

}  // namespace
}  // namespace kiln
