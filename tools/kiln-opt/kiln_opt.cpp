//===- kiln_opt.cpp - Runs kiln passes over MLIR --------------------------===//
//
// The tool lit tests drive passes with: every dialect kiln reads or produces
// and every kiln pass, plus upstream passes for test set-up.
//
//===----------------------------------------------------------------------===//

#include "Pipeline/Registration.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::kiln::registerAllDialects(registry);
  mlir::kiln::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kiln optimizer driver\n", registry));
}
