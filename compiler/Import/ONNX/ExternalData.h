//===- ExternalData.h - tensors stored beside an ONNX model -------*- C++ -*-===//
//
// ONNX keeps the weights of large models in side files that the model's
// tensors name (`location`, `offset`, `length`); its C++ library has no
// loader for them. The files must lie in the model's folder (or below it),
// be regular files, and hold every byte a tensor says they do.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_EXTERNALDATA_H_
#define KILN_IMPORT_ONNX_EXTERNALDATA_H_

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include "onnx/onnx_pb.h"

#include <string>

namespace mlir::kiln::onnx_import {

class ExternalDataReader {
public:
  /// For the model at `modelPath`; errors are reported at `loc`.
  ExternalDataReader(StringRef modelPath, Location loc);

  /// The bytes `tensor` keeps in its side file, as raw_data would hold them.
  FailureOr<std::string> read(const onnx::TensorProto &tensor);

private:
  std::string modelPath;
  Location loc;
};

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_EXTERNALDATA_H_
