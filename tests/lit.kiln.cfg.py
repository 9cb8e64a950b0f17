# lit configuration for kiln (loaded by the generated lit.site.cfg.py): pass
# (compiler/**/test/*.mlir) and end-to-end programs (tests/**/*.mlir).
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .onnxtxt: ONNX models in ONNX's text format (the importer's tests).
config.suffixes = [".mlir", ".onnxtxt"]
# Built with the ONNX importer: its tests run (REQUIRES: onnx).
if config.kiln_build_onnx.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("onnx")
else:
    config.suffixes.remove(".onnxtxt")
# Sanitizers reserve terabytes of address space: no memory limit holds
# (REQUIRES: memory-limits).
if not config.kiln_sanitizer:
    config.available_features.add("memory-limits")
config.test_source_root = config.kiln_source_root
config.test_exec_root = os.path.join(config.kiln_binary_root, "tests")

# Only compiler/ and tests/ hold tests; build trees and samples do not.
config.excludes = [
    name
    for name in os.listdir(config.kiln_source_root)
    if name not in ("compiler", "tests")
]
config.excludes += ["Inputs"]

llvm_config.use_default_substitutions()
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"

tool_dirs = [config.kiln_tools_dir, config.llvm_tools_dir]
tools = ["kiln-opt", "kiln-compile", "kiln-import-onnx", "kiln-run", "kiln-benchmark", "kiln-dump", "kiln-check",
         "FileCheck", "not",
         "mlir-opt", "mlir-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%mlir_lib_dir", config.llvm_lib_dir))
config.substitutions.append(
    ("%kiln_tests_dir", os.path.join(config.kiln_source_root, "tests")))
config.substitutions.append(("%kiln_source_dir", config.kiln_source_root))
config.substitutions.append(("%kiln_bin_dir", config.kiln_tools_dir))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))

# %e2e PROGRAM -o WORKDIR [flags]: compile with kiln, run, and compare with
# upstream MLIR (tests/e2e/run_e2e.py).
def tool_path(name, directory):
    return os.path.join(directory, name)
config.substitutions.append(("%e2e", " ".join([
    config.python_executable,
    os.path.join(config.kiln_source_root, "tests", "e2e", "run_e2e.py"),
    "--kiln-compile=" + tool_path("kiln-compile", config.kiln_tools_dir),
    "--kiln-run=" + tool_path("kiln-run", config.kiln_tools_dir),
    "--mlir-opt=" + tool_path("mlir-opt", config.llvm_tools_dir),
    "--mlir-runner=" + tool_path("mlir-runner", config.llvm_tools_dir),
    "--mlir-lib-dir=" + config.llvm_lib_dir,
])))
