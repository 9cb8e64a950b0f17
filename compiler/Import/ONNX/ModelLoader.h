//===- ModelLoader.h - ONNX models read, checked and shaped -------*- C++ -*-===//
//
// Everything the importer needs of a model before it writes any IR, done by
// ONNX's own library: parsing (binary or ONNX's text format), external data
// read from beside the model, the checker, conversion up to the library's
// newest opset, expansion of ops defined as functions of other ops, and
// shape inference with data propagation (which also computes the contents
// of shape tensors, so Shape -> Gather -> Concat chains fold).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_MODELLOADER_H_
#define KILN_IMPORT_ONNX_MODELLOADER_H_

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "onnx/shape_inference/implementation.h"
#include "onnx/onnx_pb.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::kiln::onnx_import {

/// The node of the model as given that an imported node stands for: itself,
/// or the node whose function body it was expanded from.
struct NodeOrigin {
  std::string name;
  std::string opType;
  /// PyTorch's module path (`pkg.torch.onnx.name_scopes`, joined by '.')
  /// and the Python source line (`pkg.torch.onnx.stack_trace`'s last
  /// frame, as `file.py:42`), when the exporter recorded them.
  std::string scope;
  std::string source;
};

/// The bytes of a tensor held apart from the model proto: large initializers
/// are moved out of it before ONNX's library copies the graph (the version
/// converter and shape inference would copy every weight), and external
/// data is read from beside the model.
struct TensorData {
  onnx::TensorProto_DataType elementType;
  std::vector<int64_t> dims;
  /// Little-endian elements as ONNX stores them in raw_data: booleans one
  /// per byte, 4-bit types two per byte.
  std::shared_ptr<const std::string> bytes;
};

struct LoadedModel {
  /// The model converted, expanded and inferred: every value has a type.
  onnx::ModelProto model;
  /// The default domain's opset as given, and as converted.
  int64_t originalOpset = 0;
  int64_t opset = 0;
  /// Initializers moved out of the proto (by value name); the graph lists
  /// them as inputs so that shape inference still knows their types.
  std::map<std::string, TensorData> weights;
  /// The contents of small integer tensors that shape inference computed
  /// (Shape, Gather, Concat, ... on shapes), dimension by dimension:
  /// dim_value where known, dim_param where a symbolic size.
  onnx::shape_inference::DataValueMap shapeData;
  /// For each node of the graph, the node of the model as given it came
  /// from.
  std::vector<NodeOrigin> origins;
};

/// What the caller of `loadModel` may ask of it.
struct LoadOptions {
  /// Ops the importer converts itself: a node of any other op that ONNX
  /// defines as a function of other ops is expanded into them.
  const llvm::StringSet<> *convertedOps = nullptr;
};

/// Reads the model at `path` (binary protobuf, or ONNX's text format when
/// the file starts with '<' or its name ends in `.onnxtxt`), or from
/// `contents` when given, which is freed as soon as it is parsed (a model's
/// bytes are not held twice). Errors are reported at `fileLoc` (line 0:
/// about the file as a whole) and name what to do next.
FailureOr<std::unique_ptr<LoadedModel>>
loadModel(StringRef path, std::unique_ptr<llvm::MemoryBuffer> contents,
          FileLineColLoc fileLoc, const LoadOptions &options);

/// Reads the whole model file at `path` ("-": standard input): only a
/// regular file (a FIFO or a device is refused, without waiting on it),
/// read rather than mapped (a file truncated meanwhile must not fault).
/// Errors are reported at `loc`.
FailureOr<std::unique_ptr<llvm::MemoryBuffer>> readModelFile(StringRef path,
                                                             Location loc);

/// Newest opset of the default domain the linked ONNX library knows.
int64_t getNewestOpset();
/// Newest IR version the linked ONNX library reads.
int64_t getNewestIRVersion();

/// Bytes per element of an ONNX type held one per byte or wider; 0 for the
/// 4-bit and 2-bit types (packed two or four per byte) and types without a
/// fixed size.
size_t getElementBytes(int32_t elementType);

/// The bytes of a tensor held in its proto (raw_data, or its typed fields
/// written out as raw_data would hold them).
FailureOr<std::string> getTensorBytes(const onnx::TensorProto &tensor,
                                      Location loc);

/// The name of an ONNX element type (`FLOAT`, `INT64`, ...).
std::string getElementTypeName(int32_t elementType);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_MODELLOADER_H_
