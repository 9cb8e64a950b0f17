//===- Recurrent.cpp -------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

namespace mlir::kiln::onnx_import {

void registerRecurrentConverters(ConverterTable &table) {}

} // namespace mlir::kiln::onnx_import
