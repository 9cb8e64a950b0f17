//===- verifier.cc - Structural and semantic module verification ----------===//
//
// After this passes, the runtime trusts the module: every index is in range,
// every size and type is consistent, every buffer holds what is written into
// it, and in a function without branches every slot is written exactly once
// before it is read, and never read once its buffer was written again. (With
// branches a slot may be written again, and whether it was written, or its
// buffer written since, depends on the path taken: the Context checks that
// as it runs.) Each failure names what failed.
//
// This file is the entry point and checks the module's own tables
// (libraries, code variants with their executables and exports, constants,
// function names); the debug information and source table are
// verify_debug_info.cc's, each host function verify_function.cc's.
//
//===----------------------------------------------------------------------===//

#include <unistd.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "kiln/check_handler.h"
#include "module/module_impl.h"
#include "module/verifier_internal.h"

namespace kiln {

static_assert(static_cast<int>(fb::Compression::None) ==
                      static_cast<int>(SourceCompression::kNone) &&
                  static_cast<int>(fb::Compression::Zstd) ==
                      static_cast<int>(SourceCompression::kZstd) &&
                  static_cast<int>(fb::Compression::ZstdDictionary) ==
                      static_cast<int>(SourceCompression::kZstdDictionary) &&
                  fb::Compression::MAX == fb::Compression::ZstdDictionary,
              "kiln::SourceCompression must mirror fb::Compression");
static_assert(static_cast<int>(fb::ElementType::MAX) + 1 == kElementTypeCount,
              "kiln::ElementType must mirror fb::ElementType");
static_assert(static_cast<int>(fb::ElementType::F32) ==
                      static_cast<int>(ElementType::kF32) &&
                  static_cast<int>(fb::ElementType::BF16) ==
                      static_cast<int>(ElementType::kBF16) &&
                  static_cast<int>(fb::ElementType::I1) ==
                      static_cast<int>(ElementType::kI1) &&
                  static_cast<int>(fb::ElementType::I64) ==
                      static_cast<int>(ElementType::kI64) &&
                  static_cast<int>(fb::ElementType::F8E5M2) ==
                      static_cast<int>(ElementType::kF8E5M2) &&
                  static_cast<int>(fb::ElementType::F4E2M1FN) ==
                      static_cast<int>(ElementType::kF4E2M1FN),
              "kiln::ElementType values must equal fb::ElementType values");
static_assert(static_cast<int>(fb::CheckKind::True) ==
                      static_cast<int>(CheckKind::kTrue) &&
                  static_cast<int>(fb::CheckKind::False) ==
                      static_cast<int>(CheckKind::kFalse) &&
                  static_cast<int>(fb::CheckKind::AllTrue) ==
                      static_cast<int>(CheckKind::kAllTrue) &&
                  static_cast<int>(fb::CheckKind::Equal) ==
                      static_cast<int>(CheckKind::kEqual) &&
                  static_cast<int>(fb::CheckKind::AlmostEqual) ==
                      static_cast<int>(CheckKind::kAlmostEqual) &&
                  fb::CheckKind::MAX == fb::CheckKind::AlmostEqual,
              "kiln::CheckKind must mirror fb::CheckKind");

Status ConvertTensorType(const fb::TensorType* fb_type, WorkBudget* budget,
                         SlotInfo* out, Dimensions dimensions) {
  if (!fb_type) return InvalidArgumentError("missing type");
  const auto element_type = static_cast<uint32_t>(fb_type->element_type());
  if (!IsValidElementType(element_type)) {
    return InvalidArgumentError("invalid element type ", element_type);
  }
  out->type.element_type = static_cast<ElementType>(element_type);
  out->type.shape.clear();
  if (const auto* shape = fb_type->shape()) {
    // The FlatBuffers verifier checks the alignment of a vector's length, not
    // of its 8-byte elements (an empty vector has none to read).
    if (shape->size() != 0 &&
        reinterpret_cast<uintptr_t>(shape->data()) % alignof(int64_t) != 0) {
      return InvalidArgumentError("shape is not 8-byte aligned");
    }
    if (shape->size() > kMaxTensorRank) {
      return InvalidArgumentError("rank ", shape->size(),
                                  " exceeds the limit of ", kMaxTensorRank);
    }
    // A copy costs about a slot's bookkeeping plus its dimensions.
    KILN_RETURN_IF_ERROR(budget->Spend(8 + shape->size()));
    out->type.shape.assign(shape->begin(), shape->end());
  }
  out->dynamic = false;
  for (int64_t dim : out->type.shape) {
    out->dynamic = out->dynamic || dim == KILN_DYNAMIC_DIMENSION;
  }
  if (!out->dynamic) {
    return ComputeTensorSize(out->type.element_type, out->type.shape, nullptr,
                             &out->byte_size);
  }
  if (dimensions == Dimensions::kStatic) {
    return InvalidArgumentError("dynamic dimension in ", out->type.ToString());
  }
  // The static dimensions alone must make a valid size; the whole is known
  // only at run time.
  Shape static_part = out->type.shape;
  for (int64_t& dim : static_part) {
    if (dim == KILN_DYNAMIC_DIMENSION) dim = 1;
  }
  out->byte_size = 0;
  return ComputeTensorSize(out->type.element_type, static_part, nullptr,
                           nullptr);
}

namespace {

Status VerifyLibraries(const fb::Module& module) {
  for (uint32_t i = 0; i < SizeOf(module.libraries()); ++i) {
    const fb::Library* library = module.libraries()->Get(i);
    std::string_view format = StringOf(library->format());
    if (format != KILN_LIBRARY_FORMAT_ELF_X86_64) {
      return UnimplementedError("library ", i, ": unsupported format '", format,
                                "' (expected '" KILN_LIBRARY_FORMAT_ELF_X86_64
                                "')");
    }
    if (SizeOf(library->data()) == 0) {
      return InvalidArgumentError("library ", i, ": no data");
    }
    // Before anything parses the image: the ELF checks and the dynamic
    // loader trust much of it.
    const uint64_t hash =
        HashSource(library->data()->data(), library->data()->size());
    if (hash != library->hash()) {
      return DataLossError("library ", i, ": content hash mismatch (stored ",
                           FormatHash(library->hash()), ", computed ",
                           FormatHash(hash),
                           "): the library image is corrupted");
    }
  }
  return OkStatus();
}

// How messages name the parts of variant `v`: "code variant 'NAME' " in a
// module of several variants, nothing in a module of one CPU.
std::string VariantContext(const fb::Module& module, uint32_t v) {
  if (SizeOf(module.variants()) < 2) return "";
  return StrCat("code variant '", StringOf(module.variants()->Get(v)->name()),
                "' ");
}

// At least one variant, each with a name of its own.
Status VerifyVariantNames(const fb::Module& module) {
  const uint32_t count = SizeOf(module.variants());
  if (count == 0) {
    return InvalidArgumentError(
        "the module has no code variants (it needs at least one)");
  }
  std::unordered_set<std::string_view> names;
  for (uint32_t v = 0; v < count; ++v) {
    const std::string_view name = StringOf(module.variants()->Get(v)->name());
    if (name.empty()) {
      return InvalidArgumentError("code variant ", v, ": missing name");
    }
    if (!names.insert(name).second) {
      return InvalidArgumentError("code variant '", name, "' is defined twice");
    }
  }
  return OkStatus();
}

// Every executable and export of every variant, whether or not it is the one
// that runs.
Status VerifyExecutables(const fb::Module& module, WorkBudget* budget) {
  const uint32_t library_count = SizeOf(module.libraries());
  for (uint32_t v = 0; v < SizeOf(module.variants()); ++v) {
    const auto* executables = module.variants()->Get(v)->executables();
    for (uint32_t i = 0; i < SizeOf(executables); ++i) {
      const fb::Executable* executable = executables->Get(i);
      const std::string context =
          StrCat(VariantContext(module, v), "executable ", i, " '",
                 StringOf(executable->name()), "'");
      if (executable->library() >= library_count) {
        return OutOfRangeError(context, ": library ", executable->library(),
                               " out of range (", library_count, " libraries)");
      }
      for (uint32_t e = 0; e < SizeOf(executable->exports()); ++e) {
        const fb::Export* ex = executable->exports()->Get(e);
        if (StringOf(ex->name()).empty()) {
          return InvalidArgumentError(context, " export ", e, ": missing name");
        }
        const auto* count = ex->workgroup_count();
        if (SizeOf(count) != 3) {
          return InvalidArgumentError(context, " export '",
                                      StringOf(ex->name()),
                                      "': workgroup count has ", SizeOf(count),
                                      " entries (expected 3)");
        }
        uint64_t total = 1;
        for (uint32_t d = 0; d < 3; ++d) {
          if (count->Get(d) < 1) {
            return InvalidArgumentError(
                context, " export '", StringOf(ex->name()),
                "': workgroup count ", count->Get(0), "x", count->Get(1), "x",
                count->Get(2), " has a zero entry");
          }
          total *= count->Get(d);  // total <= 2^32 before: cannot overflow
          if (total > kMaxWorkgroupsPerDispatch) {
            return InvalidArgumentError(
                context, " export '", StringOf(ex->name()),
                "': workgroup count ", count->Get(0), "x", count->Get(1), "x",
                count->Get(2), " exceeds the limit of ",
                kMaxWorkgroupsPerDispatch, " workgroups");
          }
        }
        KILN_RETURN_IF_ERROR(VerifyExportDebugInfo(module, *ex, budget),
                             context, " export '", StringOf(ex->name()), "'");
      }
    }
  }
  return OkStatus();
}

// What host functions see of export `e` of an executable (`executable`
// names it) is what they see of `first` (the first variant's): name,
// bindings and their types, index constants.
Status CompareExports(const fb::Export& ex, const fb::Export& first,
                      const std::string& executable, uint32_t e,
                      const std::string& there) {
  const std::string_view name = StringOf(ex.name());
  if (name != StringOf(first.name())) {
    return InvalidArgumentError(executable, " export ", e, ": named '", name,
                                "' but '", StringOf(first.name()), "'", there);
  }
  const std::string here = StrCat(executable, " export '", name, "': ");
  if (ex.binding_count() != first.binding_count()) {
    return InvalidArgumentError(here, ex.binding_count(), " bindings but ",
                                first.binding_count(), there);
  }
  const uint32_t types = SizeOf(ex.binding_types());
  if (types != SizeOf(first.binding_types())) {
    return InvalidArgumentError(here, types, " binding types but ",
                                SizeOf(first.binding_types()), there);
  }
  for (uint32_t i = 0; i < types; ++i) {
    const TensorTypeView type = TensorTypeViewOf(*ex.binding_types()->Get(i));
    const TensorType other =
        TensorTypeViewOf(*first.binding_types()->Get(i)).ToTensorType();
    if (type != other) {
      return InvalidArgumentError(here, "binding ", i, " is ", type.ToString(),
                                  " but ", other.ToString(), there);
    }
  }
  if (ex.index_constant_count() != first.index_constant_count()) {
    return InvalidArgumentError(here, ex.index_constant_count(),
                                " index constants but ",
                                first.index_constant_count(), there);
  }
  return OkStatus();
}

// Every variant has the first's executables and exports, as host functions
// see them (the interface VerifyFunction checks dispatches against), and
// each library belongs to exactly one variant.
Status VerifyVariantInterfaces(const fb::Module& module) {
  const fb::CodeVariant& first = *module.variants()->Get(0);
  const uint32_t executable_count = SizeOf(first.executables());
  const std::string there =
      StrCat(" in code variant '", StringOf(first.name()), "'");
  for (uint32_t v = 1; v < SizeOf(module.variants()); ++v) {
    const fb::CodeVariant& variant = *module.variants()->Get(v);
    const std::string context =
        StrCat("code variant '", StringOf(variant.name()), "'");
    if (SizeOf(variant.executables()) != executable_count) {
      return InvalidArgumentError(context, ": ", SizeOf(variant.executables()),
                                  " executables but ", executable_count, there);
    }
    for (uint32_t i = 0; i < executable_count; ++i) {
      const fb::Executable& executable = *variant.executables()->Get(i);
      const fb::Executable& other = *first.executables()->Get(i);
      const std::string_view name = StringOf(executable.name());
      if (name != StringOf(other.name())) {
        return InvalidArgumentError(context, " executable ", i, ": named '",
                                    name, "' but '", StringOf(other.name()),
                                    "'", there);
      }
      const std::string at =
          StrCat(context, " executable ", i, " '", name, "'");
      const uint32_t export_count = SizeOf(executable.exports());
      if (export_count != SizeOf(other.exports())) {
        return InvalidArgumentError(at, ": ", export_count, " exports but ",
                                    SizeOf(other.exports()), there);
      }
      for (uint32_t e = 0; e < export_count; ++e) {
        KILN_RETURN_IF_ERROR(CompareExports(*executable.exports()->Get(e),
                                            *other.exports()->Get(e), at, e,
                                            there));
      }
    }
  }
  // The variant each library belongs to: only that variant's are loaded.
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> owner(SizeOf(module.libraries()), kNone);
  for (uint32_t v = 0; v < SizeOf(module.variants()); ++v) {
    const fb::CodeVariant& variant = *module.variants()->Get(v);
    for (uint32_t i = 0; i < SizeOf(variant.executables()); ++i) {
      const uint32_t library = variant.executables()->Get(i)->library();
      if (owner[library] != kNone && owner[library] != v) {
        return InvalidArgumentError(
            "library ", library, " is used by code variants '",
            StringOf(module.variants()->Get(owner[library])->name()), "' and '",
            StringOf(variant.name()),
            "' (each library belongs to one variant)");
      }
      owner[library] = v;
    }
  }
  for (uint32_t i = 0; i < owner.size(); ++i) {
    if (owner[i] == kNone) {
      return InvalidArgumentError("library ", i, " is used by no code variant");
    }
  }
  return OkStatus();
}

Status VerifyConstants(const fb::Module& module, const uint8_t* buffer,
                       WorkBudget* budget,
                       std::vector<SlotInfo>* constant_types) {
  constant_types->resize(SizeOf(module.constants()));
  for (uint32_t i = 0; i < SizeOf(module.constants()); ++i) {
    const fb::Constant* constant = module.constants()->Get(i);
    SlotInfo& info = (*constant_types)[i];
    KILN_RETURN_IF_ERROR(ConvertTensorType(constant->type(), budget, &info),
                         "constant ", i);
    const uint32_t data_size = SizeOf(constant->data());
    if (data_size != info.byte_size) {
      return InvalidArgumentError("constant ", i, ": data is ", data_size,
                                  " bytes, but ", info.type.ToString(),
                                  " needs ", info.byte_size);
    }
    // The schema promises force_align: 64 and kernels may rely on it.
    const size_t offset = data_size ? constant->data()->data() - buffer : 0;
    if (offset % 64 != 0) {
      return InvalidArgumentError("constant ", i, ": data at offset ", offset,
                                  " is not 64-byte aligned");
    }
  }
  return OkStatus();
}

}  // namespace

uint64_t EffectiveMaxBufferBytes(const ModuleLoadOptions& options) {
  if (options.max_buffer_bytes != 0) return options.max_buffer_bytes;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return kMaxTensorByteSize;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

Status VerifyModule(Module::Impl* impl, uint64_t max_buffer_bytes) {
  impl->max_buffer_bytes = max_buffer_bytes;
  const uint8_t* data = impl->data;
  const size_t size = impl->size;
  // The identifier sits at bytes 4..7; check it first for a clear message.
  if (size < 8) {
    return InvalidArgumentError("not a kiln module: file is too small (", size,
                                " bytes)");
  }
  if (!flatbuffers::BufferHasIdentifier(data, KILN_MODULE_IDENTIFIER)) {
    std::string found;
    for (int i = 4; i < 8; ++i) {
      const char c = static_cast<char>(data[i]);
      found.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return InvalidArgumentError("not a kiln module: file identifier is '",
                                found,
                                "', expected '" KILN_MODULE_IDENTIFIER "'");
  }
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return InvalidArgumentError("module is too large (", size,
                                " bytes; the format's limit is 2 GiB)");
  }
  // Tables shared through many offsets are verified once per reference, so
  // the default table budget (1M) could refuse big, valid modules; this one
  // still bounds the work.
  flatbuffers::Verifier::Options options;
  options.max_tables = 1u << 24;
  flatbuffers::Verifier verifier(data, size, options);
  if (!fb::VerifyModuleBuffer(verifier)) {
    return DataLossError(
        "module failed FlatBuffers verification (truncated or corrupted)");
  }
  const fb::Module& module = *fb::GetModule(data);
  impl->root = &module;

  if (module.version() != kModuleVersion) {
    return UnimplementedError("unsupported module version ", module.version(),
                              " (this runtime reads version ", kModuleVersion,
                              ")");
  }
  KILN_RETURN_IF_ERROR(VerifyLibraries(module));
  KILN_RETURN_IF_ERROR(VerifyCaptureStages(module));
  KILN_RETURN_IF_ERROR(VerifySourceTable(module, max_buffer_bytes));
  WorkBudget budget(size);
  KILN_RETURN_IF_ERROR(VerifyVariantNames(module));
  KILN_RETURN_IF_ERROR(VerifyExecutables(module, &budget));
  KILN_RETURN_IF_ERROR(VerifyVariantInterfaces(module));
  for (uint32_t i = 0; i < SizeOf(module.libraries()); ++i) {
    KILN_RETURN_IF_ERROR(VerifyLibraryLines(module, i, max_buffer_bytes),
                         "library ", i);
  }
  std::vector<SlotInfo> constant_types;
  KILN_RETURN_IF_ERROR(VerifyConstants(module, data, &budget, &constant_types));

  const uint32_t function_count = SizeOf(module.functions());
  impl->functions.resize(function_count);
  impl->signatures.resize(function_count);
  std::unordered_set<std::string_view> names;
  for (uint32_t i = 0; i < function_count; ++i) {
    const fb::Function* function = module.functions()->Get(i);
    const std::string_view name = StringOf(function->name());
    if (name.empty()) {
      return InvalidArgumentError("function ", i, ": missing name");
    }
    if (!names.insert(name).second) {
      return InvalidArgumentError("function '", name, "' is defined twice");
    }
    KILN_RETURN_IF_ERROR(
        VerifyFunction(module, constant_types, max_buffer_bytes, &budget,
                       *function, &impl->functions[i], &impl->signatures[i]));
  }
  impl->sources = SourceTable(&module);
  impl->library_lines = std::make_unique<UnpackedTables<LibraryLineRow>>(
      SizeOf(module.libraries()));
  return OkStatus();
}

}  // namespace kiln
