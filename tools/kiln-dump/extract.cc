//===- extract.cc - Embedded files written out ----------------------------===//

#include "extract.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>

#include "kiln/module_generated.h"
#include "kiln/output_files.h"
#include "kiln/printable.h"
#include "kiln/sources.h"
#include "nlohmann/json.hpp"
#include "source_table.h"
#include "view_output.h"

namespace kiln::dump {

using nlohmann::json;

namespace {

/// --extract-sources writes at most this many bytes in all. Each content is
/// bounded (kiln::kMaxSourceSize), but any number of paths may share one, so
/// a small module could otherwise ask for many GiB.
constexpr uint64_t kMaxExtractBytes = uint64_t{8} << 30;

/// The message of a failed OutputDirectory::WriteFile; for a file that
/// exists (its kFailedPrecondition), how to replace it.
std::string WriteErrorMessage(const Status& status) {
  std::string message = status.message();
  if (status.code() == StatusCode::kFailedPrecondition) {
    message += " (--force replaces it)";
  }
  return message;
}

/// Returns the number of files that could not be written.
StatusOr<size_t> WriteSources(const Module& module, const Options& options) {
  const std::string& dir = options.extract_dir;
  if (dir.empty()) {
    return InvalidArgumentError("--extract-sources needs a directory");
  }
  const SourceTable& table = module.sources();
  // Checked before anything (even DIR) is created: the declared sizes are
  // what extraction would write.
  const uint64_t total = ComputeTotals(table).raw_bytes;
  if (total > kMaxExtractBytes) {
    return ResourceExhaustedError(
        "--extract-sources: the ", table.size(), " source files total ", total,
        " bytes, more than the limit of ", kMaxExtractBytes,
        " bytes; nothing was written");
  }
  KILN_ASSIGN_OR_RETURN(OutputDirectory out,
                        OutputDirectory::OpenOrCreate(dir));
  const IfFileExists if_exists =
      options.force ? IfFileExists::kReplace : IfFileExists::kFail;
  // File below DIR -> the path that took it: "/a.mlir", "a.mlir" and
  // "./a.mlir" name one file, which only the first may write.
  std::map<std::string, std::string_view> taken;
  json written = json::array(), refused = json::array();
  std::string report;
  size_t failures = 0;
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    // An embedded input file named by an absolute path lands below the
    // directory at that path: /src/m.mlir -> DIR/src/m.mlir.
    StatusOr<std::string> relative = NormalizeRelativePath(file.path);
    Status status = relative.status();
    if (status.ok()) {
      auto [it, inserted] = taken.try_emplace(*relative, file.path);
      if (!inserted) {
        status = InvalidArgumentError("same file as '", it->second, "' (",
                                      out.FilePath(*relative), ")");
      }
    }
    StatusOr<std::string> text = std::string();
    if (status.ok()) text = file.Decompress();
    if (status.ok() && !text.ok()) status = text.status();
    if (status.ok()) status = out.WriteFile(*relative, *text, if_exists);
    if (!status.ok()) {
      ++failures;
      const std::string message = WriteErrorMessage(status);
      std::fprintf(stderr, "kiln-dump: error: not extracting '%s': %s\n",
                   Printable(file.path).c_str(), Printable(message).c_str());
      refused.push_back({{"path", std::string(file.path)}, {"error", message}});
      continue;
    }
    report += StrCat("wrote ", Printable(out.FilePath(*relative)), " (",
                     file.uncompressed_size, " bytes)\n");
    written.push_back({{"path", std::string(file.path)},
                       {"file", out.FilePath(*relative)},
                       {"bytes", file.uncompressed_size}});
  }
  if (options.json) {
    KILN_RETURN_IF_ERROR(PrintJson(
        json{{"directory", dir}, {"written", written}, {"errors", refused}}));
  } else {
    if (table.empty()) {
      report =
          "no embedded sources (compile with --executable-debug-level=3)\n";
    }
    KILN_RETURN_IF_ERROR(PrintText(report));
  }
  return failures;
}

/// Returns the number of libraries that could not be written.
StatusOr<size_t> WriteLibraries(const Module& module, const Options& options) {
  const std::string& dir = options.extract_libraries_dir;
  if (dir.empty()) {
    return InvalidArgumentError("--extract-libraries needs a directory");
  }
  KILN_ASSIGN_OR_RETURN(OutputDirectory out,
                        OutputDirectory::OpenOrCreate(dir));
  const IfFileExists if_exists =
      options.force ? IfFileExists::kReplace : IfFileExists::kFail;
  const auto* libraries = module.flatbuffer().libraries();
  const uint32_t count = libraries ? libraries->size() : 0;
  json written = json::array(), refused = json::array();
  std::string report;
  size_t failures = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const auto* data = libraries->Get(i)->data();
    const std::string name = StrCat("library", i, ".so");
    Status status = out.WriteFile(
        name,
        std::string_view(reinterpret_cast<const char*>(data->data()),
                         data->size()),
        if_exists);
    if (!status.ok()) {
      ++failures;
      const std::string message = WriteErrorMessage(status);
      std::fprintf(stderr, "kiln-dump: error: not extracting library %u: %s\n",
                   i, Printable(message).c_str());
      refused.push_back({{"library", i}, {"error", message}});
      continue;
    }
    report += StrCat("wrote ", Printable(out.FilePath(name)), " (",
                     data->size(), " bytes)\n");
    written.push_back({{"library", i},
                       {"file", out.FilePath(name)},
                       {"bytes", data->size()}});
  }
  if (options.json) {
    KILN_RETURN_IF_ERROR(PrintJson(
        json{{"directory", dir}, {"written", written}, {"errors", refused}}));
  } else {
    KILN_RETURN_IF_ERROR(PrintText(report));
  }
  return failures;
}

}  // namespace

Status ExtractSources(const Module& module, const Options& options,
                      bool* incomplete) {
  KILN_ASSIGN_OR_RETURN(size_t failures, WriteSources(module, options));
  if (failures == 0) return OkStatus();
  std::fprintf(stderr,
               "kiln-dump: error: %zu of %u source files were not "
               "written\n",
               failures, module.sources().size());
  *incomplete = true;
  return OkStatus();
}

Status ExtractLibraries(const Module& module, const Options& options,
                        bool* incomplete) {
  KILN_ASSIGN_OR_RETURN(size_t failures, WriteLibraries(module, options));
  if (failures == 0) return OkStatus();
  const auto* libraries = module.flatbuffer().libraries();
  std::fprintf(stderr,
               "kiln-dump: error: %zu of %u libraries were not written\n",
               failures, libraries ? libraries->size() : 0);
  *incomplete = true;
  return OkStatus();
}

}  // namespace kiln::dump
