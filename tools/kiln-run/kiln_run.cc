//===- kiln_run.cc - Runs a function of a compiled kiln module ------------===//
//
//   kiln-run MODULE.kiln [--function=NAME] [--input=VALUE]...
//            [--output=@FILE.npy|-]... [--threads=N] [--variant=NAME]
//            [--list-functions]
//            [--perf] [--profile[=HZ]] [--profile-output=FILE]
//            [--profile-report=FILE] [--profile-stage=STAGE] [--guard-pages]
//   kiln-run MODULE.kiln --dispatch=EXPORT [--workgroup-count=X[,Y[,Z]]]
//            [--binding=VALUE]... [--index-constant=N]...
//            [--output=@FILE.npy|-]... [--threads=N] [--guard-pages]
//
// Inputs and outputs follow iree-run-module: --input=2x3xf32=1,2,3,4,5,6,
// --input=@x.npy; the k-th --output writes the k-th result (to a .npy file,
// or "-" to print it); results without an --output are printed one per line
// in the same syntax --input accepts. Failed checks (check.expect_* in the
// input program) are printed to stderr after the results and make the exit
// status 1. --dispatch runs one export on its own
// with the given bindings (inputs, then outputs) and prints every binding
// afterwards the same way.
//
//===----------------------------------------------------------------------===//

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/check.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/output_files.h"
#include "kiln/printable.h"
#include "kiln/profiler.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/tensor_io.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"
#include "support/command_line.h"
#include "support/function_call.h"
#include "support/guard_pages.h"
#include "support/profile_report.h"
#include "support/run_flags.h"
#include "support/tool_output.h"

namespace {

// The shared flags kiln-run takes.
constexpr unsigned kRunFlags =
    kiln::tools::kCallFlags | kiln::tools::kGuardPagesFlag;

std::string Usage() {
  return std::string(
             "usage: kiln-run MODULE.kiln [options]\n"
             "\n"
             "Runs one function of a compiled kiln module (--function, or its\n"
             "only function) and prints its results.\n"
             "\n"
             "options:\n") +
         kiln::tools::RunFlagsHelp(kRunFlags) +
         "  --output=@FILE.npy    write the k-th result to FILE.npy instead "
         "of\n"
         "                        printing it (k-th --output flag); '-' "
         "prints.\n"
         "                        The file is replaced as a whole: written "
         "beside\n"
         "                        it, then renamed (a failed write leaves "
         "none).\n"
         "                        Types NumPy lacks (bf16, fp8, f4E2M1FN) are\n"
         "                        written as unsigned integers of their bits "
         "(in\n"
         "                        numpy: np.load(f).view(ml_dtypes.bfloat16)), "
         "as\n"
         "                        --dump-dispatches writes them; --input and\n"
         "                        --binding read such files (and ml_dtypes' "
         "void\n"
         "                        ones) for arguments of those types\n"
         "  --list-functions      print the signature of every function (the\n"
         "                        module is verified; its code is not loaded)\n"
         "                        and, on stderr, which code variant runs\n"
         "                        and why when the module has several\n"
         "  --dump-dispatches=DIR save every dispatch's bindings after it "
         "runs:\n"
         "                        DIR/<n>_<export>/in<i>.npy and out<i>.npy, "
         "a\n"
         "                        reproducer for --dispatch (and "
         "index_constants,\n"
         "                        one per line, for an export that takes "
         "them).\n"
         "                        DIR must not exist:\n"
         "                        it is created, and nothing in it is replaced "
         "or\n"
         "                        followed. In <export>, bytes other than "
         "letters,\n"
         "                        digits, '_', '-' and '.' are written %XX "
         "(hex)\n"
         "  --trace=PROVIDER      trace zones (module load, function, "
         "dispatch)\n"
         "                        with a provider: null (default), console,\n"
         "                        chrome=FILE.json (Perfetto, "
         "chrome://tracing)\n"
         "                        or tracy (builds with Tracy); also "
         "KILN_TRACE\n"
         "  --trace-stage=STAGE   the captured stage dispatch zones point at\n"
         "                        (default: the earliest captured), or\n"
         "                        input: the input program's lines\n"
         "  --trace-print-source  console: print each export's code once\n"
         "  --trace-workgroups    also a zone per worker for its workgroups\n"
         "                        (the --trace-* options need --trace or\n"
         "                        KILN_TRACE)\n"
         "  --help                show this help\n"
         "  --version             print kiln's version\n"
         "\n"
         "Results are printed one per line, e.g. 2x2xf32=[1 2][3 4], in the\n"
         "syntax --input accepts. Checks that fail (check.expect_* in the "
         "input\n"
         "program) do not stop the function; each is printed to stderr as\n"
         "'kiln-run: check failed at LOCATION: MESSAGE' and the exit status is "
         "1.\n"
         "\n"
         "Running one dispatch on its own (to debug a kernel):\n"
         "  --dispatch=EXPORT     run export EXPORT (of any executable; or\n"
         "                        EXECUTABLE::EXPORT) instead of a function\n"
         "  --binding=VALUE       one per binding, inputs then outputs, in "
         "the\n"
         "                        --input syntax; each must have the type the\n"
         "                        export records (e.g. --binding=4x4xf32=1\n"
         "                        --binding=4x4xf32=0 for an output)\n"
         "  --index-constant=N    one per index value the export takes "
         "besides\n"
         "                        its bindings, in order (kiln-dump lists "
         "how many)\n"
         "  --workgroup-count=X[,Y[,Z]]\n"
         "                        run only these workgroups: 1 to 3 positive\n"
         "                        integers, missing ones 1 (default and upper\n"
         "                        bound: the export's count; fewer workgroups\n"
         "                        may leave part of the output unwritten)\n"
         "\n"
         "Every binding is printed after the dispatch (or written by the k-th\n"
         "--output).\n";
}

struct Options {
  std::string module_path;
  kiln::tools::HelpAndVersion help_and_version;
  kiln::tools::RunFlags run;
  std::vector<std::string> outputs;
  std::string trace;
  bool has_trace = false;
  kiln::TraceOptions trace_options;
  // The first --trace-* option given ("" if none): it needs a tracer.
  std::string_view first_trace_option;
  bool list_functions = false;
  std::string dump_dispatches;
  // --dispatch mode.
  std::string dispatch;
  bool has_dispatch = false;
  std::vector<std::string> bindings;
  std::vector<int64_t> index_constants;
  std::array<uint32_t, 3> workgroup_count = {1, 1, 1};
  bool has_workgroup_count = false;
};

// "X", "X,Y" or "X,Y,Z"; missing entries are 1.
kiln::Status ParseWorkgroupCount(std::string_view text,
                                 std::array<uint32_t, 3>* out) {
  const kiln::Status error = kiln::InvalidArgumentError(
      "--workgroup-count expects X[,Y[,Z]]: 1 to 3 positive integers, "
      "missing ones 1; got '",
      text, "'");
  *out = {1, 1, 1};
  size_t begin = 0;
  for (int d = 0;; ++d) {
    if (d == 3) return error;
    size_t end = text.find(',', begin);
    if (end == std::string_view::npos) end = text.size();
    uint32_t value = 0;
    auto result =
        std::from_chars(text.data() + begin, text.data() + end, value);
    if (result.ec != std::errc() || result.ptr != text.data() + end ||
        value < 1) {
      return error;
    }
    (*out)[d] = value;
    if (end == text.size()) break;
    begin = end + 1;
  }
  return kiln::OkStatus();
}

// KILN_TRACE, or "" when it is not set.
std::string TraceFromEnvironment() {
  const char* env = std::getenv("KILN_TRACE");
  return env ? env : "";
}

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  KILN_ASSIGN_OR_RETURN(
      kiln::tools::CommandLine line,
      kiln::tools::ParseCommandLine(
          argc, argv,
          kiln::tools::RunFlagSpecs(kRunFlags,
                                    {{"list-functions"},
                                     {"trace-print-source"},
                                     {"trace-workgroups"},
                                     {"output", true},
                                     {"dispatch", true},
                                     {"binding", true},
                                     {"index-constant", true},
                                     {"workgroup-count", true},
                                     {"dump-dispatches", true},
                                     {"trace", true},
                                     {"trace-stage", true}})));
  options->module_path = line.module_path;
  options->help_and_version = line.help_and_version;
  for (const kiln::tools::Flag& flag : line.flags) {
    const std::string_view name = flag.name, value = flag.value;
    KILN_ASSIGN_OR_RETURN(const bool shared, kiln::tools::ParseRunFlag(
                                                 kRunFlags, name,
                                                 value, &options->run));
    if (shared) continue;
    if (name == "list-functions") {
      options->list_functions = true;
    } else if (name == "trace-print-source") {
      options->trace_options.print_source = true;
      if (options->first_trace_option.empty()) {
        options->first_trace_option = "--trace-print-source";
      }
    } else if (name == "trace-workgroups") {
      options->trace_options.workgroup_zones = true;
      if (options->first_trace_option.empty()) {
        options->first_trace_option = "--trace-workgroups";
      }
    } else if (name == "output") {
      options->outputs.emplace_back(value);
    } else if (name == "dispatch") {
      options->dispatch = std::string(value);
      options->has_dispatch = true;
    } else if (name == "binding") {
      options->bindings.emplace_back(value);
    } else if (name == "index-constant") {
      int64_t constant = 0;
      auto result =
          std::from_chars(value.data(), value.data() + value.size(), constant);
      if (result.ec != std::errc() || result.ptr != value.data() + value.size()) {
        return kiln::InvalidArgumentError(
            "--index-constant expects a 64-bit integer, got '", value, "'");
      }
      options->index_constants.push_back(constant);
    } else if (name == "trace") {
      // An empty value would silently mean no tracing.
      if (value.empty()) {
        return kiln::InvalidArgumentError("--trace expects a provider (",
                                          kiln::AvailableTracers(),
                                          "), got ''");
      }
      options->trace = std::string(value);
      options->has_trace = true;
    } else if (name == "trace-stage") {
      options->trace_options.stage = std::string(value);
      if (options->first_trace_option.empty()) {
        options->first_trace_option = "--trace-stage";
      }
    } else if (name == "dump-dispatches") {
      if (value.empty()) {
        return kiln::InvalidArgumentError(
            "--dump-dispatches needs a directory: --dump-dispatches=DIR");
      }
      options->dump_dispatches = std::string(value);
    } else if (name == "workgroup-count") {
      KILN_RETURN_IF_ERROR(
          ParseWorkgroupCount(value, &options->workgroup_count));
      options->has_workgroup_count = true;
    }
  }
  if (options->has_dispatch) {
    if (options->run.function || !options->run.inputs.empty() ||
        options->list_functions) {
      return kiln::InvalidArgumentError(
          "--dispatch runs one export with --binding values; it does not "
          "combine with --function, --input or --list-functions");
    }
    if (options->run.profile.enabled()) {
      return kiln::InvalidArgumentError(
          "--profile and --profile-output profile a function; they do not "
          "combine with --dispatch");
    }
  } else if (!options->bindings.empty() || options->has_workgroup_count ||
             !options->index_constants.empty()) {
    return kiln::InvalidArgumentError(
        "--binding, --index-constant and --workgroup-count only apply with "
        "--dispatch");
  }
  // Without a tracer these options would do nothing, silently.
  if (!options->first_trace_option.empty() && !options->has_trace &&
      TraceFromEnvironment().empty()) {
    return kiln::InvalidArgumentError(options->first_trace_option,
                                      " needs --trace (or KILN_TRACE)");
  }
  return kiln::OkStatus();
}

// Says once per run (`*noted`) that a .npy file written for `tensor` holds
// bits, when NumPy lacks its type, and how numpy reads them.
void NoteBitsFile(const kiln::Tensor& tensor, const std::string& path,
                  bool* noted) {
  const std::string view = kiln::NpyBitsView(tensor.element_type());
  if (view.empty() || *noted) return;
  *noted = true;
  std::fprintf(
      stderr,
      "kiln-run: note: NumPy has no %s: its .npy files hold its "
      "bits as unsigned integers (in numpy: %s); first: %s\n",
      std::string(kiln::ElementTypeName(tensor.element_type())).c_str(),
      view.c_str(), kiln::Printable(path).c_str());
}

// Checks the --output flags against `count` values ("results" or
// "bindings") of `what`.
kiln::Status CheckOutputFlags(const Options& options, size_t count,
                              std::string_view noun, std::string_view what) {
  if (options.outputs.size() > count) {
    return kiln::InvalidArgumentError(options.outputs.size(),
                                      " --output flags, but '", what, "' has ",
                                      count, " ", noun);
  }
  for (size_t k = 0; k < options.outputs.size(); ++k) {
    std::string_view output = options.outputs[k];
    if (output == "-") continue;
    if (output.size() < 5 || output[0] != '@' ||
        output.substr(output.size() - 4) != ".npy") {
      return kiln::InvalidArgumentError(
          "output ", k, ": expected '@FILE.npy' or '-', got '", output, "'");
    }
  }
  return kiln::OkStatus();
}

// Prints each value, or writes it to the file its --output names; `what`
// names the values in errors ("result", "binding").
kiln::Status WriteValues(const Options& options,
                         const std::vector<kiln::Tensor>& values,
                         std::string_view what) {
  bool noted_bits = false;
  for (size_t k = 0; k < values.size(); ++k) {
    if (k < options.outputs.size() && options.outputs[k] != "-") {
      const std::string path = options.outputs[k].substr(1);
      kiln::NpyEncodeOptions npy_options;
      npy_options.bits_for_missing_dtypes = true;
      KILN_RETURN_IF_ERROR(kiln::WriteNpyFile(path, values[k], npy_options),
                           what, " ", k);
      NoteBitsFile(values[k], path, &noted_bits);
      continue;
    }
    std::string line = kiln::FormatTensor(values[k]);
    line.push_back('\n');
    kiln::tools::Print(line);
  }
  KILN_RETURN_IF_ERROR(kiln::tools::FlushStdout(), "cannot print the ", what,
                       "s");
  return kiln::OkStatus();
}

// --dispatch: runs one export with the given bindings and prints them all.
kiln::Status DispatchOne(const std::shared_ptr<const kiln::Module>& module,
                         const Options& options) {
  KILN_ASSIGN_OR_RETURN(kiln::ExportView ex,
                        module->FindExport(options.dispatch));
  KILN_RETURN_IF_ERROR(
      CheckOutputFlags(options, ex.binding_count(), "bindings", ex.name()));
  // Parsed tensors are allocated, so the kernel may write any of them.
  std::vector<kiln::Tensor> bindings;
  KILN_RETURN_IF_ERROR(
      kiln::tools::ParseBindings(options.bindings, ex, &bindings));
  const std::shared_ptr<kiln::Allocator> allocator = options.run.allocator();
  if (allocator) {
    KILN_RETURN_IF_ERROR(kiln::tools::MoveTensorsInto(allocator, &bindings));
  }
  kiln::ThreadPool pool(options.run.threads);
  KILN_RETURN_IF_ERROR(pool.status(), "--threads");
  kiln::Context context(module, &pool, allocator);
  const std::array<uint32_t, 3> compiled = ex.workgroup_count();
  const std::array<uint32_t, 3> count =
      options.has_workgroup_count ? options.workgroup_count : compiled;
  // Without --workgroup-count, the grid the bindings need (over dynamic
  // extents, more than the compiled static factor).
  KILN_RETURN_IF_ERROR(options.has_workgroup_count
                           ? context.Dispatch(ex.executable_index(),
                                              ex.export_index(), count,
                                              bindings, options.index_constants)
                           : context.Dispatch(ex, bindings,
                                              options.index_constants));
  // The code splits the work among the compiled count: with fewer
  // workgroups, the missing ones' share of the outputs keeps the value its
  // --binding gave. (Dispatch refused counts beyond the compiled one.)
  auto total = [](const std::array<uint32_t, 3>& c) {
    return uint64_t{c[0]} * c[1] * c[2];
  };
  if (total(count) < total(compiled)) {
    std::fprintf(stderr,
                 "kiln-run: warning: running %s with workgroup count "
                 "%ux%ux%u; it was compiled for %ux%ux%u (part of the "
                 "output may not be written)\n",
                 kiln::Printable(ex.name()).c_str(), count[0], count[1],
                 count[2], compiled[0], compiled[1], compiled[2]);
  }
  return WriteValues(options, bindings, "binding");
}

// `name` as one component of a file name: letters, digits, '_', '-' and '.'
// as they are, other bytes as %XX (a '/' would be a directory, a control
// byte unreadable), at most 200 bytes (NAME_MAX is 255).
std::string FileNameComponent(std::string_view name) {
  constexpr size_t kMaxLength = 200;
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                       c == '.';
    char escaped[4];
    if (!plain) std::snprintf(escaped, sizeof(escaped), "%%%02X", byte);
    const std::string_view piece = plain ? std::string_view(&c, 1) : escaped;
    if (out.size() + piece.size() > kMaxLength) break;
    out.append(piece);
  }
  return out;
}

// Saves each dispatch of the call under the new directory `dir` as
// <n>_<export>/{in,out}<i>.npy, numbered in the order they run.
kiln::Status DumpDispatchesTo(const std::string& dir, kiln::Context* context) {
  kiln::StatusOr<kiln::OutputDirectory> created =
      kiln::OutputDirectory::CreateNew(dir);
  if (!created.ok()) {
    return std::move(created).status().Prepend("--dump-dispatches");
  }
  auto out =
      std::make_shared<kiln::OutputDirectory>(std::move(created).value());
  auto counter = std::make_shared<size_t>(0);
  auto noted_bits = std::make_shared<bool>(false);
  context->SetDispatchObserver(
      [out, counter, noted_bits](const kiln::ExportView& view,
                                 const std::vector<kiln::Tensor>& bindings,
                                 size_t input_count,
                                 const std::vector<int64_t>& index_constants)
          -> kiln::Status {
        const std::string folder =
            kiln::StrCat((*counter)++, "_", FileNameComponent(view.name()));
        kiln::NpyEncodeOptions npy_options;
        npy_options.bits_for_missing_dtypes = true;
        for (size_t i = 0; i < bindings.size(); ++i) {
          const bool is_input = i < input_count;
          const std::string file =
              kiln::StrCat(folder, is_input ? "/in" : "/out",
                           is_input ? i : i - input_count, ".npy");
          kiln::StatusOr<std::string> bytes =
              kiln::EncodeNpy(bindings[i], npy_options);
          if (!bytes.ok()) {
            return std::move(bytes).status().Prepend(
                kiln::StrCat("--dump-dispatches: ", out->FilePath(file)));
          }
          KILN_RETURN_IF_ERROR(
              out->WriteFile(file, *bytes, kiln::IfFileExists::kFail),
              "--dump-dispatches");
          NoteBitsFile(bindings[i], out->FilePath(file), noted_bits.get());
        }
        if (!index_constants.empty()) {
          std::string lines;
          for (const int64_t constant : index_constants) {
            lines += kiln::StrCat(constant, "\n");
          }
          KILN_RETURN_IF_ERROR(
              out->WriteFile(kiln::StrCat(folder, "/index_constants"), lines,
                             kiln::IfFileExists::kFail),
              "--dump-dispatches");
        }
        return kiln::OkStatus();
      });
  return kiln::OkStatus();
}

// A --trace-stage the module does not capture is worth a warning: every
// dispatch falls back to its input location (else its executable's name),
// which is what `input` asks for.
void WarnAboutTraceStage(const kiln::Module& module, const std::string& stage) {
  if (stage.empty() || stage == kiln::kInputStage ||
      module.FindCaptureStage(stage)) {
    return;
  }
  std::string captured;
  for (uint32_t i = 0; i < module.capture_stage_count(); ++i) {
    captured.append(i ? ", " : "")
        .append(kiln::Printable(module.capture_stage(i)));
  }
  std::fprintf(stderr,
               "kiln-run: warning: --trace-stage=%s: the module captured %s; "
               "dispatches point at their input locations\n",
               kiln::Printable(stage).c_str(),
               captured.empty()
                   ? "no stages (compile with --executable-debug-level=3)"
                   : captured.c_str());
}

// The tracer's viewer shows no text above its size limit (Tracy's), so a
// zone pointing at one shows nothing: say which, and where to find them.
void WarnAboutTextsTooLargeToShow(const kiln::Module& module) {
  const kiln::Tracer& tracer = kiln::GetTracer();
  const uint64_t max_bytes = tracer.MaxSourceBytes();
  if (max_bytes == 0) return;
  for (const kiln::SourceFileView& file :
       kiln::FindZoneTextsLargerThan(module, tracer.options(), max_bytes)) {
    std::fprintf(stderr,
                 "kiln-run: warning: %s is %llu bytes, more than the "
                 "tracer's viewer shows (%llu bytes): zones pointing at it "
                 "show no text (kiln-dump --extract-sources writes it)\n",
                 kiln::Printable(file.path).c_str(),
                 static_cast<unsigned long long>(file.uncompressed_size),
                 static_cast<unsigned long long>(max_bytes));
  }
}

// --list-functions: says on stderr (stdout lists functions only) which
// code variant runs and why, when the module has several or --variant
// names one.
void NoteVariant(const kiln::Module& module, bool forced) {
  const std::vector<kiln::CodeVariantInfo>& variants = module.variants();
  if (variants.size() < 2 && !forced) return;
  const kiln::CodeVariantInfo& chosen = variants[module.variant_index()];
  const std::string name = kiln::Printable(chosen.name);
  std::string names;
  for (const kiln::CodeVariantInfo& variant : variants) {
    names.append(names.empty() ? "" : ", ")
        .append(kiln::Printable(variant.name));
  }
  std::string note;
  if (forced) {
    note =
        chosen.supported()
            ? kiln::StrCat("code variant ", name, " runs (as --variant says)")
            : kiln::StrCat("code variant ", name,
                           " (as --variant says) cannot run on this "
                           "machine: ",
                           kiln::Printable(chosen.unsupported));
  } else if (chosen.supported()) {
    note = kiln::StrCat("code variant ", name, " runs (the first of ", names,
                        " this machine can run)");
  } else {
    note =
        kiln::StrCat("no code variant of ", names, " can run on this machine");
    for (const kiln::CodeVariantInfo& variant : variants) {
      note += kiln::StrCat("\n  ", kiln::Printable(variant.name), ": ",
                           kiln::Printable(variant.unsupported));
    }
  }
  std::fprintf(stderr, "kiln-run: %s\n", note.c_str());
}

kiln::Status RunModule(const Options& options, bool* checks_failed);

// Installs the tracer (before the module loads: it publishes its sources
// on load), runs, then writes what the tracer buffered.
// `*checks_failed` tells whether a check of the function failed.
kiln::Status Run(const Options& options, bool* checks_failed) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  const std::string spec =
      options.has_trace ? options.trace : TraceFromEnvironment();
  if (spec.empty() || spec == "null") return RunModule(options, checks_failed);
  if (options.trace_options.workgroup_zones && spec == "console") {
    std::fprintf(stderr,
                 "kiln-run: warning: --trace-workgroups: the console shows "
                 "dispatches only; workgroup zones need chrome=FILE or "
                 "tracy\n");
  }
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<kiln::Tracer> tracer,
                        kiln::CreateTracer(spec, options.trace_options));
  kiln::SetTracer(tracer.get());
  kiln::Status status = RunModule(options, checks_failed);
  kiln::Status flushed = tracer->Flush();
  kiln::SetTracer(nullptr);
  return status.ok() ? flushed : status;
}

kiln::Status RunModule(const Options& options, bool* checks_failed) {
  // Listing inspects: the module is verified but its code is not loaded.
  kiln::ModuleLoadOptions load_options = options.run.load_options();
  load_options.load_libraries = options.has_dispatch || !options.list_functions;
  KILN_ASSIGN_OR_RETURN(std::shared_ptr<const kiln::Module> module,
                        kiln::Module::Load(options.module_path, load_options));
  WarnAboutTraceStage(*module, options.trace_options.stage);
  WarnAboutTextsTooLargeToShow(*module);
  if (options.has_dispatch) return DispatchOne(module, options);
  if (options.list_functions) {
    for (const auto& function : module->functions()) {
      kiln::tools::Print(kiln::Printable(function.ToString()) + "\n");
    }
    NoteVariant(*module, !options.run.variant.empty());
    return kiln::tools::FlushStdout();
  }
  KILN_ASSIGN_OR_RETURN(
      size_t function_index,
      kiln::tools::SelectFunction(
          *module, options.run.function
                       ? std::optional<std::string_view>(*options.run.function)
                       : std::nullopt));
  const kiln::FunctionSignature& signature =
      module->functions()[function_index];

  // Check the output flags before running anything.
  KILN_RETURN_IF_ERROR(CheckOutputFlags(options, signature.results.size(),
                                        "results", signature.name));
  std::vector<kiln::Tensor> inputs;
  KILN_RETURN_IF_ERROR(
      kiln::tools::ParseInputs(options.run.inputs, signature, &inputs));
  const std::shared_ptr<kiln::Allocator> allocator = options.run.allocator();
  if (allocator) {
    KILN_RETURN_IF_ERROR(kiln::tools::MoveTensorsInto(allocator, &inputs));
  }

  kiln::ThreadPool pool(options.run.threads);
  KILN_RETURN_IF_ERROR(pool.status(), "--threads");
  kiln::Context context(module, &pool, allocator);
  kiln::CheckRecorder checks;
  context.SetCheckHandler(&checks);
  if (!options.dump_dispatches.empty()) {
    KILN_RETURN_IF_ERROR(DumpDispatchesTo(options.dump_dispatches, &context));
  }
  // Sampling covers the call alone: not loading, parsing or printing.
  std::unique_ptr<kiln::Profiler> profiler;
  KILN_RETURN_IF_ERROR(kiln::tools::StartProfile(options.run.profile, *module,
                                                 &pool, &profiler));
  std::vector<kiln::Tensor> results;
  kiln::Status status = context.Call(function_index, inputs, &results);
  std::optional<kiln::Profile> profile;
  if (profiler) {
    kiln::StatusOr<kiln::Profile> resolved = profiler->Resolve(*module);
    if (resolved.ok()) {
      profile = std::move(*resolved);
    } else if (status.ok()) {
      status = resolved.status();
    }
  }
  if (status.ok()) status = WriteValues(options, results, "result");
  // Failed checks do not stop the function: report them after its results
  // (or before its error) and fail the run.
  kiln::tools::PrintCheckFailures("kiln-run", checks);
  *checks_failed = checks.failure_count() != 0;
  if (status.ok() && profile) {
    status = kiln::tools::WriteProfileReport(options.run.profile, *module,
                                             *profile, signature.name);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const kiln::Status parsed = ParseArgs(argc, argv, &options);
  return kiln::tools::ToolMain(
      "kiln-run", parsed, options.help_and_version, Usage(),
      [&](bool* checks_failed) { return Run(options, checks_failed); });
}
