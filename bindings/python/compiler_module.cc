//===- compiler_module.cc - kiln._compiler: the compiler as a library ----===//
//
// Compiles a program or a model to a module's bytes, as kiln-compile does,
// with this call's options on a context of its own, the GIL released: two
// compiles, in turn or in two threads, never see each other's options.
//
//===----------------------------------------------------------------------===//

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "API/Compiler.h"
#include "API/OutOfMemory.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace nb = nanobind;

namespace {

constexpr const char* kCallerName = "kiln.compile";

// Raised as kiln.CompileError with the diagnostics kiln-compile prints.
struct CompileFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Compiles the file at `path`, or `text` named `path` when given, and
// returns the module's bytes and the warnings printed on the way.
nb::tuple Compile(const std::string& path, std::optional<nb::bytes> text,
                  const std::vector<std::string>& cpus, int debug_level,
                  const std::vector<std::string>& capture_stages,
                  const std::string& line_stage, bool embed_input_files,
                  const std::vector<std::string>& embed_input_dirs,
                  uint64_t embed_input_file_limit, bool accumulate_half_in_f32,
                  bool reassociate_fp_reductions, bool strict_tosa) {
  mlir::kiln::CompileOptions options;
  options.cpus = cpus;
  options.debugLevel = debug_level;
  options.captureStages = capture_stages;
  options.lineStage = line_stage;
  options.embedInputFiles = embed_input_files;
  options.embedInputDirs = embed_input_dirs;
  options.embedInputFileLimit = embed_input_file_limit;
  options.accumulateHalfInF32 = accumulate_half_in_f32;
  options.reassociateFpReductions = reassociate_fp_reductions;
  options.strictTosa = strict_tosa;

  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (text)
    buffer = llvm::MemoryBuffer::getMemBufferCopy(
        llvm::StringRef(text->c_str(), text->size()), path);
  std::string module, diagnostics;
  bool ok = false;
  {
    nb::gil_scoped_release release;
    llvm::raw_string_ostream moduleStream(module);
    llvm::raw_string_ostream diagnosticStream(diagnostics);
    std::unique_ptr<mlir::MLIRContext> context =
        mlir::kiln::createCompilerContext();
    ok = succeeded(mlir::kiln::runReportingOutOfMemory(
        context,
        [&] {
          if (failed(mlir::kiln::verifyCompileOptions(options, diagnosticStream,
                                                      kCallerName)))
            return mlir::failure();
          if (!buffer) {
            auto input = mlir::kiln::readCompilerInput(
                *context, path, diagnosticStream, kCallerName);
            if (failed(input)) return mlir::failure();
            buffer = std::move(*input);
          }
          return mlir::kiln::compileInput(*context, std::move(buffer), path,
                                          options, moduleStream,
                                          diagnosticStream, kCallerName);
        },
        diagnosticStream, kCallerName));
  }
  if (!ok) throw CompileFailure(diagnostics);
  return nb::make_tuple(nb::bytes(module.data(), module.size()), diagnostics);
}

}  // namespace

NB_MODULE(_compiler, m) {
  m.doc() = "kiln's compiler: programs and models to modules";
  nb::exception<CompileFailure>(m, "CompileError", PyExc_Exception);
  m.attr("DEFAULT_EMBED_INPUT_FILE_LIMIT") =
      mlir::kiln::kDefaultEmbedInputFileLimit;
  m.def("compile", &Compile, nb::arg("path"), nb::arg("text").none(),
        nb::arg("cpus"), nb::arg("debug_level"), nb::arg("capture_stages"),
        nb::arg("line_stage"), nb::arg("embed_input_files"),
        nb::arg("embed_input_dirs"), nb::arg("embed_input_file_limit"),
        nb::arg("accumulate_half_in_f32"), nb::arg("reassociate_fp_reductions"),
        nb::arg("strict_tosa"));
}
