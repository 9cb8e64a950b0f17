//===- Einsum.cpp -------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

namespace mlir::kiln::onnx_import {

void registerEinsumConverters(ConverterTable &table) {}

} // namespace mlir::kiln::onnx_import
