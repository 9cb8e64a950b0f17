//===- Importer.cpp - ONNX models to kiln input programs ------------------===//

#include "Import/ONNX/Importer.h"

#include "Import/ONNX/GraphImporter.h"
#include "Import/ONNX/ModelLoader.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/defs/printer.h"

namespace mlir::kiln::onnx_import {

const ConverterTable &getConverters() {
  static const ConverterTable table = [] {
    ConverterTable table;
    registerElementwiseConverters(table);
    registerTensorConverters(table);
    registerReductionConverters(table);
    registerLinearConverters(table);
    registerPoolingConverters(table);
    registerNormalizationConverters(table);
    registerResizeConverters(table);
    registerConvTransposeConverters(table);
    registerEinsumConverters(table);
    registerIndexingConverters(table);
    registerRecurrentConverters(table);
    registerQuantizationConverters(table);
    registerSpectralConverters(table);
    return table;
  }();
  return table;
}

namespace {

/// The model read for import: every op the importer does not convert but
/// ONNX defines as a function expanded.
FailureOr<std::unique_ptr<LoadedModel>>
loadForImport(MLIRContext *context, StringRef path,
              std::unique_ptr<llvm::MemoryBuffer> contents) {
  // Errors about the model as a whole name the model's file.
  FileLineColLoc modelLoc = FileLineColLoc::get(context, path, 0, 0);
  llvm::StringSet<> convertedOps;
  for (const auto &entry : getConverters())
    convertedOps.insert(entry.getKey());
  LoadOptions loadOptions;
  loadOptions.convertedOps = &convertedOps;
  return loadModel(path, std::move(contents), modelLoc, loadOptions);
}

} // namespace

FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readONNXModelFile(MLIRContext *context, StringRef path) {
  return readModelFile(path, FileLineColLoc::get(context, path, 0, 0));
}

LogicalResult printLoadedONNXModel(MLIRContext *context, StringRef path,
                                   std::unique_ptr<llvm::MemoryBuffer> contents,
                                   raw_ostream &os) {
  FailureOr<std::unique_ptr<LoadedModel>> model =
      loadForImport(context, path, std::move(contents));
  if (failed(model))
    return failure();
  os << onnx::ProtoToString((*model)->model) << "\n";
  return success();
}

FailureOr<OwningOpRef<ModuleOp>>
importONNXModel(MLIRContext *context, StringRef path,
                std::unique_ptr<llvm::MemoryBuffer> contents,
                const ImportOptions &options) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect>();
  std::string textPath =
      options.textPath.empty() ? (path + ".mlir").str() : options.textPath;
  FileLineColLoc modelLoc = FileLineColLoc::get(context, path, 0, 0);
  FailureOr<std::unique_ptr<LoadedModel>> model =
      loadForImport(context, path, std::move(contents));
  if (failed(model))
    return failure();
  GraphImporter importer(context, **model, options, modelLoc, textPath);
  return importer.import();
}

void printImportedProgram(ModuleOp moduleOp, raw_ostream &os,
                          bool withWeights) {
  OpPrintingFlags flags;
  flags.enableDebugInfo(true, /*prettyForm=*/false);
  if (!withWeights)
    flags.elideLargeResourceString(0);
  moduleOp->print(os, flags);
  os << "\n";
}

void registerImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
}

} // namespace mlir::kiln::onnx_import
