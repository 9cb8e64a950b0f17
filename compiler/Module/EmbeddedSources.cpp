//===- EmbeddedSources.cpp - the texts a module embeds --------------------===//

#include "Module/EmbeddedSources.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/xxhash.h"

// ZDICT_trainFromBuffer_fastCover is in zstd's advanced API (of 1.5.4,
// Debian's), which its shared library exports.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <map>

namespace mlir::kiln {

namespace {

/// zstd level for embedded sources: zstd's default (3), as compiling at
/// --executable-debug-level=3 should cost little more than at 2. On the 600
/// stage texts of bench/capture's program (6.4 MB) level 3 compresses at
/// 490 MB/s to 1.11 MB; level 8 at 116 MB/s to 0.99 MB (1.7% of the
/// compiler's instructions there, for 0.7% of the module's size); level 15
/// is 4% smaller again at 10 times level 8's time.
constexpr int kSourceCompressionLevel = ZSTD_CLEVEL_DEFAULT;

/// A module's stage texts share most of their words (op names, types,
/// attributes, the same kernels at other sizes), which compressing each
/// text alone cannot use: a dictionary trained on them all, stored once,
/// makes each text's frame a third to half of its size alone. The larger
/// the dictionary the more of that a fast level finds: on bench/capture's
/// 100-layer program, 300 texts (3.7 MB), a 256 KiB dictionary at level 1
/// stores them in 247 KB (25 KB of it the dictionary) in 0.026 s of a pool
/// thread while the library is built, where 64 KiB needs level 7 for
/// 233 KB and takes 0.042 s; ResNet50's texts (2.4 MB) take 179 KB in the
/// same way. A dictionary is an eighth of the texts it is trained on
/// within these bounds: a larger one stored for a small program costs
/// more than it saves. Too few or too small texts train no dictionary
/// worth storing.
constexpr size_t kMinDictionaryCapacity = 64 * 1024;
constexpr size_t kMaxDictionaryCapacity = 256 * 1024;
constexpr size_t kDictionaryCapacityDivisor = 8;
constexpr int kDictionaryCompressionLevel = 1;
/// The dictionary itself is compressed once, where a higher level costs
/// little (2.6 ms for 256 KiB, 10% smaller than level 1).
constexpr int kStoredDictionaryLevel = 7;
constexpr size_t kMinDictionaryTexts = 8;
constexpr size_t kMinDictionaryInput = 256 * 1024;
/// Training reads at most this much of the texts (its time grows with it).
constexpr size_t kMaxDictionaryInput = 8 * 1024 * 1024;

} // namespace

FailureOr<std::unique_ptr<EmbeddedSources>>
EmbeddedSources::collect(ModuleOp moduleOp, int debugLevel) {
  std::unique_ptr<EmbeddedSources> sources(new EmbeddedSources());
  // Path -> text (ordered: the table is sorted by path).
  std::map<std::string, StringRef> texts;
  llvm::StringMap<DictionaryAttr> lineOrigins;
  // The texts of resources in `dictionary`, under their names; a name
  // already taken keeps its text (a captured stage before an input file).
  auto addTexts = [&](Operation *op, DictionaryAttr dictionary,
                      StringRef what) -> LogicalResult {
    for (NamedAttribute entry : dictionary) {
      auto resource = dyn_cast<DenseResourceElementsAttr>(entry.getValue());
      AsmResourceBlob *blob =
          resource ? resource.getRawHandle().getBlob() : nullptr;
      if (!blob)
        return op->emitError()
               << what << " '" << entry.getName().getValue() << "' has no data";
      ArrayRef<char> data = blob->getData();
      texts.try_emplace(entry.getName().getValue().str(),
                        StringRef(data.data(), data.size()));
    }
    return success();
  };
  if (debugLevel >= 3) {
    WalkResult walk = moduleOp.walk([&](ExecutableVariantOp variantOp) {
      auto captured =
          variantOp->getAttrOfType<DictionaryAttr>(kSourcesAttrName);
      if (!captured)
        return WalkResult::advance();
      if (auto origins =
              variantOp->getAttrOfType<DictionaryAttr>(kLineOriginsAttrName))
        for (NamedAttribute entry : origins)
          if (auto dict = dyn_cast<DictionaryAttr>(entry.getValue()))
            lineOrigins[entry.getName().getValue()] = dict;
      if (failed(addTexts(variantOp, captured, "captured source")))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  if (auto inputFiles =
          moduleOp->getAttrOfType<DictionaryAttr>(kInputFilesAttrName))
    if (failed(addTexts(moduleOp, inputFiles, "input file")))
      return failure();

  // Equal texts share one content, whatever their names.
  std::map<std::pair<uint64_t, StringRef>, uint32_t> contentIndices;
  for (auto &[path, text] : texts) {
    uint64_t hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(text.data()), text.size()));
    auto [it, inserted] =
        contentIndices.try_emplace({hash, text}, sources->contents.size());
    if (inserted)
      sources->contents.push_back(
          {text,
           hash,
           static_cast<uint32_t>(text.count('\n') +
                                 (!text.empty() && !text.ends_with("\n"))),
           {}});
    sources->files.push_back({path, it->second, lineOrigins.lookup(path)});
  }

  // The thread that collected the texts goes on to build the library, so
  // one pool thread fewer than the machine has compresses meanwhile; that
  // thread joins in when it asks for the contents.
  MLIRContext *context = moduleOp.getContext();
  if (context->isMultithreadingEnabled() && !sources->contents.empty()) {
    llvm::ThreadPoolInterface &pool = context->getThreadPool();
    unsigned workers = std::max(1u, pool.getMaxConcurrency() - 1);
    sources->compression.emplace(pool);
    EmbeddedSources *self = sources.get();
    for (unsigned i = 0; i < workers; ++i)
      sources->compression->async([self] { self->compressRemaining(); });
  }
  return sources;
}

EmbeddedSources::~EmbeddedSources() {
  if (compression)
    compression->wait();
}

ArrayRef<EmbeddedSources::Content> EmbeddedSources::getContents() {
  compressRemaining();
  if (compression)
    compression->wait();
  return contents;
}

const std::optional<EmbeddedSources::Dictionary> &
EmbeddedSources::getDictionary() {
  getContents();
  return dictionary;
}

void EmbeddedSources::trainDictionary() {
  if (contents.size() < kMinDictionaryTexts)
    return;
  // The texts in content order, as many as training reads: the same
  // samples, and so the same dictionary, on any thread count.
  std::string samples;
  std::vector<size_t> sizes;
  for (const Content &content : contents) {
    if (samples.size() + content.text.size() > kMaxDictionaryInput)
      break;
    samples.append(content.text.data(), content.text.size());
    sizes.push_back(content.text.size());
  }
  if (samples.size() < kMinDictionaryInput)
    return;
  std::string bytes(std::clamp(samples.size() / kDictionaryCapacityDivisor,
                               kMinDictionaryCapacity, kMaxDictionaryCapacity),
                    '\0');
  // fastCover with fixed parameters: ZDICT_trainFromBuffer's search over
  // them takes 5 times as long here for a dictionary no better (its
  // entropy tables gathered at level 1 are as good as at 7).
  ZDICT_fastCover_params_t params = {};
  params.k = 2048;
  params.d = 8;
  params.f = 20;
  params.accel = 4;
  params.splitPoint = 1.0;
  params.zParams.compressionLevel = 1;
  const size_t size = ZDICT_trainFromBuffer_fastCover(
      bytes.data(), bytes.size(), samples.data(), sizes.data(),
      static_cast<unsigned>(sizes.size()), params);
  if (ZDICT_isError(size))
    return;
  bytes.resize(size);
  std::shared_ptr<void> digested(
      ZSTD_createCDict(bytes.data(), bytes.size(), kDictionaryCompressionLevel),
      [](void *cdict) { ZSTD_freeCDict(static_cast<ZSTD_CDict *>(cdict)); });
  if (!digested.get())
    return;
  Dictionary trained;
  trained.hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  trained.compressed.resize(ZSTD_compressBound(bytes.size()));
  const size_t compressed =
      ZSTD_compress(trained.compressed.data(), trained.compressed.size(),
                    bytes.data(), bytes.size(), kStoredDictionaryLevel);
  if (ZSTD_isError(compressed))
    return;
  trained.compressed.resize(compressed);
  trained.bytes = std::move(bytes);
  dictionary = std::move(trained);
  compressionDictionary = std::move(digested);
}

void EmbeddedSources::compressRemaining() {
  if (nextContent.load(std::memory_order_relaxed) >= contents.size())
    return;
  // One context for every text this thread compresses. A thread without
  // one claims nothing; what no thread compresses is stored as it is.
  std::call_once(dictionaryTrained, [this] { trainDictionary(); });
  ZSTD_CCtx *zstd = ZSTD_createCCtx();
  if (!zstd)
    return;
  auto *cdict = static_cast<ZSTD_CDict *>(compressionDictionary.get());
  std::vector<uint8_t> frame;
  for (size_t i = nextContent++; i < contents.size(); i = nextContent++) {
    Content &content = contents[i];
    frame.resize(ZSTD_compressBound(content.text.size()));
    size_t size =
        cdict ? ZSTD_compress_usingCDict(zstd, frame.data(), frame.size(),
                                         content.text.data(),
                                         content.text.size(), cdict)
              : ZSTD_compressCCtx(zstd, frame.data(), frame.size(),
                                  content.text.data(), content.text.size(),
                                  kSourceCompressionLevel);
    if (!ZSTD_isError(size) && size < content.text.size()) {
      content.compressed.assign(frame.begin(), frame.begin() + size);
      content.withDictionary = cdict != nullptr;
    }
  }
  ZSTD_freeCCtx(zstd);
}

} // namespace mlir::kiln
