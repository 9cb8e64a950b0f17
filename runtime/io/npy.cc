//===- npy.cc - NumPy .npy reading and writing ----------------------------===//
//
// Format: "\x93NUMPY", major, minor, header length (uint16 LE for 1.0, uint32
// LE for 2.0/3.0), then an ASCII (3.0: UTF-8) Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces and ended by '\n', then the raw data. Everything read from the file
// is untrusted: every offset is bounds-checked before use.
//
//===----------------------------------------------------------------------===//

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "kiln/file_descriptor.h"
#include "kiln/output_files.h"
#include "kiln/tensor_io.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              ".npy I/O assumes a little-endian host");

namespace kiln {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// Longest header accepted; numpy writes well under 1 KiB for any sane rank.
constexpr size_t kMaxHeaderSize = 1 << 20;

struct DtypeInfo {
  std::string_view descr;
  ElementType type;
};
// The descr numpy writes for each supported type ('|' for one-byte types).
constexpr DtypeInfo kDtypes[] = {
    {"<f4", ElementType::kF32}, {"<f8", ElementType::kF64},
    {"<f2", ElementType::kF16}, {"|b1", ElementType::kI1},
    {"|i1", ElementType::kI8},  {"<i2", ElementType::kI16},
    {"<i4", ElementType::kI32}, {"<i8", ElementType::kI64},
};

// The types NumPy lacks: the unsigned integers that hold their bits, and
// their names in ml_dtypes.
struct BitsDtypeInfo {
  ElementType type;
  std::string_view descr;
  std::string_view ml_dtypes_name;
};
constexpr BitsDtypeInfo kBitsDtypes[] = {
    {ElementType::kBF16, "<u2", "bfloat16"},
    {ElementType::kF8E5M2, "|u1", "float8_e5m2"},
    {ElementType::kF8E4M3FN, "|u1", "float8_e4m3fn"},
    {ElementType::kF8E5M2FNUZ, "|u1", "float8_e5m2fnuz"},
    {ElementType::kF8E4M3FNUZ, "|u1", "float8_e4m3fnuz"},
    {ElementType::kF8E8M0FNU, "|u1", "float8_e8m0fnu"},
    {ElementType::kF4E2M1FN, "|u1", "float4_e2m1fn"},
};

const BitsDtypeInfo* FindBitsDtype(ElementType type) {
  for (const BitsDtypeInfo& info : kBitsDtypes) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

struct NpyHeader {
  ElementType type = ElementType::kF32;
  Shape shape;
  size_t data_offset = 0;  // from the start of the file
  // The element size of a file of bits (unsigned or void elements of one or
  // two bytes), whose type the reader names; 0 for every other file.
  size_t bits_size = 0;
  std::string descr;  // as written, for errors
};

// A minimal parser for the Python dict literal of a .npy header.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Status Parse(NpyHeader* header) {
    bool have_descr = false, have_order = false, have_shape = false;
    SkipSpace();
    if (!Consume('{')) return Error("expected '{'");
    for (;;) {
      SkipSpace();
      if (Consume('}')) break;
      std::string_view key;
      KILN_RETURN_IF_ERROR(ParseString(&key));
      SkipSpace();
      if (!Consume(':')) return Error("expected ':' after key");
      SkipSpace();
      if (key == "descr") {
        if (Peek() == '[') {
          return UnimplementedError(
              "unsupported dtype (structured arrays "
              "are not supported)");
        }
        std::string_view descr;
        KILN_RETURN_IF_ERROR(ParseString(&descr));
        header->descr = std::string(descr);
        header->bits_size = BitsSize(descr);
        if (header->bits_size == 0) {
          KILN_RETURN_IF_ERROR(LookupDtype(descr, &header->type));
        }
        have_descr = true;
      } else if (key == "fortran_order") {
        bool fortran_order = false;
        KILN_RETURN_IF_ERROR(ParseBool(&fortran_order));
        if (fortran_order) {
          return UnimplementedError(
              "fortran_order arrays are not supported (save C-ordered data, "
              "e.g. np.ascontiguousarray)");
        }
        have_order = true;
      } else if (key == "shape") {
        KILN_RETURN_IF_ERROR(ParseShape(&header->shape));
        have_shape = true;
      } else {
        return Error(StrCat("unexpected key '", key, "'"));
      }
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (Consume('}')) break;
      return Error("expected ',' or '}'");
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after '}'");
    for (auto [present, key] : {std::pair{have_descr, "descr"},
                                std::pair{have_order, "fortran_order"},
                                std::pair{have_shape, "shape"}}) {
      if (!present) {
        return InvalidArgumentError("bad .npy header: missing '", key, "'");
      }
    }
    return OkStatus();
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(char c) {
    if (Peek() != c || pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }
  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  Status Error(std::string_view what) const {
    return InvalidArgumentError("bad .npy header: ", what, " at offset ", pos_);
  }

  Status ParseString(std::string_view* out) {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected a string");
    ++pos_;
    const size_t begin = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) ++pos_;
    if (pos_ >= text_.size()) return Error("unterminated string");
    *out = text_.substr(begin, pos_ - begin);
    ++pos_;
    return OkStatus();
  }

  Status ParseBool(bool* out) {
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      *out = true;
    } else if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      *out = false;
    } else {
      return Error("expected True or False");
    }
    return OkStatus();
  }

  Status ParseShape(Shape* shape) {
    shape->clear();
    if (!Consume('(')) return Error("expected '(' to start the shape");
    for (;;) {
      SkipSpace();
      if (Consume(')')) return OkStatus();
      if (shape->size() >= kMaxTensorRank) return Error("too many dimensions");
      int64_t dim = 0;
      const size_t begin = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        if (__builtin_mul_overflow(dim, 10, &dim) ||
            __builtin_add_overflow(dim, text_[pos_] - '0', &dim)) {
          return Error("dimension too large");
        }
        ++pos_;
      }
      if (pos_ == begin) return Error("expected a dimension");
      if (Peek() == 'L') ++pos_;  // Python 2 long suffix
      shape->push_back(dim);
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (Consume(')')) return OkStatus();
      return Error("expected ',' or ')' in the shape");
    }
  }

  // 1 or 2 for unsigned or void elements of that many bytes ('|u1', '<u2',
  // '|V1', '|V2', any byte order a one-byte or little-endian file may
  // name), else 0.
  static size_t BitsSize(std::string_view descr) {
    if (descr.size() != 3 || (descr[1] != 'u' && descr[1] != 'V')) return 0;
    const bool little = descr[0] == '<' || descr[0] == '=';
    if (descr[2] == '1' && (little || descr[0] == '|')) return 1;
    if (descr[2] == '2' && (little || (descr[1] == 'V' && descr[0] == '|'))) {
      return 2;
    }
    return 0;
  }

  static Status LookupDtype(std::string_view descr, ElementType* type) {
    for (const DtypeInfo& info : kDtypes) {
      if (info.descr == descr) {
        *type = info.type;
        return OkStatus();
      }
    }
    // Single-byte types have no byte order; numpy may write '<' or '=' too.
    if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '=') &&
        (descr.substr(1) == "b1" || descr.substr(1) == "i1")) {
      *type = descr[1] == 'b' ? ElementType::kI1 : ElementType::kI8;
      return OkStatus();
    }
    // Wide unsigned integers: the signless integers of their width.
    if (descr == "<u4" || descr == "<u8") {
      *type = descr[2] == '4' ? ElementType::kI32 : ElementType::kI64;
      return OkStatus();
    }
    return UnimplementedError(
        "unsupported dtype '", descr,
        "' (supported: <f4 <f8 <f2 |b1 |i1 <i2 <i4 <i8, unsigned integers "
        "|u1 <u2 <u4 <u8 as the integers of their width, and for bf16, fp8 "
        "and f4E2M1FN the bits: <u2 |u1 |V2 |V1)");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// The type of a file of bits: the one `options` names, if NumPy lacks it
// and it is as wide as the file's elements.
Status ResolveBitsType(const NpyReadOptions& options, NpyHeader* header) {
  if (header->bits_size == 0) return OkStatus();
  if (options.bits_of && FindBitsDtype(*options.bits_of) &&
      ElementTypeByteSize(*options.bits_of) == header->bits_size) {
    header->type = *options.bits_of;
    return OkStatus();
  }
  // Unsigned integers where an integer of their width is expected: the
  // same bits (an imported model computes on them as unsigned).
  if (header->descr[1] == 'u' && options.bits_of &&
      (*options.bits_of == ElementType::kI8 ||
       *options.bits_of == ElementType::kI16) &&
      ElementTypeByteSize(*options.bits_of) == header->bits_size) {
    header->type = *options.bits_of;
    return OkStatus();
  }
  return InvalidArgumentError(
      "dtype '", header->descr, "' holds the bits of a type NumPy lacks (",
      header->bits_size == 1 ? "f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, "
                               "f8E8M0FNU, f4E2M1FN"
                             : "bf16",
      "), read only where one is expected",
      options.bits_of ? StrCat(", not ", ElementTypeName(*options.bits_of))
                      : std::string());
}

// Parses the preamble and header found in the first `size` bytes of a file.
Status ParseNpyHeader(const uint8_t* data, size_t size,
                      const NpyReadOptions& options, NpyHeader* header) {
  if (size < kMagicSize + 2 || std::memcmp(data, kMagic, kMagicSize) != 0) {
    return InvalidArgumentError("not a .npy file (bad magic)");
  }
  const uint8_t major = data[6], minor = data[7];
  size_t length_size;
  if (major == 1 && minor == 0) {
    length_size = 2;
  } else if ((major == 2 || major == 3) && minor == 0) {
    length_size = 4;
  } else {
    return UnimplementedError("unsupported .npy version ", int(major), ".",
                              int(minor));
  }
  const size_t preamble = kMagicSize + 2 + length_size;
  if (size < preamble) return DataLossError("truncated .npy header");
  size_t header_size = 0;
  for (size_t i = 0; i < length_size; ++i) {
    header_size |= size_t{data[8 + i]} << (8 * i);
  }
  if (header_size > kMaxHeaderSize) {
    return InvalidArgumentError(".npy header length ", header_size,
                                " is implausibly large");
  }
  if (size - preamble < header_size) {
    return DataLossError("truncated .npy header (", header_size,
                         " bytes announced, ", size - preamble, " present)");
  }
  std::string_view text(reinterpret_cast<const char*>(data + preamble),
                        header_size);
  KILN_RETURN_IF_ERROR(HeaderParser(text).Parse(header));
  KILN_RETURN_IF_ERROR(ResolveBitsType(options, header));
  KILN_RETURN_IF_ERROR(
      ComputeTensorSize(header->type, header->shape, nullptr, nullptr),
      "bad .npy shape");
  header->data_offset = preamble + header_size;
  return OkStatus();
}

// Checks that every i1 element is 0 or 1 and every f4E2M1FN element at
// most 0xF (what the runtime's kernels assume of their bytes).
Status CheckElementBits(const Tensor& tensor) {
  const ElementType type = tensor.element_type();
  if (type != ElementType::kI1 && type != ElementType::kF4E2M1FN) {
    return OkStatus();
  }
  const uint8_t max = type == ElementType::kI1 ? 1 : 0xF;
  const auto* p = tensor.data_as<uint8_t>();
  for (int64_t i = 0; i < tensor.element_count(); ++i) {
    if (p[i] > max) {
      return InvalidArgumentError(
          type == ElementType::kI1 ? "bool" : "f4E2M1FN", " element ", i,
          " has value ", int(p[i]),
          type == ElementType::kI1 ? " (expected 0 or 1)"
                                   : " (expected 0 to 15, its four bits)");
    }
  }
  return OkStatus();
}

// Checks the declared type against the bytes the file holds, before anything
// is allocated: a header may declare any shape.
Status CheckDataSize(const NpyHeader& header, uint64_t available) {
  uint64_t byte_size = 0;
  KILN_RETURN_IF_ERROR(
      ComputeTensorSize(header.type, header.shape, nullptr, &byte_size));
  if (available < byte_size) {
    return DataLossError(
        "truncated .npy data: ", FormatTensorType(header.type, header.shape),
        " needs ", byte_size, " bytes, file has ", available);
  }
  if (available > byte_size) {
    return InvalidArgumentError(
        ".npy file has ", available - byte_size,
        " bytes after the array data (files holding several arrays are not "
        "supported)");
  }
  return OkStatus();
}

// read() until `size` bytes are read or the file ends.
Status ReadFully(int fd, void* dest, size_t size, size_t* out_read) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::read(fd, static_cast<uint8_t*>(dest) + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "read failed");
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  *out_read = done;
  return OkStatus();
}

}  // namespace

StatusOr<Tensor> ParseNpy(const void* data, size_t size,
                          const NpyReadOptions& options) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  NpyHeader header;
  KILN_RETURN_IF_ERROR(ParseNpyHeader(bytes, size, options, &header));
  KILN_RETURN_IF_ERROR(CheckDataSize(header, size - header.data_offset));
  KILN_ASSIGN_OR_RETURN(Tensor tensor,
                        Tensor::Allocate(header.type, std::move(header.shape)));
  std::memcpy(tensor.mutable_data(), bytes + header.data_offset,
              tensor.byte_size());
  KILN_RETURN_IF_ERROR(CheckElementBits(tensor));
  return tensor;
}

/// An open .npy file whose preamble and header have been read and checked
/// against its size.
struct OpenNpyFile {
  FileDescriptor fd;
  NpyHeader header;
  std::string prefix;  // the bytes read: preamble, header, maybe some data
  size_t prefix_read = 0;
};

Status OpenNpy(const std::string& path, const NpyReadOptions& options,
               OpenNpyFile* file) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
  // below as not a regular file); reads of a regular file never block.
  file->fd =
      FileDescriptor(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (file->fd.get() < 0) {
    return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  }
  struct stat st;
  if (::fstat(file->fd.get(), &st) != 0) {
    return ErrnoToStatus(errno, StrCat("cannot stat '", path, "'"));
  }
  if (!S_ISREG(st.st_mode)) {
    return InvalidArgumentError("'", path, "' is not a regular file");
  }
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  // The preamble and header, bounded by kMaxHeaderSize.
  file->prefix.assign(std::min<uint64_t>(file_size, 12 + kMaxHeaderSize), '\0');
  KILN_RETURN_IF_ERROR(ReadFully(file->fd.get(), file->prefix.data(),
                                 file->prefix.size(), &file->prefix_read),
                       "'", path, "'");
  KILN_RETURN_IF_ERROR(
      ParseNpyHeader(reinterpret_cast<const uint8_t*>(file->prefix.data()),
                     file->prefix_read, options, &file->header),
      "'", path, "'");
  KILN_RETURN_IF_ERROR(
      CheckDataSize(file->header, file_size - file->header.data_offset), "'",
      path, "'");
  return OkStatus();
}

StatusOr<TensorType> ReadNpyFileType(const std::string& path,
                                     const NpyReadOptions& options) {
  OpenNpyFile file;
  KILN_RETURN_IF_ERROR(OpenNpy(path, options, &file));
  return TensorType{file.header.type, std::move(file.header.shape)};
}

StatusOr<Tensor> ReadNpyFile(const std::string& path,
                             const NpyReadOptions& options) {
  OpenNpyFile file;
  KILN_RETURN_IF_ERROR(OpenNpy(path, options, &file));
  // The data goes straight into the tensor.
  NpyHeader& header = file.header;
  const std::string& prefix = file.prefix;
  const size_t prefix_read = file.prefix_read;
  const FileDescriptor& fd = file.fd;
  KILN_ASSIGN_OR_RETURN(Tensor tensor,
                        Tensor::Allocate(header.type, std::move(header.shape)));
  // Part of the data may already be in `prefix`.
  const size_t buffered = prefix_read - header.data_offset;
  const size_t from_prefix = std::min<uint64_t>(buffered, tensor.byte_size());
  auto* dest = tensor.mutable_data_as<uint8_t>();
  std::memcpy(dest, prefix.data() + header.data_offset, from_prefix);
  size_t rest_read = 0;
  KILN_RETURN_IF_ERROR(ReadFully(fd.get(), dest + from_prefix,
                                 tensor.byte_size() - from_prefix, &rest_read),
                       "'", path, "'");
  if (from_prefix + rest_read != tensor.byte_size()) {
    return DataLossError("'", path, "': file shrank while being read");
  }
  KILN_RETURN_IF_ERROR(CheckElementBits(tensor), "'", path, "'");
  return tensor;
}

StatusOr<std::string> EncodeNpy(const Tensor& tensor,
                                const NpyEncodeOptions& options) {
  if (tensor.empty())
    return InvalidArgumentError("cannot encode an empty tensor");
  std::string_view descr;
  for (const DtypeInfo& info : kDtypes) {
    if (info.type == tensor.element_type()) descr = info.descr;
  }
  const BitsDtypeInfo* bits = FindBitsDtype(tensor.element_type());
  if (options.bits_for_missing_dtypes && bits) descr = bits->descr;
  if (descr.empty()) {
    return UnimplementedError("cannot write ",
                              ElementTypeName(tensor.element_type()),
                              " to .npy: NumPy has no such dtype");
  }
  std::string dict =
      StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': (");
  for (size_t i = 0; i < tensor.rank(); ++i) {
    dict.append(StrCat(i ? " " : "", tensor.shape()[i], ","));
  }
  // A 1-tuple needs its trailing comma; longer ones look like numpy's.
  if (tensor.rank() > 1) dict.pop_back();
  dict.append("), }");
  // Pad with spaces so the data starts 64-byte aligned, ending in '\n'.
  const size_t preamble = kMagicSize + 2 + 2;
  size_t total = preamble + dict.size() + 1;
  total = (total + 63) & ~size_t{63};
  const size_t header_size = total - preamble;
  dict.append(header_size - dict.size() - 1, ' ');
  dict.push_back('\n');

  std::string out;
  out.reserve(total + tensor.byte_size());
  out.append(kMagic, kMagicSize);
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(header_size & 0xff));
  out.push_back(static_cast<char>(header_size >> 8));
  out.append(dict);
  out.append(tensor.data_as<char>(), tensor.byte_size());
  return out;
}

Status WriteNpyFile(const std::string& path, const Tensor& tensor,
                    const NpyEncodeOptions& options) {
  StatusOr<std::string> bytes = EncodeNpy(tensor, options);
  if (!bytes.ok()) {
    return std::move(bytes).status().Prepend(
        StrCat("cannot write '", path, "'"));
  }
  return WriteFileAtomically(path, *bytes);
}

std::string NpyBitsView(ElementType type) {
  const BitsDtypeInfo* bits = FindBitsDtype(type);
  if (!bits) return std::string();
  return StrCat("np.load(f).view(ml_dtypes.", bits->ml_dtypes_name, ")");
}

}  // namespace kiln
