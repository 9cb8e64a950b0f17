//===- sources_fuzzer.cc - Look up and decompress an untrusted module's sources ===//
//
// Loads arbitrary bytes as a module and, when it verifies, looks up every
// embedded source by path and decompresses it, both into an owned string and
// into a buffer of exactly the declared size. Seeded with real modules, the
// mutations land in zstd frames, declared sizes and hashes: decompression
// must stay within the declared size and report corruption as an error.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "kiln/module.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln::ModuleLoadOptions options;
  options.load_libraries = false;
  auto module = kiln::Module::LoadFromMemory(
      data, size, kiln::Module::MemoryMode::kCopy, options);
  if (!module.ok()) return 0;
  const kiln::SourceTable& sources = (*module)->sources();
  for (uint32_t i = 0; i < sources.size(); ++i) {
    std::string_view path = sources.file(i).path;
    std::optional<kiln::SourceFileView> file = sources.Find(path);
    if (!file) __builtin_trap();
    // Near misses must not be found (the table is sorted and unique).
    std::string longer = std::string(path) + '\0';
    if (auto other = sources.Find(longer); other && other->path != longer)
      __builtin_trap();

    auto text = file->Decompress();
    if (text.ok() && text->size() != file->uncompressed_size) __builtin_trap();

    // Exactly the declared size, so ASan flags any write past it.
    size_t capacity = static_cast<size_t>(file->uncompressed_size);
    auto buffer = std::make_unique<uint8_t[]>(capacity ? capacity : 1);
    kiln::Status status = file->DecompressInto(buffer.get(), capacity);
    if (status.ok() != text.ok()) __builtin_trap();
    // A buffer one byte short must be refused, not overrun.
    if (capacity > 0 && file->DecompressInto(buffer.get(), capacity - 1).ok())
      __builtin_trap();
  }
  // Paths that cannot be in the table.
  if (sources.Find("").has_value() && sources.size() == 0) __builtin_trap();
  return 0;
}
