//===- ConvTranspose.cpp -------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

namespace mlir::kiln::onnx_import {

void registerConvTransposeConverters(ConverterTable &table) {}

} // namespace mlir::kiln::onnx_import
