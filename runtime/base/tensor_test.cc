//===- tensor_test.cc - Element types, sizes and tensor storage tests -----===//

#include "kiln/tensor.h"

#include <cstring>

#include "base/float_convert.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(ElementTypeTest, NamesAndSizes) {
  const char* names[] = {"f32", "f64", "f16", "bf16", "i1",
                         "i8",  "i16", "i32", "i64"};
  const size_t sizes[] = {4, 8, 2, 2, 1, 1, 2, 4, 8};
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
  EXPECT_FALSE(IsValidElementType(9));
}

TEST(TensorSizeTest, ComputesCountAndBytes) {
  int64_t count = 0;
  uint64_t bytes = 0;
  ASSERT_TRUE(ComputeTensorSize(ElementType::kF32, {2, 3}, &count, &bytes).ok());
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
  Status negative = ComputeTensorSize(ElementType::kF32, {2, -1}, nullptr, &bytes);
  EXPECT_EQ(negative.message(), "dimension 1 is negative (-1)");
  EXPECT_FALSE(ComputeTensorSize(static_cast<ElementType>(42), {1}, nullptr,
                                 &bytes)
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
    StatusOr<Tensor> second = Tensor::AllocateZeroed(ElementType::kF32, {count});
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
  EXPECT_EQ(F16Format::FromDouble(1.0), 0x3c00);
  EXPECT_EQ(F16Format::FromDouble(-2.0), 0xc000);
  EXPECT_EQ(F16Format::FromDouble(65504.0), 0x7bff);
  EXPECT_EQ(F16Format::FromDouble(65520.0), 0x7c00);  // rounds to inf
  EXPECT_EQ(F16Format::FromDouble(65519.0), 0x7bff);
  EXPECT_EQ(F16Format::FromDouble(std::ldexp(1.0, -24)), 0x0001);  // min subnormal
  EXPECT_EQ(F16Format::FromDouble(std::ldexp(1.0, -25)), 0x0000);  // tie to even
  EXPECT_EQ(F16Format::FromDouble(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(F16Format::FromDouble(1.0 + std::ldexp(1.0, -11)), 0x3c00);  // tie
  EXPECT_EQ(F16Format::FromDouble(1.0 + std::ldexp(3.0, -11)), 0x3c02);  // tie up
  EXPECT_EQ(F16Format::FromDouble(-0.0), 0x8000);
  EXPECT_EQ(F16Format::FromDouble(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(F16Format::ToDouble(F16Format::FromDouble(NAN))));
  // Every finite f16 survives the round trip through double.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff)) continue;  // NaN
    ASSERT_EQ(F16Format::FromDouble(F16Format::ToDouble(bits)), bits) << bits;
  }
}

TEST(FloatConvertTest, BF16Conversions) {
  EXPECT_EQ(BF16Format::FromDouble(1.0), 0x3f80);
  EXPECT_EQ(BF16Format::FromDouble(3.0e38), 0x7f62);
  EXPECT_EQ(BF16Format::FromDouble(1e39), 0x7f80);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7f80) == 0x7f80 && (bits & 0x7f)) continue;  // NaN
    ASSERT_EQ(BF16Format::FromDouble(BF16Format::ToDouble(bits)), bits) << bits;
  }
  // bf16 is the top half of an f32.
  float f = 1.5f;
  uint32_t f_bits;
  std::memcpy(&f_bits, &f, 4);
  EXPECT_EQ(BF16Format::FromDouble(1.5), f_bits >> 16);
}

}  // namespace
}  // namespace kiln
