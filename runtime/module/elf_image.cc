//===- elf_image.cc - Checks of a library's ELF image ---------------------===//
//
// Before the dynamic loader sees a library, its image is checked to be an
// x86-64 ELF shared object that runs no code at load (no initializers,
// IFUNC relocations or dependencies), maps no writable code, and gives the
// loader no table outside its mapped segments to read.
//
//===----------------------------------------------------------------------===//

#include "module/elf_image.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kiln/module_generated.h"

namespace kiln {

namespace {

bool RangeInside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

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

Status CheckLibraryImages(const fb::Module& module,
                          const std::vector<uint32_t>& loaded) {
  const uint32_t library_count =
      module.libraries() ? module.libraries()->size() : 0;
  for (uint32_t i = 0; i < library_count; ++i) {
    if (std::binary_search(loaded.begin(), loaded.end(), i)) continue;
    const auto* data = module.libraries()->Get(i)->data();
    KILN_RETURN_IF_ERROR(CheckElfImage(data->data(), data->size()), "library ",
                         i);
  }
  return OkStatus();
}

}  // namespace kiln
