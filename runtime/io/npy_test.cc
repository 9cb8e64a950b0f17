//===- npy_test.cc - .npy reading and writing tests -----------------------===//

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "gtest/gtest.h"
#include "kiln/tensor_io.h"

namespace kiln {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return StrCat(dir ? dir : "/tmp", "/kiln_npy_test_", getpid(), "_", name);
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), bytes.size());
}

// A .npy image with a hand-written header (padded like numpy does).
std::string MakeNpy(const std::string& dict, const std::string& data,
                    int major = 1) {
  std::string header = dict;
  const size_t preamble = major == 1 ? 10 : 12;
  while ((preamble + header.size() + 1) % 64) header.push_back(' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  const size_t n = header.size();
  out.push_back(static_cast<char>(n & 0xff));
  out.push_back(static_cast<char>((n >> 8) & 0xff));
  if (major != 1) {
    out.push_back(static_cast<char>((n >> 16) & 0xff));
    out.push_back(static_cast<char>((n >> 24) & 0xff));
  }
  return out + header + data;
}

std::string Bytes(const void* data, size_t size) {
  return std::string(static_cast<const char*>(data), size);
}

TEST(NpyTest, RoundTripEveryDtype) {
  const char* inputs[] = {
      "2x3xf32=1.5,-2,3,4e-40,inf,-0",
      "3xf64=0.1,-1e300,5e-324",
      "2x2xf16=0.1,-65504,6e-8,1",
      "5xi1=1,0,1,1,0",
      "3xi8=-128,0,127",
      "2xi16=-32768,32767",
      "2x1x2xi32=-2147483648,2147483647,0,7",
      "i64=-9223372036854775808",
      "0x4xf32",
  };
  for (const char* input : inputs) {
    SCOPED_TRACE(input);
    StatusOr<Tensor> tensor = ParseTensor(input);
    ASSERT_TRUE(tensor.ok()) << tensor.status().ToString();
    const std::string path = TempPath("roundtrip.npy");
    Status written = WriteNpyFile(path, *tensor);
    ASSERT_TRUE(written.ok()) << written.ToString();
    StatusOr<Tensor> read = ReadNpyFile(path);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(read->type(), tensor->type());
    ASSERT_EQ(read->byte_size(), tensor->byte_size());
    EXPECT_EQ(std::memcmp(read->data(), tensor->data(), tensor->byte_size()),
              0);
    // Also via ParseTensor's @path syntax, and from memory.
    StatusOr<Tensor> via_flag = ParseTensor("@" + path);
    ASSERT_TRUE(via_flag.ok()) << via_flag.status().ToString();
    EXPECT_EQ(via_flag->type(), tensor->type());
    StatusOr<std::string> image = EncodeNpy(*tensor);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image->size() % 64, tensor->byte_size() % 64);  // aligned data
    StatusOr<Tensor> decoded = ParseNpy(image->data(), image->size());
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(std::memcmp(decoded->data(), tensor->data(), tensor->byte_size()),
              0);
    std::remove(path.c_str());
  }
}

TEST(NpyTest, WritesNumpyCompatibleHeader) {
  StatusOr<Tensor> tensor = ParseTensor("2x3xf32=1,2,3,4,5,6");
  ASSERT_TRUE(tensor.ok());
  StatusOr<std::string> image = EncodeNpy(*tensor);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(image->substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t header_size = static_cast<uint8_t>((*image)[8]) |
                             (static_cast<uint8_t>((*image)[9]) << 8);
  EXPECT_EQ((10 + header_size) % 64, 0u);
  const std::string header = image->substr(10, header_size);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, 3), }",
                         0),
            0u)
      << header;
  EXPECT_EQ(header.back(), '\n');

  StatusOr<Tensor> vector = ParseTensor("3xi8=1,2,3");
  ASSERT_TRUE(vector.ok());
  EXPECT_NE(EncodeNpy(*vector)->find("'shape': (3,)"), std::string::npos);
  StatusOr<Tensor> scalar = ParseTensor("i64=1");
  ASSERT_TRUE(scalar.ok());
  EXPECT_NE(EncodeNpy(*scalar)->find("'shape': ()"), std::string::npos);
}

TEST(NpyTest, ReadsVersions2And3AndDoubleQuotes) {
  const int32_t values[] = {1, -2, 3};
  for (int major : {2, 3}) {
    std::string image = MakeNpy(
        "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (3,)}",
        Bytes(values, sizeof(values)), major);
    StatusOr<Tensor> tensor = ParseNpy(image.data(), image.size());
    ASSERT_TRUE(tensor.ok()) << tensor.status().ToString();
    EXPECT_EQ(tensor->type().ToString(), "3xi32");
    EXPECT_EQ(tensor->data_as<int32_t>()[1], -2);
  }
}

TEST(NpyTest, RefusesBf16) {
  StatusOr<Tensor> tensor = ParseTensor("2xbf16=1,2");
  ASSERT_TRUE(tensor.ok());
  StatusOr<std::string> image = EncodeNpy(*tensor);
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().message(),
            "cannot write bf16 to .npy: NumPy has no such dtype");
}

std::string NpyError(const std::string& image) {
  StatusOr<Tensor> tensor = ParseNpy(image.data(), image.size());
  EXPECT_FALSE(tensor.ok());
  return tensor.ok() ? "" : tensor.status().message();
}

TEST(NpyTest, WritesBf16AsItsBitsWhenAsked) {
  StatusOr<Tensor> tensor = ParseTensor("2xbf16=1,-2");
  ASSERT_TRUE(tensor.ok());
  NpyEncodeOptions options;
  options.bits_for_missing_dtypes = true;
  StatusOr<std::string> image = EncodeNpy(*tensor, options);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_NE(image->find("{'descr': '<u2', 'fortran_order': False, "
                        "'shape': (2,), }"),
            std::string::npos);
  // The bits of 1 and -2 in bf16, little-endian.
  EXPECT_EQ(image->substr(image->size() - 4),
            std::string("\x80\x3f\x00\xc0", 4));
  // Read back as bf16 where bf16 is expected, refused otherwise.
  NpyReadOptions as_bf16;
  as_bf16.bits_of = ElementType::kBF16;
  StatusOr<Tensor> read = ParseNpy(image->data(), image->size(), as_bf16);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->type(), tensor->type());
  EXPECT_EQ(std::memcmp(read->data(), tensor->data(), 4), 0);
  EXPECT_EQ(NpyError(*image),
            "dtype '<u2' holds the bits of a type NumPy lacks (bf16), read "
            "only where one is expected");
  NpyReadOptions as_f16;
  as_f16.bits_of = ElementType::kF16;
  StatusOr<Tensor> not_f16 = ParseNpy(image->data(), image->size(), as_f16);
  ASSERT_FALSE(not_f16.ok());
  EXPECT_EQ(not_f16.status().message(),
            "dtype '<u2' holds the bits of a type NumPy lacks (bf16), read "
            "only where one is expected, not f16");
}

TEST(NpyTest, UnsignedIntegersReadAsTheIntegersOfTheirWidth) {
  // 255 and 1 as uint8: where i8 is expected, the same bytes.
  const std::string bytes("\xff\x01", 2);
  const std::string u8 = MakeNpy(
      "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", bytes);
  NpyReadOptions as_i8;
  as_i8.bits_of = ElementType::kI8;
  StatusOr<Tensor> read = ParseNpy(u8.data(), u8.size(), as_i8);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->type().element_type, ElementType::kI8);
  EXPECT_EQ(std::memcmp(read->data(), bytes.data(), 2), 0);
  // A wider integer is not read from one byte.
  NpyReadOptions as_i16;
  as_i16.bits_of = ElementType::kI16;
  EXPECT_FALSE(ParseNpy(u8.data(), u8.size(), as_i16).ok());
  // uint32 and uint64 need no expected type.
  const std::string u32 =
      MakeNpy("{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }",
              std::string("\xff\xff\xff\xff", 4));
  StatusOr<Tensor> wide = ParseNpy(u32.data(), u32.size(), NpyReadOptions());
  ASSERT_TRUE(wide.ok()) << wide.status().ToString();
  EXPECT_EQ(wide->type().element_type, ElementType::kI32);
}

TEST(NpyTest, SmallFloatsTravelAsBytesOfBits) {
  StatusOr<Tensor> tensor = ParseTensor("2x2xf8E4M3FN=1,-2,0.1,nan");
  ASSERT_TRUE(tensor.ok());
  StatusOr<std::string> refused = EncodeNpy(*tensor);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "cannot write f8E4M3FN to .npy: NumPy has no such dtype");
  NpyEncodeOptions options;
  options.bits_for_missing_dtypes = true;
  StatusOr<std::string> image = EncodeNpy(*tensor, options);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_NE(image->find("{'descr': '|u1', 'fortran_order': False, "
                        "'shape': (2, 2), }"),
            std::string::npos);
  EXPECT_EQ(image->substr(image->size() - 4), "\x38\xC0\x1D\x7F");
  EXPECT_EQ(NpyBitsView(ElementType::kF8E4M3FN),
            "np.load(f).view(ml_dtypes.float8_e4m3fn)");
  EXPECT_EQ(NpyBitsView(ElementType::kF32), "");

  NpyReadOptions as_f8;
  as_f8.bits_of = ElementType::kF8E4M3FN;
  StatusOr<Tensor> read = ParseNpy(image->data(), image->size(), as_f8);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->type(), tensor->type());
  EXPECT_EQ(std::memcmp(read->data(), tensor->data(), 4), 0);
  // ml_dtypes saves these types with a void dtype: the same bytes.
  const std::string from_ml_dtypes =
      MakeNpy("{'descr': '|V1', 'fortran_order': False, 'shape': (2, 2), }",
              "\x38\xC0\x1D\x7F");
  read = ParseNpy(from_ml_dtypes.data(), from_ml_dtypes.size(), as_f8);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(std::memcmp(read->data(), tensor->data(), 4), 0);
  EXPECT_EQ(NpyError(from_ml_dtypes),
            "dtype '|V1' holds the bits of a type NumPy lacks (f8E5M2, "
            "f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN), read "
            "only where one is expected");
  // Where i8 is expected, '|u1' is uint8 data: its bytes, as i8.
  NpyReadOptions as_i8;
  as_i8.bits_of = ElementType::kI8;
  StatusOr<Tensor> as_bytes = ParseNpy(image->data(), image->size(), as_i8);
  ASSERT_TRUE(as_bytes.ok()) << as_bytes.status().ToString();
  EXPECT_EQ(as_bytes->type().element_type, ElementType::kI8);
  // Void bytes are never integers.
  EXPECT_FALSE(
      ParseNpy(from_ml_dtypes.data(), from_ml_dtypes.size(), as_i8).ok());
  // f4E2M1FN keeps its four bits in the low half of each byte.
  NpyReadOptions as_f4;
  as_f4.bits_of = ElementType::kF4E2M1FN;
  const std::string f4 =
      MakeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
              "\x01\x0F\x1F");
  StatusOr<Tensor> bad_f4 = ParseNpy(f4.data(), f4.size(), as_f4);
  ASSERT_FALSE(bad_f4.ok());
  EXPECT_EQ(
      bad_f4.status().message(),
      "f4E2M1FN element 2 has value 31 (expected 0 to 15, its four bits)");
}

TEST(NpyTest, HeaderErrors) {
  const std::string four_floats(16, '\0');
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '<f4', 'fortran_order': True, "
                             "'shape': (2, 2), }",
                             four_floats)),
            "fortran_order arrays are not supported (save C-ordered data, "
            "e.g. np.ascontiguousarray)");
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '|u1', 'fortran_order': False, "
                             "'shape': (4,), }",
                             std::string(4, '\0'))),
            "dtype '|u1' holds the bits of a type NumPy lacks (f8E5M2, "
            "f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN), read "
            "only where one is expected");
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '>f4', 'fortran_order': False, "
                             "'shape': (4,), }",
                             four_floats)),
            "unsupported dtype '>f4' (supported: <f4 <f8 <f2 |b1 |i1 <i2 "
            "<i4 <i8, unsigned integers |u1 <u2 <u4 <u8 as the integers of "
            "their width, and for bf16, fp8 and f4E2M1FN the bits: <u2 |u1 "
            "|V2 |V1)");
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '<f4', 'shape': (4,), }", four_floats)),
            "bad .npy header: missing 'fortran_order'");
  EXPECT_NE(NpyError(MakeNpy("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (-4,), }",
                             four_floats))
                .find("expected a dimension"),
            std::string::npos);
  EXPECT_NE(NpyError(MakeNpy("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (99999999999999999999,), }",
                             four_floats))
                .find("dimension too large"),
            std::string::npos);
  EXPECT_NE(NpyError(MakeNpy("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (1099511627776, 4), }",
                             four_floats))
                .find("bad .npy shape"),
            std::string::npos);
  EXPECT_NE(NpyError(MakeNpy("{'descr': [('a', '<f4')], 'fortran_order': "
                             "False, 'shape': (4,), }",
                             four_floats))
                .find("structured"),
            std::string::npos);
  EXPECT_EQ(NpyError("not numpy at all"), "not a .npy file (bad magic)");
  std::string bad_version = MakeNpy("{}", "");
  bad_version[6] = 4;
  EXPECT_EQ(NpyError(bad_version), "unsupported .npy version 4.0");
}

TEST(NpyTest, DataErrors) {
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  EXPECT_EQ(NpyError(MakeNpy(dict, std::string(15, '\0'))),
            "truncated .npy data: 2x2xf32 needs 16 bytes, file has 15");
  EXPECT_EQ(NpyError(MakeNpy(dict, std::string(20, '\0'))),
            ".npy file has 4 bytes after the array data (files holding several "
            "arrays are not supported)");
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '|b1', 'fortran_order': False, "
                             "'shape': (2,), }",
                             std::string("\x01\x02", 2))),
            "bool element 1 has value 2 (expected 0 or 1)");
  // A header may declare any shape: it is checked against the bytes present
  // before anything is allocated (this one would need 8 GB).
  EXPECT_EQ(NpyError(MakeNpy("{'descr': '<f8', 'fortran_order': False, "
                             "'shape': (1000, 1000000), }",
                             std::string(8, '\0'))),
            "truncated .npy data: 1000x1000000xf64 needs 8000000000 "
            "bytes, file has 8");
}

TEST(NpyTest, EveryTruncationAndCorruptionFailsCleanly) {
  StatusOr<Tensor> tensor = ParseTensor("3x5xf32=1");
  ASSERT_TRUE(tensor.ok());
  StatusOr<std::string> image = EncodeNpy(*tensor);
  ASSERT_TRUE(image.ok());
  for (size_t size = 0; size < image->size(); ++size) {
    // A copy of exactly `size` bytes so ASan-like tools would catch over-reads.
    std::unique_ptr<char[]> prefix(new char[size + 1]);
    std::memcpy(prefix.get(), image->data(), size);
    EXPECT_FALSE(ParseNpy(prefix.get(), size).ok()) << size;
  }
  std::mt19937 rng(1234);
  const size_t header_end = image->size() - tensor->byte_size();
  for (int trial = 0; trial < 20000; ++trial) {
    std::string corrupted = *image;
    const size_t at = rng() % header_end;
    corrupted[at] = static_cast<char>(rng());
    StatusOr<Tensor> result = ParseNpy(corrupted.data(), corrupted.size());
    if (result.ok()) {
      // Whatever was accepted must be self-consistent.
      EXPECT_LE(result->byte_size(), corrupted.size());
    }
  }
}

TEST(NpyTest, FileErrors) {
  StatusOr<Tensor> missing = ReadNpyFile("/nonexistent/dir/x.npy");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "cannot open '/nonexistent/dir/x.npy': No such file or directory");

  StatusOr<Tensor> directory = ReadNpyFile("/");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().message(), "'/' is not a regular file");

  const std::string path = TempPath("truncated.npy");
  WriteFile(path, MakeNpy("{'descr': '<f8', 'fortran_order': False, "
                          "'shape': (4,), }",
                          std::string(31, '\0')));
  StatusOr<Tensor> truncated = ReadNpyFile(path);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(
      truncated.status().message(),
      "'" + path + "': truncated .npy data: 4xf64 needs 32 bytes, file has 31");
  std::remove(path.c_str());

  StatusOr<Tensor> tensor = ParseTensor("2xf32=1,2");
  ASSERT_TRUE(tensor.ok());
  Status unwritable = WriteNpyFile("/nonexistent/dir/y.npy", *tensor);
  EXPECT_EQ(unwritable.message(),
            "cannot write '/nonexistent/dir/y.npy': No such file or directory");
}

TEST(NpyTest, LargeFileStreamsData) {
  // Bigger than the header read-ahead, so part of the data is read directly.
  StatusOr<Tensor> tensor = Tensor::Allocate(ElementType::kI32, {300000});
  ASSERT_TRUE(tensor.ok());
  for (int i = 0; i < 300000; ++i)
    tensor->mutable_data_as<int32_t>()[i] = i * 7;
  const std::string path = TempPath("large.npy");
  ASSERT_TRUE(WriteNpyFile(path, *tensor).ok());
  StatusOr<Tensor> read = ReadNpyFile(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(std::memcmp(read->data(), tensor->data(), tensor->byte_size()), 0);
  std::remove(path.c_str());
}

// A value's type is read without its values: the text's own type, a .npy
// file's header (checked against the file's size, as when reading it).
TEST(NpyTest, ValueTypesComeWithoutTheirValues) {
  StatusOr<TensorType> text = ParseTensorValueType(" 200000000000xf32=1 ");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(text->ToString(), "200000000000xf32");
  StatusOr<TensorType> zeros = ParseTensorValueType("2xi8");
  ASSERT_TRUE(zeros.ok());
  EXPECT_EQ(zeros->ToString(), "2xi8");
  EXPECT_FALSE(ParseTensorValueType("").ok());
  EXPECT_FALSE(ParseTensorValueType("2xq9=1").ok());

  StatusOr<Tensor> tensor = ParseTensor("2x3xi16=1,2,3,4,5,6");
  ASSERT_TRUE(tensor.ok());
  const std::string path = TempPath("type.npy");
  ASSERT_TRUE(WriteNpyFile(path, *tensor).ok());
  StatusOr<TensorType> file = ParseTensorValueType("@" + path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->ToString(), "2x3xi16");

  WriteFile(path, MakeNpy("{'descr': '<f8', 'fortran_order': False, "
                          "'shape': (100000000000,), }",
                          std::string(8, '\0')));
  StatusOr<TensorType> short_file = ReadNpyFileType(path);
  ASSERT_FALSE(short_file.ok());
  EXPECT_NE(short_file.status().message().find("truncated .npy data"),
            std::string::npos)
      << short_file.status().message();
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kiln
