//===- resolve_exports.cc - A module's exports matched to its libraries ---===//
//
// Chooses the code variant a verified module runs (the first whose
// libraries' CPU features the host has, or the one it is told to), loads
// that variant's libraries (loaded_library.h), and matches the module
// against each library's description of its code: every Export of the
// variant, and every dispatch of it, must match what the code was built for
// (workgroup count, binding types, which bindings it writes) before
// anything runs.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cpu/host_cpu_features.h"
#include "module/loaded_library.h"
#include "module/module_impl.h"

namespace kiln {

Status CheckCpuFeatures(
    std::string_view cpu, const std::vector<std::string_view>& features,
    const std::function<std::optional<bool>(std::string_view)>& has_feature) {
  std::string missing, unknown;
  for (std::string_view feature : features) {
    const std::optional<bool> present = has_feature(feature);
    std::string& list = present.has_value() ? missing : unknown;
    if (present != true) list.append(list.empty() ? "" : ", ").append(feature);
  }
  // A feature that cannot be checked may be missing: running the code
  // could stop the process on an illegal instruction, so it is refused too.
  if (!missing.empty() || !unknown.empty()) {
    const std::string unchecked =
        StrCat("this runtime cannot check: ", unknown);
    std::string what =
        missing.empty() ? unchecked : StrCat("this machine lacks: ", missing);
    if (!missing.empty() && !unknown.empty()) {
      what += StrCat(" (and ones ", unchecked, ")");
    }
    return UnimplementedError("compiled for CPU '", cpu, "' with instructions ",
                              what);
  }
  return OkStatus();
}

namespace {

// "8xf32"-like, with "?" for an extent the kernel takes whatever it is.
std::string DescribeBinding(const kiln_binding_descriptor_v1_t& binding) {
  std::string text;
  for (uint32_t d = 0; d < binding.rank; ++d) {
    text += binding.shape[d] == KILN_DIMENSION_ANY
                ? std::string("?")
                : std::to_string(binding.shape[d]);
    text += "x";
  }
  text += ElementTypeName(static_cast<ElementType>(binding.element_type));
  text +=
      binding.access == KILN_BINDING_ACCESS_WRITE ? " (written)" : " (read)";
  return text;
}

bool BindingTakes(const kiln_binding_descriptor_v1_t& binding,
                  ElementType element_type, const Shape& shape) {
  if (binding.element_type != static_cast<uint8_t>(element_type) ||
      binding.rank != shape.size()) {
    return false;
  }
  for (uint32_t d = 0; d < binding.rank; ++d) {
    if (binding.shape[d] != KILN_DIMENSION_ANY &&
        binding.shape[d] != shape[d]) {
      return false;
    }
  }
  return true;
}

// The library's description of itself is checked before the module's
// metadata is compared with it.
Status CheckDescriptor(const kiln_export_descriptor_v1_t& descriptor) {
  if (descriptor.binding_count > 0 && !descriptor.bindings) {
    return InvalidArgumentError("descriptor has ", descriptor.binding_count,
                                " bindings but a null array");
  }
  for (uint32_t i = 0; i < descriptor.binding_count; ++i) {
    const kiln_binding_descriptor_v1_t& binding = descriptor.bindings[i];
    if (!IsValidElementType(binding.element_type)) {
      return InvalidArgumentError("binding ", i, ": invalid element type ",
                                  static_cast<int>(binding.element_type));
    }
    if (binding.access != KILN_BINDING_ACCESS_READ &&
        binding.access != KILN_BINDING_ACCESS_WRITE) {
      return InvalidArgumentError("binding ", i, ": invalid access ",
                                  static_cast<int>(binding.access));
    }
    if (binding.rank > kMaxTensorRank || (binding.rank > 0 && !binding.shape)) {
      return InvalidArgumentError("binding ", i, ": bad shape (rank ",
                                  binding.rank, ")");
    }
    for (uint32_t d = 0; d < binding.rank; ++d) {
      if (binding.shape[d] < 0 && binding.shape[d] != KILN_DIMENSION_ANY) {
        return InvalidArgumentError("binding ", i, ": negative extent ",
                                    binding.shape[d]);
      }
    }
  }
  return OkStatus();
}

// Resolves export `ex` against its library's table: name, binding count,
// workgroup count and binding types must be those the code was built for.
Status ResolveExport(const fb::Export& ex, const kiln_export_table_v1_t& table,
                     uint32_t library, ResolvedExport* out) {
  const std::string_view name = ex.name()->string_view();
  const uint32_t ordinal = ex.library_ordinal();
  if (ordinal >= table.count) {
    return OutOfRangeError("library ordinal ", ordinal,
                           " out of range (library ", library, " has ",
                           table.count, " exports)");
  }
  const char* library_name = table.names[ordinal];
  if (!library_name || name != library_name) {
    return InvalidArgumentError("library ", library, " export ", ordinal,
                                " is named '",
                                library_name ? library_name : "(null)", "'");
  }
  if (!table.ptrs[ordinal]) {
    return InvalidArgumentError("library entry point is null");
  }
  const kiln_export_descriptor_v1_t& descriptor = table.descriptors[ordinal];
  KILN_RETURN_IF_ERROR(CheckDescriptor(descriptor), "library ", library,
                       " export ", ordinal);
  if (descriptor.binding_count != ex.binding_count()) {
    return InvalidArgumentError("module declares ", ex.binding_count(),
                                " bindings but the library export has ",
                                descriptor.binding_count);
  }
  const auto* count = ex.workgroup_count();
  for (int d = 0; d < 3; ++d) {
    const uint32_t built = descriptor.workgroup_count[d];
    if (built != 0 && count->Get(d) != built) {
      return InvalidArgumentError(
          "module declares workgroup count ", count->Get(0), "x", count->Get(1),
          "x", count->Get(2), " but the library export was built for ",
          descriptor.workgroup_count[0], "x", descriptor.workgroup_count[1],
          "x", descriptor.workgroup_count[2],
          " (0: any count; the module is corrupt or was changed)");
    }
  }
  if (const auto* types = ex.binding_types(); types && types->size() != 0) {
    // The verifier checked the count; checked here too, so this never reads
    // past the library's array whatever ran before.
    if (types->size() != descriptor.binding_count) {
      return InvalidArgumentError("module declares ", types->size(),
                                  " bindings but the library export takes ",
                                  descriptor.binding_count);
    }
    for (uint32_t i = 0; i < types->size(); ++i) {
      const fb::TensorType* type = types->Get(i);
      const auto element_type = static_cast<ElementType>(type->element_type());
      const Shape shape =
          type->shape() ? Shape(type->shape()->begin(), type->shape()->end())
                        : Shape();
      if (!BindingTakes(descriptor.bindings[i], element_type, shape)) {
        return InvalidArgumentError("module declares binding ", i, " as ",
                                    FormatTensorType(element_type, shape),
                                    " but the library export takes ",
                                    DescribeBinding(descriptor.bindings[i]));
      }
    }
  }
  out->constant_dims.clear();
  for (uint32_t i = 0; i < descriptor.binding_count; ++i) {
    const kiln_binding_descriptor_v1_t& binding = descriptor.bindings[i];
    for (uint32_t d = 0; d < binding.rank; ++d) {
      if (binding.shape[d] == KILN_DIMENSION_ANY) {
        out->constant_dims.emplace_back(i, d);
      }
    }
  }
  if (ex.index_constant_count() != descriptor.index_constant_count) {
    return InvalidArgumentError(
        "module declares ", ex.index_constant_count(),
        " index constants but the library export takes ",
        descriptor.index_constant_count);
  }
  out->index_constant_count = descriptor.index_constant_count;
  const uint64_t constant_count =
      out->constant_dims.size() + uint64_t{out->index_constant_count};
  for (uint32_t i = 0; i < SizeOf(ex.workgroup_tiles()); ++i) {
    const uint32_t constant = ex.workgroup_tiles()->Get(i)->constant();
    if (constant >= constant_count) {
      return OutOfRangeError("workgroup tile ", i, " divides constant ",
                             constant, " but the library export takes ",
                             constant_count, " constants");
    }
  }
  for (uint32_t i = 0; i < SizeOf(ex.equal_constants()); ++i) {
    const uint32_t constant = ex.equal_constants()->Get(i);
    if (constant >= constant_count) {
      return OutOfRangeError("equal constants name constant ", constant,
                             " but the library export takes ", constant_count,
                             " constants");
    }
  }
  out->workgroup_tiles = ex.workgroup_tiles();
  for (uint32_t i = 0; i < SizeOf(ex.covering_tiles()); ++i) {
    const fb::CoveringTiles* row = ex.covering_tiles()->Get(i);
    if (row->tiles() >= constant_count || row->extent() >= constant_count) {
      return OutOfRangeError("covering tiles ", i, " name constants ",
                             row->tiles(), " and ", row->extent(),
                             " but the library export takes ", constant_count,
                             " constants");
    }
  }
  out->equal_constants = ex.equal_constants();
  out->covering_tiles = ex.covering_tiles();
  out->name = name;
  out->function = table.ptrs[ordinal];
  out->descriptor = &descriptor;
  // Equal to the built count wherever the code has one.
  for (int d = 0; d < 3; ++d) out->workgroup_count[d] = count->Get(d);
  return OkStatus();
}

// Every dispatch binds buffers of the types the code was built for, and
// exactly the bindings it writes are fresh results: an operand (a constant
// in module memory, the caller's input) is never written, and no result is
// handed out unwritten.
Status CheckDispatches(const Module::Impl& impl) {
  for (uint32_t f = 0; f < impl.functions.size(); ++f) {
    const FunctionPlan& plan = impl.functions[f];
    const auto* types = plan.function->body_type();
    const auto* body = plan.function->body();
    for (uint32_t pc = 0; pc < SizeOf(body); ++pc) {
      if (types->GetEnum<fb::Op>(pc) != fb::Op::DispatchOp) continue;
      const auto* op = static_cast<const fb::DispatchOp*>(body->Get(pc));
      const ResolvedExport& ex =
          impl.executables[op->executable()][op->export_index()];
      const uint32_t operand_count = SizeOf(op->operands());
      for (uint32_t i = 0; i < ex.descriptor->binding_count; ++i) {
        const bool is_operand = i < operand_count;
        const uint32_t slot = is_operand
                                  ? op->operands()->Get(i)
                                  : op->results()->Get(i - operand_count);
        const TensorType& type = plan.slots[slot].type;
        const kiln_binding_descriptor_v1_t& binding =
            ex.descriptor->bindings[i];
        const bool written = binding.access == KILN_BINDING_ACCESS_WRITE;
        if (!BindingTakes(binding, type.element_type, type.shape) ||
            written == is_operand) {
          return InvalidArgumentError(
              "function '", StringOf(plan.function->name()), "' instruction ",
              pc, ": dispatch of '", ex.name, "' binds ",
              is_operand ? "operand" : "result", " slot ", slot, " of type ",
              type.ToString(), " at binding ", i,
              " but the library export takes ", DescribeBinding(binding));
        }
      }
    }
  }
  return OkStatus();
}

// Whether this machine has every feature library `index` may use; the
// error says which it lacks ("library N: compiled for CPU ...").
Status CheckLibraryCpu(const fb::Module& module, uint32_t index) {
  const fb::Library* library = module.libraries()->Get(index);
  std::vector<std::string_view> features;
  for (uint32_t f = 0; f < SizeOf(library->cpu_features()); ++f) {
    features.push_back(StringOf(library->cpu_features()->Get(f)));
  }
  KILN_RETURN_IF_ERROR(
      CheckCpuFeatures(StringOf(library->cpu()), features, HostHasCpuFeature),
      "library ", index);
  return OkStatus();
}

// Variant `index` described: its libraries, their CPU and features, and
// whether this machine has them (the first library it lacks some for).
CodeVariantInfo DescribeVariant(const fb::Module& module, uint32_t index) {
  const fb::CodeVariant* variant = module.variants()->Get(index);
  CodeVariantInfo info;
  info.name = StringOf(variant->name());
  for (uint32_t e = 0; e < SizeOf(variant->executables()); ++e) {
    info.libraries.push_back(variant->executables()->Get(e)->library());
  }
  std::sort(info.libraries.begin(), info.libraries.end());
  info.libraries.erase(
      std::unique(info.libraries.begin(), info.libraries.end()),
      info.libraries.end());
  for (const uint32_t i : info.libraries) {
    const fb::Library* library = module.libraries()->Get(i);
    if (info.cpu.empty()) info.cpu = StringOf(library->cpu());
    for (uint32_t f = 0; f < SizeOf(library->cpu_features()); ++f) {
      const std::string_view feature =
          StringOf(library->cpu_features()->Get(f));
      if (std::find(info.cpu_features.begin(), info.cpu_features.end(),
                    feature) == info.cpu_features.end()) {
        info.cpu_features.push_back(feature);
      }
    }
    if (info.supported()) {
      const Status status = CheckLibraryCpu(module, i);
      if (!status.ok()) info.unsupported = status.message();
    }
  }
  return info;
}

}  // namespace

Status ChooseVariant(Module::Impl* impl, const ModuleLoadOptions& options) {
  const fb::Module& module = *impl->root;
  const uint32_t count = SizeOf(module.variants());
  impl->variants.clear();
  for (uint32_t v = 0; v < count; ++v) {
    impl->variants.push_back(DescribeVariant(module, v));
  }
  std::optional<uint32_t> chosen;
  if (!options.variant.empty()) {
    std::string names;
    for (uint32_t v = 0; v < count; ++v) {
      if (impl->variants[v].name == options.variant) chosen = v;
      names.append(v ? ", " : "").append(impl->variants[v].name);
    }
    if (!chosen) {
      return NotFoundError("no code variant '", options.variant,
                           "' (available: ", names, ")");
    }
    const CodeVariantInfo& info = impl->variants[*chosen];
    if (options.load_libraries && !info.supported()) {
      return UnimplementedError("code variant '", info.name,
                                "': ", info.unsupported);
    }
  } else {
    for (uint32_t v = 0; v < count && !chosen; ++v) {
      if (impl->variants[v].supported()) chosen = v;
    }
    if (!chosen && options.load_libraries) {
      // One variant: its own error, as for a module of one CPU.
      if (count == 1) return UnimplementedError(impl->variants[0].unsupported);
      std::string each;
      for (const CodeVariantInfo& info : impl->variants) {
        each.append(each.empty() ? "" : "; ")
            .append(
                StrCat("code variant '", info.name, "': ", info.unsupported));
      }
      return UnimplementedError(
          "no code variant of the module runs on this machine: ", each);
    }
    // Inspection: what cannot run may still be looked at.
    if (!chosen) chosen = 0;
  }
  impl->variant_index = *chosen;
  impl->variant = module.variants()->Get(*chosen);
  return OkStatus();
}

Status LoadLibraries(Module::Impl* impl, const ModuleLoadOptions& options) {
  KILN_ASSIGN_OR_RETURN(const std::string perf_directory,
                        PerfLibraryDirectory(options));
  const fb::Module& module = *impl->root;
  // This machine has their features (ChooseVariant).
  const std::vector<uint32_t>& libraries =
      impl->variants[impl->variant_index].libraries;
  impl->libraries.reserve(libraries.size());
  // Where each of the module's libraries is in impl->libraries.
  std::vector<uint32_t> loaded_index(SizeOf(module.libraries()),
                                     Module::Impl::kNoExport);
  for (const uint32_t i : libraries) {
    const fb::Library* library = module.libraries()->Get(i);
    const std::string debug_name =
        StrCat("kiln:", module.name() ? module.name()->string_view() : "",
               ":library", i);
    StatusOr<LoadedLibrary> loaded =
        LoadedLibrary::Load(library->data()->data(), library->data()->size(),
                            debug_name, perf_directory);
    if (!loaded.ok()) {
      return std::move(loaded).status().Prepend(StrCat("library ", i));
    }
    loaded_index[i] = static_cast<uint32_t>(impl->libraries.size());
    impl->libraries.push_back(std::move(loaded).value());
  }

  // Resolve every export against its library's description of itself.
  const auto* executables = impl->variant->executables();
  const uint32_t executable_count = SizeOf(executables);
  impl->executables.resize(executable_count);
  impl->library_exports.resize(impl->libraries.size());
  for (uint32_t i = 0; i < impl->libraries.size(); ++i) {
    impl->library_exports[i].assign(
        impl->libraries[i].library().exports.count,
        {Module::Impl::kNoExport, Module::Impl::kNoExport});
  }
  for (uint32_t i = 0; i < executable_count; ++i) {
    const fb::Executable* executable = executables->Get(i);
    const uint32_t loaded = loaded_index[executable->library()];
    const kiln_export_table_v1_t& table =
        impl->libraries[loaded].library().exports;
    const uint32_t export_count = SizeOf(executable->exports());
    std::vector<ResolvedExport>& resolved = impl->executables[i];
    resolved.resize(export_count);
    for (uint32_t e = 0; e < export_count; ++e) {
      const fb::Export* ex = executable->exports()->Get(e);
      KILN_RETURN_IF_ERROR(
          ResolveExport(*ex, table, executable->library(), &resolved[e]),
          "executable '", StringOf(executable->name()), "' export '",
          StringOf(ex->name()), "'");
      // In range: ResolveExport checked the ordinal.
      impl->library_exports[loaded][ex->library_ordinal()] = {i, e};
    }
  }
  KILN_RETURN_IF_ERROR(CheckDispatches(*impl));
  impl->libraries_loaded = true;
  return OkStatus();
}

}  // namespace kiln
