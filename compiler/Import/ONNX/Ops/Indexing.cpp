//===- Indexing.cpp -------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

namespace mlir::kiln::onnx_import {

void registerIndexingConverters(ConverterTable &table) {}

} // namespace mlir::kiln::onnx_import
