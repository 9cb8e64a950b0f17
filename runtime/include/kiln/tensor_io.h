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

#include <string>
#include <string_view>

#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln {

/// Parses a tensor type such as "2x3xf32" or "f32" (0-d).
Status ParseTensorType(std::string_view text, TensorType* out_type);

/// Parses a tensor value in the syntax above; "@path" reads a .npy file.
StatusOr<Tensor> ParseTensor(std::string_view text);

/// The type of a tensor value in the syntax above, read without its values
/// and without allocating them: the text's own type, or a .npy file's
/// header. What a caller checks before ParseTensor allocates the tensor.
StatusOr<TensorType> ParseTensorValueType(std::string_view text);

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
//===----------------------------------------------------------------------===//

/// Decodes a complete .npy file image (versions 1.0, 2.0 and 3.0).
StatusOr<Tensor> ParseNpy(const void* data, size_t size);
/// Reads a .npy file; errors name the path.
StatusOr<Tensor> ReadNpyFile(const std::string& path);
/// Reads only the header of a .npy file: the type of its tensor, checked
/// against the file's size.
StatusOr<TensorType> ReadNpyFileType(const std::string& path);
struct NpyEncodeOptions {
  /// bf16 has no NumPy dtype: refused, or with this, written as '<u2' (its
  /// bits; numpy reads them back with .view(ml_dtypes.bfloat16)).
  bool bf16_as_uint16 = false;
};

/// Encodes a tensor as a version 1.0 .npy image.
StatusOr<std::string> EncodeNpy(const Tensor& tensor,
                                const NpyEncodeOptions& options = {});
/// Writes a tensor to a .npy file, replacing it as a whole
/// (WriteFileAtomically: a failed write leaves the old file, or none).
Status WriteNpyFile(const std::string& path, const Tensor& tensor);

}  // namespace kiln

#endif  // KILN_TENSOR_IO_H_
