//===- EmbeddedSources.h - the texts a module embeds --------------*- C++ -*-===//
//
// Collects the texts a module embeds, each distinct one once, and compresses
// them on the MLIR context's thread pool while the library is built.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_EMBEDDEDSOURCES_H_
#define KILN_MODULE_EMBEDDEDSOURCES_H_

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::kiln {

/// The texts a module embeds: the stages captured on its variants (level 3)
/// and the input files kiln-capture-input-files attached to the module.
/// Each distinct text is kept once and zstd-compressed when that is smaller.
/// Compression starts when the texts are collected and runs on the MLIR
/// context's thread pool, so that the library can be built meanwhile;
/// reading the contents waits for it.
class EmbeddedSources {
public:
  /// A named text, in path order.
  struct File {
    std::string path;
    /// Index into getContents().
    uint32_t content;
    /// For a captured stage text, where its op lines came from (the
    /// variant's `kiln.line_origins` entry); null otherwise.
    DictionaryAttr lineOrigins;
  };
  /// A distinct text.
  struct Content {
    /// In the resource blob of a capture or of an input file.
    StringRef text;
    /// XXH3-64 of `text`.
    uint64_t hash;
    /// Lines of `text` ('\n'-terminated, plus a last unterminated one): what
    /// the module's tables naming its lines are checked against.
    uint32_t lineCount;
    /// One zstd frame of `text`; empty when it would not be smaller.
    std::vector<uint8_t> compressed;
    /// Whether `compressed` was made with getDictionary().
    bool withDictionary = false;
  };
  /// A zstd dictionary trained on the texts (Module.source_dictionary).
  struct Dictionary {
    std::string bytes;
    /// XXH3-64 of `bytes`.
    uint64_t hash = 0;
    /// One zstd frame of `bytes`.
    std::vector<uint8_t> compressed;
  };

  /// Gathers the texts of `moduleOp` that `debugLevel` (the module's
  /// --executable-debug-level) asks for and starts compressing them.
  static FailureOr<std::unique_ptr<EmbeddedSources>> collect(ModuleOp moduleOp,
                                                             int debugLevel);
  /// Waits for the compression still under way.
  ~EmbeddedSources();

  /// Every named text, sorted by path.
  ArrayRef<File> getFiles() const { return files; }
  /// Distinct texts in order of their first file; waits for compression.
  ArrayRef<Content> getContents();
  /// The dictionary the texts were compressed with, if they were (enough
  /// texts to train one on); waits for compression.
  const std::optional<Dictionary> &getDictionary();

private:
  EmbeddedSources() = default;
  /// Compresses contents not yet claimed by another thread, one at a time
  /// (the first thread to start trains the dictionary).
  void compressRemaining();
  /// Trains `dictionary` on the contents when they are many and large
  /// enough for one to pay for itself.
  void trainDictionary();

  std::vector<File> files;
  std::vector<Content> contents;
  /// The next content to compress.
  std::atomic<size_t> nextContent = 0;
  std::once_flag dictionaryTrained;
  std::optional<Dictionary> dictionary;
  /// `dictionary` digested for compression (a ZSTD_CDict).
  std::shared_ptr<void> compressionDictionary;
  std::optional<llvm::ThreadPoolTaskGroup> compression;
};

} // namespace mlir::kiln

#endif // KILN_MODULE_EMBEDDEDSOURCES_H_
