//===- library.cc - Loading native executable libraries from memory -------===//
//
// Each Library blob is written to an anonymous memfd and dlopen'ed through
// /proc/PID/fd/N, so nothing touches the file system; for perf
// (ModuleLoadOptions::perf_visible_libraries, KILN_PERF=1) it is a file on
// disk instead, which perf reads after the process exits. Before that the
// image is checked to run no code at load (no initializers, IFUNC
// relocations or dependencies), to map no writable code, and to give the
// loader no table outside its mapped segments to read. The library must
// answer kiln_executable_library_query for ABI version 2, and describes each
// export: every Export of the module, and every dispatch of it, must match
// what the code was built for (workgroup count, binding types, which
// bindings it writes) before anything runs.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "cpu/host_cpu_features.h"
#include "kiln/file_descriptor.h"
#include "kiln/output_files.h"
#include "kiln/sources.h"
#include "module/module_impl.h"

namespace kiln {

namespace {

bool RangeInside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace

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

// The dynamic loader knows a library by its path string first, and an object
// may outlive its dlclose (RTLD_NODELETE, or a profiler such as Tracy that
// makes dlclose a no-op): dlopen of a reused /proc/PID/fd/N would then
// return the old code. So each load spells the path differently: the load's
// number in binary as no-op segments, "./" for 1 and "/" for 0, between
// "fd/" and N (load 6 of fd 5: "/proc/PID/fd/././/5"). A new memfd is a new
// inode, so the loader's second test (device and inode) finds nothing
// either. The directory is /proc/PID, not /proc/self: a debugger reads the
// library by the name the loader records, and /proc/self there would be
// the debugger's own descriptor (gdb blocks reading a pipe of its own).
std::string UniqueLibraryPath(int fd) {
  static std::atomic<uint64_t> next_load{0};
  const uint64_t load = next_load.fetch_add(1, std::memory_order_relaxed);
  std::string path = StrCat("/proc/", ::getpid(), "/fd/");
  for (int bit = 63 - (load ? __builtin_clzll(load) : 64); bit >= 0; --bit) {
    path += (load >> bit) & 1 ? "./" : "/";
  }
  path += std::to_string(fd);
  return path;
}

Status WriteAll(int fd, const uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "cannot write library to memfd");
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

}  // namespace

namespace {

// File offset of `size` bytes at virtual address `address`, when a loadable
// segment holds them in the image.
std::optional<uint64_t> OffsetOfAddress(const uint8_t* data,
                                        const Elf64_Ehdr& header,
                                        uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type != PT_LOAD || address < segment.p_vaddr) continue;
    const uint64_t delta = address - segment.p_vaddr;
    if (RangeInside(delta, size, segment.p_filesz)) {
      return segment.p_offset + delta;
    }
  }
  return std::nullopt;
}

// Whether a writable loadable segment spans `size` bytes at `address` once
// mapped (past its file bytes too: the loader zeroes the rest).
bool WritableSegmentHolds(const uint8_t* data, const Elf64_Ehdr& header,
                          uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_W) &&
        address >= segment.p_vaddr &&
        RangeInside(address - segment.p_vaddr, size, segment.p_memsz)) {
      return true;
    }
  }
  return false;
}

// The file offset of virtual address `address` in a loadable segment and
// how many of the segment's file bytes follow it.
std::optional<std::pair<uint64_t, uint64_t>> SegmentTail(
    const uint8_t* data, const Elf64_Ehdr& header, uint64_t address) {
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type != PT_LOAD || address < segment.p_vaddr ||
        address - segment.p_vaddr >= segment.p_filesz) {
      continue;
    }
    const uint64_t delta = address - segment.p_vaddr;
    return std::pair{segment.p_offset + delta, segment.p_filesz - delta};
  }
  return std::nullopt;
}

uint32_t ReadWord(const uint8_t* at) {
  uint32_t word;
  std::memcpy(&word, at, sizeof(word));
  return word;
}

// The dynamic entries the loader follows: the tables it reads once the
// image is mapped (addresses relative to the load address) and their sizes.
struct DynamicTables {
  std::optional<uint64_t> strtab, string_size, symtab, hash, gnu_hash;
  std::optional<uint64_t> rela, rela_entry, pltgot;
  uint64_t rela_size = 0, jmprel = 0, jmprel_size = 0;
  // DT_SONAME, DT_RPATH and DT_RUNPATH: offsets into the string table.
  std::vector<std::pair<int64_t, uint64_t>> names;
};

// The file offset of the table `what` at `address`, whose `size` bytes must
// all lie in one loaded segment: the loader reads it there after mapping.
StatusOr<uint64_t> TableOffset(const uint8_t* data, const Elf64_Ehdr& header,
                               std::string_view what, uint64_t address,
                               uint64_t size) {
  const std::optional<uint64_t> offset =
      OffsetOfAddress(data, header, address, size);
  if (!offset) {
    return DataLossError(what, " at address ", address, " (", size,
                         " bytes) lies outside the image's loaded segments");
  }
  return *offset;
}

// How many symbols the loader may index through DT_HASH: nchain, which
// every bucket and chain entry stays below.
StatusOr<uint64_t> CheckSysvHash(const uint8_t* data, const Elf64_Ehdr& header,
                                 uint64_t address) {
  KILN_ASSIGN_OR_RETURN(const uint64_t at,
                        TableOffset(data, header, "DT_HASH table", address, 8));
  const uint32_t buckets = ReadWord(data + at);
  const uint32_t chains = ReadWord(data + at + 4);
  // A lookup takes the hash modulo the bucket count.
  if (buckets == 0) return DataLossError("DT_HASH table has no buckets");
  const uint64_t words = 2 + uint64_t{buckets} + chains;
  KILN_RETURN_IF_ERROR(
      TableOffset(data, header, "DT_HASH table", address, words * 4).status());
  for (uint64_t i = 2; i < words; ++i) {
    const uint32_t symbol = ReadWord(data + at + i * 4);
    if (symbol >= chains) {
      return DataLossError("DT_HASH table names symbol ", symbol, " of ",
                           chains);
    }
  }
  return chains;
}

// How many symbols the loader may index through DT_GNU_HASH: past the
// chain that ends last. Every bucket starts a chain at or after the first
// hashed symbol, and a chain ends at its first entry with bit 0 set, so the
// chain of the highest bucket ends last.
StatusOr<uint64_t> CheckGnuHash(const uint8_t* data, const Elf64_Ehdr& header,
                                uint64_t address) {
  constexpr std::string_view kWhat = "DT_GNU_HASH table";
  KILN_ASSIGN_OR_RETURN(const uint64_t at,
                        TableOffset(data, header, kWhat, address, 16));
  const uint32_t buckets = ReadWord(data + at);
  const uint32_t first_symbol = ReadWord(data + at + 4);
  const uint32_t bloom_words = ReadWord(data + at + 8);
  // The loader masks Bloom filter indices with bloom_words - 1.
  if (buckets == 0 || bloom_words == 0 ||
      (bloom_words & (bloom_words - 1)) != 0) {
    return DataLossError(kWhat, " has ", buckets, " buckets and ", bloom_words,
                         " Bloom filter words (at least 1, and a power of 2, "
                         "are needed)");
  }
  const uint64_t chain_start = 16 + uint64_t{bloom_words} * 8 + buckets * 4ull;
  KILN_RETURN_IF_ERROR(
      TableOffset(data, header, kWhat, address, chain_start).status());
  uint32_t last_bucket = 0;
  for (uint32_t i = 0; i < buckets; ++i) {
    const uint32_t symbol =
        ReadWord(data + at + chain_start - buckets * 4ull + i * 4ull);
    if (symbol != 0 && symbol < first_symbol) {
      return DataLossError(kWhat, " bucket ", i, " starts at symbol ", symbol,
                           ", before the first hashed symbol ", first_symbol);
    }
    last_bucket = std::max(last_bucket, symbol);
  }
  if (last_bucket == 0) return uint64_t{first_symbol};
  const std::optional<std::pair<uint64_t, uint64_t>> chain = SegmentTail(
      data, header, address + chain_start + (last_bucket - first_symbol) * 4);
  for (uint64_t i = 0; chain && i + 4 <= chain->second; i += 4) {
    if (ReadWord(data + chain->first + i) & 1) return last_bucket + i / 4 + 1;
  }
  return DataLossError(kWhat, ": the chain of symbol ", last_bucket,
                       " does not end inside the image's loaded segments");
}

// What the dynamic loader would do beyond mapping and relocating: run code
// (initializers, IFUNC resolvers), load other libraries, write code; and
// every table it reads or writes through must lie in the mapped image, or
// the loader itself would fault.
Status CheckDynamicSection(const uint8_t* data, const Elf64_Ehdr& header,
                           const Elf64_Phdr& dynamic) {
  // The loader reads the entries where they are mapped: there must be the
  // bytes checked here.
  if (OffsetOfAddress(data, header, dynamic.p_vaddr, dynamic.p_filesz) !=
      dynamic.p_offset) {
    return DataLossError(
        "the dynamic section is not mapped from its own file bytes");
  }
  DynamicTables tables;
  bool terminated = false;
  const uint64_t count = dynamic.p_filesz / sizeof(Elf64_Dyn);
  for (uint64_t i = 0; i < count && !terminated; ++i) {
    Elf64_Dyn entry;
    std::memcpy(&entry, data + dynamic.p_offset + i * sizeof(Elf64_Dyn),
                sizeof(entry));
    switch (entry.d_tag) {
      case DT_NULL:
        terminated = true;
        break;
      case DT_INIT:
      case DT_INIT_ARRAY:
      case DT_PREINIT_ARRAY:
      case DT_FINI:
      case DT_FINI_ARRAY:
        return InvalidArgumentError(
            "library has initializers or finalizers (dynamic tag ", entry.d_tag,
            "): the dynamic loader would run its code at load or unload");
      case DT_NEEDED:
      case DT_AUXILIARY:
      case DT_FILTER:
        return InvalidArgumentError(
            "library depends on other libraries (dynamic tag ", entry.d_tag,
            "): kiln libraries are self-contained");
      case DT_TEXTREL:
      case DT_FLAGS:
        // DF_TEXTREL is DT_TEXTREL's newer spelling.
        if (entry.d_tag == DT_TEXTREL || (entry.d_un.d_val & DF_TEXTREL)) {
          return InvalidArgumentError(
              "library has text relocations: the loader would make its code "
              "writable");
        }
        break;
      // Tables kiln libraries never have, whose contents the loader would
      // follow further (version indices, packed relocation bitmaps).
      case DT_VERSYM:
      case DT_VERDEF:
      case DT_VERNEED:
        return InvalidArgumentError("library has symbol versions (dynamic tag ",
                                    entry.d_tag, "): kiln libraries have none");
      case DT_RELR:
        return InvalidArgumentError(
            "library has packed relative relocations (DT_RELR): kiln "
            "libraries use RELA");
      case DT_REL:
        return InvalidArgumentError(
            "library uses REL relocations (x86-64 uses RELA)");
      case DT_RELA:
        tables.rela = entry.d_un.d_ptr;
        break;
      case DT_RELASZ:
        tables.rela_size = entry.d_un.d_val;
        break;
      case DT_RELAENT:
        tables.rela_entry = entry.d_un.d_val;
        break;
      case DT_JMPREL:
        tables.jmprel = entry.d_un.d_ptr;
        break;
      case DT_PLTRELSZ:
        tables.jmprel_size = entry.d_un.d_val;
        break;
      case DT_PLTGOT:
        tables.pltgot = entry.d_un.d_ptr;
        break;
      case DT_SYMTAB:
        tables.symtab = entry.d_un.d_ptr;
        break;
      case DT_SYMENT:
        // The loader indexes symbols by sizeof(Elf64_Sym) whatever this
        // says.
        if (entry.d_un.d_val != sizeof(Elf64_Sym)) {
          return InvalidArgumentError("library's symbols are ",
                                      entry.d_un.d_val, " bytes each, not ",
                                      sizeof(Elf64_Sym));
        }
        break;
      case DT_STRTAB:
        tables.strtab = entry.d_un.d_ptr;
        break;
      case DT_STRSZ:
        tables.string_size = entry.d_un.d_val;
        break;
      case DT_HASH:
        tables.hash = entry.d_un.d_ptr;
        break;
      case DT_GNU_HASH:
        tables.gnu_hash = entry.d_un.d_ptr;
        break;
      case DT_SONAME:
      case DT_RPATH:
      case DT_RUNPATH:
        tables.names.emplace_back(entry.d_tag, entry.d_un.d_val);
        break;
      case DT_PLTREL:
        if (entry.d_un.d_val != DT_RELA) {
          return InvalidArgumentError(
              "library uses REL relocations (x86-64 "
              "uses RELA)");
        }
        break;
      default:
        break;
    }
  }
  // The loader reads entries up to DT_NULL, wherever that is.
  if (!terminated) {
    return DataLossError("the dynamic section has no DT_NULL entry");
  }
  // Every library is looked up by name (its query function), through a
  // hash table, symbols and their names.
  if (!tables.strtab || !tables.string_size || !tables.symtab ||
      !(tables.hash || tables.gnu_hash)) {
    return InvalidArgumentError(
        "library's dynamic section lacks a string table (DT_STRTAB, "
        "DT_STRSZ), a symbol table (DT_SYMTAB) or a hash table (DT_HASH, "
        "DT_GNU_HASH)");
  }
  // Ending with a NUL, the table holds every string it starts.
  KILN_ASSIGN_OR_RETURN(const uint64_t strings,
                        TableOffset(data, header, "string table",
                                    *tables.strtab, *tables.string_size));
  if (*tables.string_size == 0 ||
      data[strings + *tables.string_size - 1] != '\0') {
    return DataLossError("the string table does not end with a NUL byte");
  }
  for (const auto& [tag, name] : tables.names) {
    if (name >= *tables.string_size) {
      return DataLossError("dynamic tag ", tag, " names string ", name,
                           ", past the ", *tables.string_size,
                           "-byte string table");
    }
  }
  uint64_t symbol_count = 0;
  if (tables.hash) {
    KILN_ASSIGN_OR_RETURN(symbol_count,
                          CheckSysvHash(data, header, *tables.hash));
  }
  if (tables.gnu_hash) {
    KILN_ASSIGN_OR_RETURN(const uint64_t hashed,
                          CheckGnuHash(data, header, *tables.gnu_hash));
    symbol_count = std::max(symbol_count, hashed);
  }
  if (symbol_count > UINT64_MAX / sizeof(Elf64_Sym)) {
    return DataLossError("the hash tables name ", symbol_count, " symbols");
  }
  KILN_ASSIGN_OR_RETURN(
      const uint64_t symbols,
      TableOffset(data, header, "symbol table", *tables.symtab,
                  symbol_count * sizeof(Elf64_Sym)));
  for (uint64_t i = 0; i < symbol_count; ++i) {
    Elf64_Sym symbol;
    std::memcpy(&symbol, data + symbols + i * sizeof(Elf64_Sym),
                sizeof(symbol));
    if (symbol.st_name >= *tables.string_size) {
      return DataLossError("symbol ", i, " names string ", symbol.st_name,
                           ", past the ", *tables.string_size,
                           "-byte string table");
    }
  }
  // The loader writes two words of the GOT for lazy binding.
  if (tables.pltgot && !WritableSegmentHolds(data, header, *tables.pltgot,
                                             3 * sizeof(uint64_t))) {
    return DataLossError("the GOT at address ", *tables.pltgot,
                         " lies outside the image's writable segments");
  }
  if (tables.rela && tables.rela_entry != sizeof(Elf64_Rela)) {
    return InvalidArgumentError(
        "library's relocations are ", tables.rela_entry.value_or(0),
        " bytes each (DT_RELAENT), not ", sizeof(Elf64_Rela));
  }
  // An IRELATIVE relocation calls a resolver in the library while it loads,
  // and so does one bound to an IFUNC symbol the library defines.
  for (auto [address, bytes] :
       {std::pair{tables.rela.value_or(0), tables.rela_size},
        std::pair{tables.jmprel, tables.jmprel_size}}) {
    if (bytes == 0) continue;
    KILN_ASSIGN_OR_RETURN(
        const uint64_t offset,
        TableOffset(data, header, "relocation table", address, bytes));
    for (uint64_t at = 0; at + sizeof(Elf64_Rela) <= bytes;
         at += sizeof(Elf64_Rela)) {
      Elf64_Rela relocation;
      std::memcpy(&relocation, data + offset + at, sizeof(relocation));
      const uint32_t type = ELF64_R_TYPE(relocation.r_info);
      if (type == R_X86_64_IRELATIVE) {
        return InvalidArgumentError(
            "library has IFUNC relocations: the loader would run its "
            "resolvers at load");
      }
      // Each writes a word (code is never written: no text relocations).
      if (type != R_X86_64_NONE &&
          !WritableSegmentHolds(data, header, relocation.r_offset,
                                sizeof(uint64_t))) {
        return DataLossError("relocation at address ", relocation.r_offset,
                             " writes outside the image's writable segments");
      }
      const uint64_t symbol = ELF64_R_SYM(relocation.r_info);
      if (symbol == 0) continue;
      if (symbol >= symbol_count) {
        return DataLossError("relocation names symbol ", symbol,
                             ", which lies outside the symbol table (",
                             symbol_count, " symbols)");
      }
      Elf64_Sym entry;
      std::memcpy(&entry, data + symbols + symbol * sizeof(Elf64_Sym),
                  sizeof(entry));
      if (ELF64_ST_TYPE(entry.st_info) == STT_GNU_IFUNC &&
          entry.st_shndx != SHN_UNDEF) {
        return InvalidArgumentError(
            "library binds a relocation to its IFUNC symbol ", symbol,
            ": the loader would run its resolver at load");
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status CheckElfImage(const uint8_t* data, size_t size) {
  Elf64_Ehdr header;
  if (size < SELFMAG || std::memcmp(data, ELFMAG, SELFMAG) != 0) {
    return InvalidArgumentError("not an ELF file");
  }
  if (size < sizeof(header)) return DataLossError("truncated ELF header");
  std::memcpy(&header, data, sizeof(header));
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return InvalidArgumentError("not a 64-bit little-endian ELF file");
  }
  if (header.e_machine != EM_X86_64) {
    return InvalidArgumentError("ELF machine ", header.e_machine,
                                " is not x86-64");
  }
  if (header.e_type != ET_DYN) {
    return InvalidArgumentError("ELF file is not a shared object (type ",
                                header.e_type, ")");
  }
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(Elf64_Phdr)) {
    return InvalidArgumentError("bad ELF program header table");
  }
  if (!RangeInside(header.e_phoff,
                   uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), size)) {
    return DataLossError("truncated ELF: program headers extend past the end");
  }
  std::optional<Elf64_Phdr> dynamic;
  bool has_stack_header = false;
  // The end of the pages the loadable segments before map: the loader maps
  // each segment's pages over whatever the ones before put there, so a
  // shared page would show other bytes, and other permissions, than the
  // ones checked here.
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  uint64_t mapped_end = 0;
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type == PT_NULL) continue;
    if (!RangeInside(segment.p_offset, segment.p_filesz, size)) {
      return DataLossError("truncated ELF: segment ", i, " (bytes ",
                           segment.p_offset, "+", segment.p_filesz,
                           ") extends past the end of the ", size,
                           "-byte image");
    }
    if (segment.p_type == PT_LOAD) {
      // The file bytes are mapped whole, even past the memory size.
      const uint64_t mapped =
          std::max<uint64_t>(segment.p_memsz, segment.p_filesz);
      if (segment.p_vaddr > UINT64_MAX - page ||
          mapped > UINT64_MAX - page - segment.p_vaddr) {
        return InvalidArgumentError("ELF segment ", i,
                                    " wraps around the address space");
      }
      if (segment.p_vaddr / page * page < mapped_end) {
        return InvalidArgumentError(
            "ELF segment ", i,
            " shares a page with a loadable segment before it, or comes "
            "before one");
      }
      mapped_end = (segment.p_vaddr + mapped + page - 1) / page * page;
    }
    const bool writable_code =
        (segment.p_flags & PF_W) != 0 && (segment.p_flags & PF_X) != 0;
    if (segment.p_type == PT_LOAD && writable_code) {
      return InvalidArgumentError("ELF segment ", i,
                                  " is both writable and executable");
    }
    if (segment.p_type == PT_GNU_STACK) {
      has_stack_header = true;
      if (segment.p_flags & PF_X) {
        return InvalidArgumentError(
            "library asks for an executable stack: the loader would make "
            "every thread's stack executable");
      }
    }
    if (segment.p_type == PT_INTERP) {
      return InvalidArgumentError("library names a program interpreter");
    }
    if (segment.p_type == PT_DYNAMIC) {
      if (dynamic) return InvalidArgumentError("two dynamic segments");
      dynamic = segment;
    }
  }
  // Without the header the loader defaults to an executable stack.
  if (!has_stack_header) {
    return InvalidArgumentError(
        "library has no PT_GNU_STACK header: the loader would make every "
        "thread's stack executable");
  }
  if (dynamic) {
    KILN_RETURN_IF_ERROR(CheckDynamicSection(data, header, *dynamic));
  }
  return OkStatus();
}

StatusOr<uint64_t> LibraryImageEnd(const uint8_t* data, size_t size) {
  KILN_RETURN_IF_ERROR(CheckElfImage(data, size));
  Elf64_Ehdr header;
  std::memcpy(&header, data, sizeof(header));
  uint64_t end = 0;
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    if (segment.p_type != PT_LOAD) continue;
    if (segment.p_memsz > UINT64_MAX - segment.p_vaddr) {
      return InvalidArgumentError("ELF segment ", i,
                                  " wraps around the address space");
    }
    end = std::max(end, segment.p_vaddr + segment.p_memsz);
  }
  return end;
}

//===----------------------------------------------------------------------===//
// LoadedLibrary
//===----------------------------------------------------------------------===//

LoadedLibrary::~LoadedLibrary() { Reset(); }

LoadedLibrary::LoadedLibrary(LoadedLibrary&& other) noexcept
    : fd_(other.fd_),
      base_(other.base_),
      handle_(other.handle_),
      library_(other.library_) {
  other.fd_ = -1;
  other.base_ = 0;
  other.handle_ = nullptr;
  other.library_ = nullptr;
}

LoadedLibrary& LoadedLibrary::operator=(LoadedLibrary&& other) noexcept {
  if (this != &other) {
    Reset();
    std::swap(fd_, other.fd_);
    std::swap(base_, other.base_);
    std::swap(handle_, other.handle_);
    std::swap(library_, other.library_);
  }
  return *this;
}

void RetainUntilExit(std::vector<LoadedLibrary> libraries) {
  static std::mutex* mutex = new std::mutex();
  // Never destroyed: a profiler's thread may read them during exit.
  static std::vector<LoadedLibrary>* retained =
      new std::vector<LoadedLibrary>();
  std::lock_guard<std::mutex> lock(*mutex);
  for (LoadedLibrary& library : libraries) {
    retained->push_back(std::move(library));
  }
}

void LoadedLibrary::Reset() {
  // dlclose before closing the fd, whose number names the mapped file.
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
  handle_ = nullptr;
  fd_ = -1;
  base_ = 0;
  library_ = nullptr;
}

namespace {

// Opens `path` and returns its descriptor when the file holds exactly
// `data`, or none when it is missing or holds other bytes. The descriptor,
// not the name, is what gets loaded, so a file replaced after the
// comparison changes nothing; the file must be this user's and writable by
// no one else, who could otherwise rewrite its pages after the comparison.
StatusOr<std::optional<FileDescriptor>> OpenIfHolds(const std::string& path,
                                                    const uint8_t* data,
                                                    size_t size) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::optional<FileDescriptor>();
    return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  }
  struct stat info;
  if (::fstat(fd.get(), &info) != 0) {
    return ErrnoToStatus(errno, StrCat("cannot stat '", path, "'"));
  }
  if (!S_ISREG(info.st_mode) || info.st_uid != ::geteuid() ||
      (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return FailedPreconditionError(
        "'", path,
        "' is not a regular file of this user writable only by "
        "it: remove it");
  }
  if (static_cast<uint64_t>(info.st_size) != size) {
    return std::optional<FileDescriptor>();
  }
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (mapped == MAP_FAILED) {
    return ErrnoToStatus(errno, StrCat("cannot map '", path, "'"));
  }
  const bool same = std::memcmp(mapped, data, size) == 0;
  ::munmap(mapped, size);
  if (!same) return std::optional<FileDescriptor>();
  return std::optional<FileDescriptor>(std::move(fd));
}

// A descriptor of <hash>.so in `directory` holding `data`, written there
// first when missing (or holding other bytes: a hash collision or a damaged
// file is replaced).
StatusOr<FileDescriptor> OpenPerfLibraryFile(const std::string& directory,
                                             const uint8_t* data, size_t size) {
  KILN_ASSIGN_OR_RETURN(OutputDirectory out,
                        OutputDirectory::OpenOrCreate(directory));
  // FormatHash's digits without its "0x".
  const std::string name =
      StrCat(FormatHash(HashSource(data, size)).substr(2), ".so");
  const std::string path = out.FilePath(name);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  KILN_ASSIGN_OR_RETURN(std::optional<FileDescriptor> fd,
                        OpenIfHolds(path, data, size));
  for (IfFileExists if_exists : {IfFileExists::kFail, IfFileExists::kReplace}) {
    if (fd) return std::move(*fd);
    // Writable by this user alone whatever the umask (002 lets the group
    // write), as OpenIfHolds requires.
    Status written = out.WriteFile(name, bytes, if_exists, 0644);
    // Written meanwhile by another process loading the same library.
    if (!written.ok() && written.code() != StatusCode::kFailedPrecondition) {
      return written;
    }
    KILN_ASSIGN_OR_RETURN(fd, OpenIfHolds(path, data, size));
  }
  if (fd) return std::move(*fd);
  return DataLossError("'", path, "' does not hold the library just written");
}

}  // namespace

StatusOr<LoadedLibrary> LoadedLibrary::Load(const uint8_t* data, size_t size,
                                            std::string_view debug_name,
                                            const std::string& perf_directory) {
  KILN_RETURN_IF_ERROR(CheckElfImage(data, size));
  LoadedLibrary loaded;
  if (!perf_directory.empty()) {
    KILN_ASSIGN_OR_RETURN(FileDescriptor file,
                          OpenPerfLibraryFile(perf_directory, data, size));
    loaded.fd_ = file.Release();
  } else {
    // memfd names are limited to 249 bytes.
    const std::string memfd_name(debug_name.substr(0, 200));
    loaded.fd_ = memfd_create(memfd_name.c_str(), MFD_CLOEXEC);
    if (loaded.fd_ < 0) return ErrnoToStatus(errno, "memfd_create failed");
    KILN_RETURN_IF_ERROR(WriteAll(loaded.fd_, data, size));
  }

  const std::string path = UniqueLibraryPath(loaded.fd_);
  loaded.handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded.handle_) {
    const char* error = dlerror();
    return FailedPreconditionError("dlopen failed: ",
                                   error ? error : "unknown error");
  }
  struct link_map* map = nullptr;
  if (dlinfo(loaded.handle_, RTLD_DI_LINKMAP, &map) != 0 || !map) {
    const char* error = dlerror();
    return FailedPreconditionError("dlinfo failed: ",
                                   error ? error : "unknown error");
  }
  loaded.base_ = static_cast<uintptr_t>(map->l_addr);
  auto query = reinterpret_cast<kiln_executable_library_query_fn_t>(
      dlsym(loaded.handle_, KILN_EXECUTABLE_LIBRARY_QUERY_NAME));
  if (!query) {
    return InvalidArgumentError("no symbol '" KILN_EXECUTABLE_LIBRARY_QUERY_NAME
                                "'");
  }
  const kiln_executable_library_header_t** header_ptr =
      query(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST, nullptr);
  if (!header_ptr || !*header_ptr) {
    return UnimplementedError(
        "library cannot serve executable library ABI version ",
        static_cast<int>(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST),
        " (a module compiled by an older kiln: recompile it with this one)");
  }
  const uint32_t version = (*header_ptr)->version;
  if (version != KILN_EXECUTABLE_LIBRARY_VERSION_LATEST) {
    return UnimplementedError(
        "library answered with ABI version ", version,
        " (this runtime supports version ",
        static_cast<int>(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST), ")");
  }
  // The query returns a pointer to the header pointer, which is the first
  // member of the versioned library structure.
  loaded.library_ =
      reinterpret_cast<const kiln_executable_library_v1_t*>(header_ptr);
  const kiln_export_table_v1_t& exports = loaded.library_->exports;
  if (exports.count > 0 &&
      (!exports.ptrs || !exports.names || !exports.descriptors)) {
    return InvalidArgumentError("export table has ", exports.count,
                                " entries but null arrays");
  }
  return loaded;
}

//===----------------------------------------------------------------------===//
// Loading every library of a module
//===----------------------------------------------------------------------===//

Status CheckLibraryImages(const fb::Module& module) {
  const uint32_t library_count =
      module.libraries() ? module.libraries()->size() : 0;
  for (uint32_t i = 0; i < library_count; ++i) {
    const auto* data = module.libraries()->Get(i)->data();
    KILN_RETURN_IF_ERROR(CheckElfImage(data->data(), data->size()), "library ",
                         i);
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

}  // namespace

namespace {

// Where perf-visible libraries go, "" when perf was not asked for.
StatusOr<std::string> PerfLibraryDirectory(const ModuleLoadOptions& options) {
  const char* requested = std::getenv("KILN_PERF");
  if (!options.perf_visible_libraries &&
      !(requested && std::string_view(requested) == "1")) {
    return std::string();
  }
  if (const char* dir = std::getenv("KILN_PERF_DIR"); dir && *dir) {
    return std::string(dir);
  }
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) {
    return StrCat(cache, "/kiln/libraries");
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return StrCat(home, "/.cache/kiln/libraries");
  }
  return FailedPreconditionError(
      "libraries visible to perf need a directory: set KILN_PERF_DIR (or "
      "XDG_CACHE_HOME or HOME)");
}

}  // namespace

Status LoadLibraries(Module::Impl* impl, const ModuleLoadOptions& options) {
  KILN_ASSIGN_OR_RETURN(const std::string perf_directory,
                        PerfLibraryDirectory(options));
  const fb::Module& module = *impl->root;
  const uint32_t library_count =
      module.libraries() ? module.libraries()->size() : 0;
  impl->libraries.reserve(library_count);
  for (uint32_t i = 0; i < library_count; ++i) {
    const fb::Library* library = module.libraries()->Get(i);
    std::vector<std::string_view> features;
    for (uint32_t f = 0; f < SizeOf(library->cpu_features()); ++f) {
      features.push_back(StringOf(library->cpu_features()->Get(f)));
    }
    KILN_RETURN_IF_ERROR(
        CheckCpuFeatures(StringOf(library->cpu()), features, HostHasCpuFeature),
        "library ", i);
    const std::string debug_name =
        StrCat("kiln:", module.name() ? module.name()->string_view() : "",
               ":library", i);
    StatusOr<LoadedLibrary> loaded =
        LoadedLibrary::Load(library->data()->data(), library->data()->size(),
                            debug_name, perf_directory);
    if (!loaded.ok()) {
      return std::move(loaded).status().Prepend(StrCat("library ", i));
    }
    impl->libraries.push_back(std::move(loaded).value());
  }

  // Resolve every export against its library's description of itself.
  const uint32_t executable_count =
      module.executables() ? module.executables()->size() : 0;
  impl->executables.resize(executable_count);
  impl->library_exports.resize(library_count);
  for (uint32_t i = 0; i < library_count; ++i) {
    impl->library_exports[i].assign(
        impl->libraries[i].library().exports.count,
        {Module::Impl::kNoExport, Module::Impl::kNoExport});
  }
  for (uint32_t i = 0; i < executable_count; ++i) {
    const fb::Executable* executable = module.executables()->Get(i);
    const kiln_export_table_v1_t& table =
        impl->libraries[executable->library()].library().exports;
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
      impl->library_exports[executable->library()][ex->library_ordinal()] = {i,
                                                                             e};
    }
  }
  KILN_RETURN_IF_ERROR(CheckDispatches(*impl));
  impl->libraries_loaded = true;
  return OkStatus();
}

}  // namespace kiln
