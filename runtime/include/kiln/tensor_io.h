//===- tensor_io.h - Tensor text and .npy I/O ----------------------*- C++ -*-===//
//
// Tensors in the conventions of IREE's iree-run-module:
//   2x3xf32=1,2,3,4,5,6        flat values, commas or whitespace
//   2x2xf32=[[1,2],[3,4]]      nested brackets (structure is not checked)
//   2x2xf32=[1 2][3 4]         the printed form
//   2x3xf32=0                  splat: one value fills the tensor
//   2x3xf32  or  2x3xf32=      zero-filled
//   f32=3.5                    0-d
//   i1 values: 0, 1, true, false; floats: inf, -inf, nan
//   @path.npy                  a NumPy file
//
// Part of kiln_io, which the tools link; the deployed kiln_runtime takes
// and returns tensors, never text or files.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TENSOR_IO_H_
#define KILN_TENSOR_IO_H_

#include <optional>
#include <string>
#include <string_view>

#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

/// Parses a tensor type such as "2x3xf32" or "f32" (0-d).
Status ParseTensorType(std::string_view text, TensorType* out_type);

struct NpyReadOptions;

/// Parses a tensor value in the syntax above; "@path" reads a .npy file
/// (with `npy`).
StatusOr<Tensor> ParseTensor(std::string_view text);
StatusOr<Tensor> ParseTensor(std::string_view text, const NpyReadOptions& npy);

/// The type of a tensor value in the syntax above, read without its values
/// and without allocating them: the text's own type, or a .npy file's
/// header. What a caller checks before ParseTensor allocates the tensor.
StatusOr<TensorType> ParseTensorValueType(std::string_view text);
StatusOr<TensorType> ParseTensorValueType(std::string_view text,
                                          const NpyReadOptions& npy);

/// Formats a tensor as iree-run-module prints it, e.g. "2x2xf32=[1 2][3 4]"
/// ("4xf32=1 2 3 4", "f32=3.5"). Floats use the shortest text that parses
/// back to the same value, so ParseTensor(FormatTensor(t)) reproduces t
/// exactly (NaN payloads aside).
std::string FormatTensor(const Tensor& tensor);
/// Same, printing at most `max_elements` elements (in row-major order); when
/// some are left out the text ends with "..." there, e.g.
/// "100xi32=0 1 2..." or "4x4xf32=[1 2 3 4][5 6...". Such text does not
/// parse back.
std::string FormatTensor(const Tensor& tensor, int64_t max_elements);

/// Formats one element of `type` stored at `data`.
std::string FormatElement(ElementType type, const void* data);

//===----------------------------------------------------------------------===//
// NumPy .npy files (C order; dtypes <f4 <f8 <f2 |b1 |i1 <i2 <i4 <i8)
//
// NumPy has no bf16, fp8 or f4E2M1FN. Their tensors travel as the unsigned
// integers of their bits: '<u2' for bf16, '|u1' for the others (f4E2M1FN
// in the low four bits); numpy reads them with
// np.load(f).view(ml_dtypes.float8_e4m3fn) and so on. Files ml_dtypes
// writes for them hold void elements ('|V2', '|V1'), read as bits too.
//===----------------------------------------------------------------------===//

struct NpyReadOptions {
  /// The type a file of bits (unsigned or void elements of one byte, or of
  /// two for bf16) holds: a type NumPy lacks, of that width. Without it, or
  /// for any other type, such files are refused.
  std::optional<ElementType> bits_of;
};

/// Decodes a complete .npy file image (versions 1.0, 2.0 and 3.0).
StatusOr<Tensor> ParseNpy(const void* data, size_t size,
                          const NpyReadOptions& options = {});
/// Reads a .npy file; errors name the path.
StatusOr<Tensor> ReadNpyFile(const std::string& path,
                             const NpyReadOptions& options = {});
/// Reads only the header of a .npy file: the type of its tensor, checked
/// against the file's size.
StatusOr<TensorType> ReadNpyFileType(const std::string& path,
                                     const NpyReadOptions& options = {});
struct NpyEncodeOptions {
  /// Types NumPy lacks (bf16, fp8, f4E2M1FN) are refused, or with this,
  /// written as the unsigned integers of their bits ('<u2', '|u1').
  bool bits_for_missing_dtypes = false;
};

/// Encodes a tensor as a version 1.0 .npy image.
StatusOr<std::string> EncodeNpy(const Tensor& tensor,
                                const NpyEncodeOptions& options = {});
/// Writes a tensor to a .npy file, replacing it as a whole
/// (WriteFileAtomically: a failed write leaves the old file, or none).
Status WriteNpyFile(const std::string& path, const Tensor& tensor,
                    const NpyEncodeOptions& options = {});
/// How numpy reads back a .npy file of the bits of `type`, a type it lacks:
/// "np.load(f).view(ml_dtypes.float8_e4m3fn)"; empty for the types it has.
std::string NpyBitsView(ElementType type);

}  // namespace kiln

#endif  // KILN_TENSOR_IO_H_
