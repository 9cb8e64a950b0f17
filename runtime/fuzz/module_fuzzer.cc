//===- module_fuzzer.cc - Load, verify and walk an untrusted module -------===//
//
// Feeds arbitrary bytes to Module::LoadFromMemory and, when verification
// accepts them, reads every view a tool or tracer reads (kiln-dump's
// summary, source listing, export lookup by name, trace locations, every
// code variant's exports). Libraries
// are verified as ELF images but not mapped: dlopen of an arbitrary image is
// the system loader's business, not the module format's.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <string>

#include "kiln/module.h"
#include "kiln/module_generated.h"

namespace {

// Touches every byte a view covers so ASan sees any read out of bounds.
size_t Touch(std::string_view text) {
  size_t sum = 0;
  for (char c : text) sum += static_cast<unsigned char>(c);
  return sum;
}

size_t WalkExport(const kiln::Module& module, const kiln::ExportView& ex) {
  size_t sum = Touch(ex.executable_name()) + Touch(ex.name());
  sum += ex.binding_count();
  for (uint32_t count : ex.workgroup_count()) sum += count;
  if (ex.has_binding_types()) {
    for (uint32_t i = 0; i < ex.binding_count(); ++i)
      sum += Touch(ex.binding_type(i).ToString());
  }
  sum += Touch(ex.location().ToString());
  for (uint32_t i = 0; i < ex.provenance_count(); ++i) {
    kiln::FusedOpView op = ex.provenance(i);
    sum += Touch(op.name) + Touch(op.location.ToString());
  }
  for (uint32_t i = 0; i < ex.stage_location_count(); ++i) {
    kiln::StageLocationView stage = ex.stage_location(i);
    sum += Touch(stage.stage_name) + Touch(stage.path) + stage.line;
    sum += module.sources().file(stage.source).stored_size;
  }
  for (uint32_t stage = 0; stage <= module.capture_stage_count(); ++stage) {
    sum += ex.FindStageLocation(stage).has_value();
    sum += Touch(ex.TraceLocation(stage).ToString());
  }
  // Lookup by name must find an export (not necessarily this one when names
  // repeat) or explain why not.
  auto found = module.FindExport(ex.name());
  sum += found.ok() ? found->export_index() : found.status().message().size();
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln::ModuleLoadOptions options;
  options.load_libraries = false;
  auto module = kiln::Module::LoadFromMemory(
      data, size, kiln::Module::MemoryMode::kCopy, options);
  if (!module.ok()) {
    // A refusal must say what failed.
    if (module.status().message().empty()) __builtin_trap();
    return 0;
  }
  const kiln::Module& m = **module;
  size_t sum = Touch(m.name()) + m.debug_level();
  for (const kiln::FunctionSignature& function : m.functions()) {
    sum += Touch(function.ToString());
    if (!m.FindFunction(function.name).ok()) __builtin_trap();
  }
  for (uint32_t stage = 0; stage < m.capture_stage_count(); ++stage) {
    sum += Touch(m.capture_stage(stage));
    if (!m.FindCaptureStage(m.capture_stage(stage))) __builtin_trap();
  }
  const kiln::SourceTable& sources = m.sources();
  for (uint32_t i = 0; i < sources.size(); ++i) {
    kiln::SourceFileView file = sources.file(i);
    sum += Touch(file.path) + file.uncompressed_size + file.content;
    sum += Touch(std::string_view(
        reinterpret_cast<const char*>(file.stored_data), file.stored_size));
    // Paths are unique and sorted: lookup must find this very file.
    if (sources.FindIndex(file.path) != i) __builtin_trap();
  }
  for (uint32_t e = 0; e < m.executable_count(); ++e) {
    sum += Touch(m.executable_name(e));
    for (uint32_t x = 0; x < m.export_count(e); ++x) {
      auto ex = m.GetExport(e, x);
      if (!ex.ok()) __builtin_trap();
      sum += WalkExport(m, *ex);
    }
    if (m.GetExport(e, m.export_count(e)).ok()) __builtin_trap();
  }
  if (m.GetExport(m.executable_count(), 0).ok()) __builtin_trap();
  // Every variant, chosen or not, is verified: its exports read as the
  // chosen one's do (as kiln-dump reads them).
  const auto& variants = m.variants();
  if (m.variant_index() >= variants.size()) __builtin_trap();
  if (m.variant_name() != variants[m.variant_index()].name) __builtin_trap();
  const kiln::fb::Module& root = m.flatbuffer();
  for (uint32_t v = 0; v < variants.size(); ++v) {
    sum += Touch(variants[v].name) + Touch(variants[v].cpu) +
           Touch(variants[v].unsupported);
    for (std::string_view feature : variants[v].cpu_features) {
      sum += Touch(feature);
    }
    for (uint32_t library : variants[v].libraries) {
      if (library >= root.libraries()->size()) __builtin_trap();
    }
    const kiln::fb::CodeVariant* variant = root.variants()->Get(v);
    if (variant->executables() &&
        variant->executables()->size() != m.executable_count()) {
      __builtin_trap();
    }
    for (uint32_t e = 0; e < m.executable_count(); ++e) {
      for (uint32_t x = 0; x < m.export_count(e); ++x) {
        sum += WalkExport(m, kiln::ExportView(&root, variant, e, x));
      }
    }
  }
  volatile size_t sink = sum;
  (void)sink;
  return 0;
}
