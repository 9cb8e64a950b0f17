//===- Passes.td - capturing and printing stage texts ------*- tablegen -*-===//

#ifndef KILN_CAPTURE_PASSES
#define KILN_CAPTURE_PASSES

include "mlir/Pass/PassBase.td"

def CaptureExecutableSourcesPass
    : Pass<"kiln-capture-executable-sources", "::mlir::kiln::ExecutableVariantOp"> {
  let summary = "Captures the IR text of each variant at a compilation stage.";
  let description = [{
    Clones the variant into a standalone `kiln.executable` holding only that
    variant (marked with the stage it was captured at, so that the compiler
    can resume from it), prints it with locations that point into the
    printed text itself, and records:

    - on the variant, in the `kiln.sources` dictionary, the text as a
      resource under the path `<module>_<executable>_<variant>.<stage>.mlir`;
    - on each export, in the `kiln.source_locs` dictionary, the location of
      its entry function in that text, keyed by stage.

    The text is printed once, without locations; the printer's record of
    where each op starts gives the entry lines. The IR being compiled keeps
    its own locations, and the clone is dropped. Texts captured at earlier
    stages are not captured again. The pass adds only these attributes, so
    it preserves all analyses.

    Each op of the variant's module also gets its line in the text as a
    tag around its own location,
    `loc(fused<loc("<path>":LINE:COL)>[<its location>])`: passes after the
    capture carry the tag along with the location. The next capture reads
    the tags back to record where each of its lines came from, and the
    library builder emits DWARF lines from the tags of the line stage
    (`--executable-debug-line-stage`). This is the only location the pass
    changes; the original stays inside the tag.

    Where the text's op lines came from goes on the variant, in the
    `kiln.line_origins` dictionary under the text's path: `previous`, the
    path of the `previous-stage` text (absent for the first stage);
    `input_files`; and `rows`, four integers per op line (line, the line of
    the previous text tagged in the op's location or 0, an index into
    `input_files`, the op's input line or 0), one row per previous line,
    sorted and unique.

    ```mlir
    kiln.executable.variant @cpu ... attributes {
        kiln.sources = {"m_main_dispatch_0_cpu.0.source.mlir" = dense_resource<...> : tensor<812xi8>}} {
      kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(3)
          attributes {kiln.source_locs = {"0.source" = loc("m_main_dispatch_0_cpu.0.source.mlir":5:9)}}
    ```
  }];
  let options = [
    Option<"stage", "stage", "std::string", /*default=*/"\"0.source\"",
           "Name of the stage being captured">,
    Option<"moduleName", "module-name", "std::string", /*default=*/"\"module\"",
           "Module part of the captured paths">,
    Option<"previousStage", "previous-stage", "std::string",
           /*default=*/"\"\"",
           "Stage captured before this one, whose lines the new text's op "
           "lines are traced back to (empty: this is the first)">,
  ];
}

def CaptureInputFilesPass : Pass<"kiln-capture-input-files", "::mlir::ModuleOp"> {
  let summary = "Embeds the input files that export locations name.";
  let description = [{
    Reads each file that an export's location names (from `debug-level` 1)
    or the location of an op fused into it (from 2), once, and attaches its
    text to the module in the `kiln.input_files` dictionary, under the path
    locations go by in the module (lexically normalised; absolute when it
    would climb out of the current directory). A location may name any
    file, so only regular text files of at most `limit` bytes under one of
    `dirs` (symlinks resolved; compared by real path) are read, and what is
    read is what was checked. Each file left out is a warning that shows no
    line of it; a file a profiler cannot show whole (above Tracy's 262,127
    bytes) is embedded with a warning.

    ```mlir
    module attributes {kiln.input_files = {"model.mlir" = dense_resource<model.mlir> : tensor<812xi8>}} {
    ```
  }];
  let options = [
    Option<"debugLevel", "debug-level", "int", /*default=*/"2",
           "--executable-debug-level: which locations name files (1: the "
           "exports', 2: also the ops fused into them)">,
    Option<"limit", "limit", "uint64_t",
           /*default=*/"::mlir::kiln::kDefaultEmbedInputFileLimit",
           "Largest file embedded, in bytes">,
    ListOption<"dirs", "dirs", "std::string",
               "Directories whose files may be embedded">,
  ];
}

def PrintVariantPass
    : Pass<"kiln-print-variant", "::mlir::kiln::ExecutableVariantOp"> {
  let summary = "Prints each variant to stderr under a header naming it.";
  let description = [{
    Prints the variant it runs on to stderr, after a header naming the stage
    it is at, its executable and the variant. `kiln-compile --dump-stage`
    adds it at the stage asked for; the IR is left unchanged.

    ```
    // -----// 1.configured main_dispatch_0::cpu //----- //
    kiln.executable.variant @cpu target("llvm-cpu") ... {
    ```
  }];
  let options = [
    Option<"stage", "stage", "std::string", /*default=*/"\"\"",
           "Name of the stage the header shows">,
  ];
}

#endif // KILN_CAPTURE_PASSES
