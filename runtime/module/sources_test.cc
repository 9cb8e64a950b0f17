//===- sources_test.cc - Source table, debug information and Dispatch -----===//
//
// Modules with debug information are built here (module_test_util.h), with
// contents stored as is and as zstd frames compressed by the test itself.
// Heap allocations are counted (base/allocation_counter.h) to prove that
// source lookups allocate nothing.
//
//===----------------------------------------------------------------------===//

#include "kiln/sources.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>

#include "base/allocation_counter.h"
#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/tensor_io.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

fb::ModuleT DebugSpec() { return DebugModuleSpec(KILN_TEST_LIBRARY_1); }

std::shared_ptr<const Module> MustLoad(const fb::ModuleT& spec) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? *module : nullptr;
}

//===----------------------------------------------------------------------===//
// The source table
//===----------------------------------------------------------------------===//

TEST(SourceTableTest, ListsFilesInPathOrderWithSharedContents) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  const SourceTable& table = module->sources();
  ASSERT_EQ(table.size(), 5u);
  EXPECT_EQ(table.content_count(), 4u);
  EXPECT_EQ(table[kStage0File].path, "dbg_ex_cpu.0.source.mlir");
  EXPECT_EQ(table[kModelCopyFile].path, "model.mlir.orig");

  const SourceFileView stage1 = table.file(kStage1File);
  EXPECT_EQ(stage1.compression, SourceCompression::kNone);
  EXPECT_EQ(stage1.uncompressed_size, Stage1().size());
  EXPECT_EQ(stage1.hash, HashText(Stage1()));
  EXPECT_EQ(stage1.hash, HashSource(Stage1().data(), Stage1().size()));
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(stage1.stored_data),
                             stage1.stored_size),
            Stage1());

  const SourceFileView stage2 = table.file(kStage2File);
  EXPECT_EQ(stage2.compression, SourceCompression::kZstd);
  EXPECT_EQ(SourceCompressionName(stage2.compression), "zstd");
  EXPECT_EQ(stage2.uncompressed_size, Stage2().size());
  EXPECT_LT(stage2.stored_size, Stage2().size());
  const std::vector<uint8_t> expected = ZstdContent(Stage2())->data;
  EXPECT_EQ(std::vector<uint8_t>(stage2.stored_data,
                                 stage2.stored_data + stage2.stored_size),
            expected);

  // Stored bytes are views into the module, never copies.
  const uint8_t* begin = module->data();
  const uint8_t* end = begin + module->size();
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    EXPECT_TRUE(file.stored_data >= begin &&
                file.stored_data + file.stored_size <= end);
    EXPECT_TRUE(reinterpret_cast<const uint8_t*>(file.path.data()) >= begin &&
                reinterpret_cast<const uint8_t*>(file.path.data()) < end);
  }
  // Equal texts share one content.
  EXPECT_EQ(table[kModelFile].content, table[kModelCopyFile].content);
  EXPECT_EQ(table[kModelFile].stored_data, table[kModelCopyFile].stored_data);
}

TEST(SourceTableTest, FindHitsAndMisses) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  const SourceTable& table = module->sources();
  EXPECT_EQ(table.FindIndex("dbg_ex_cpu.0.source.mlir"), kStage0File);  // first
  EXPECT_EQ(table.FindIndex("dbg_ex_cpu.2.translated.mlir"), kStage2File);
  EXPECT_EQ(table.FindIndex("model.mlir"), kModelFile);           // middle
  EXPECT_EQ(table.FindIndex("model.mlir.orig"), kModelCopyFile);  // last
  // A prefix of an existing path, an extension of one, and neighbours.
  EXPECT_FALSE(table.FindIndex("model.mli"));
  EXPECT_FALSE(table.FindIndex("model.mlir.orig2"));
  EXPECT_FALSE(table.FindIndex("model.mlir.ori"));
  EXPECT_FALSE(table.FindIndex("dbg_ex_cpu"));
  EXPECT_FALSE(table.FindIndex(""));
  EXPECT_FALSE(table.FindIndex("a"));    // before the first
  EXPECT_FALSE(table.FindIndex("zzz"));  // after the last
  EXPECT_FALSE(table.FindIndex(std::string_view("model.mlir\0", 11)));

  std::optional<SourceFileView> model = table.Find("model.mlir");
  ASSERT_TRUE(model);
  EXPECT_EQ(model->path, "model.mlir");
  EXPECT_EQ(model->uncompressed_size, Model().size());
  EXPECT_FALSE(table.Find("missing.mlir"));

  // Every file is found at its own index.
  for (uint32_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table.FindIndex(table[i].path), i);
  }
  // Paths compare as unsigned bytes: 0x80 sorts after 'z'.
  fb::ModuleT spec = DebugSpec();
  SetSources(&spec, {{"a", "1"},
                     {"z", "2"},
                     {"\x80"
                      "high",
                      "3"}});
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  Executables(spec)[0]->exports[1]->stage_locations.clear();
  module = MustLoad(spec);
  ASSERT_TRUE(module);
  EXPECT_EQ(module->sources().FindIndex("\x80"
                                        "high"),
            2u);
  EXPECT_EQ(module->sources().FindIndex("z"), 1u);
}

TEST(SourceTableTest, LookupsAllocateNothing) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  // Line origins are unpacked once, on first use, then kept.
  ASSERT_TRUE(module->sources().origins(kStage2File).ok());
  const std::string hit = "model.mlir";
  const std::string miss = "model.mlir.bak";
  size_t found = 0;
  {
    AllocationCounter counter;
    const SourceTable& table = module->sources();
    for (int round = 0; round < 100; ++round) {
      found += table.FindIndex(hit).has_value();
      found += table.FindIndex(miss).has_value();
      found += table.Find("dbg_ex_cpu.0.source.mlir").has_value();
      found += table.Find("model.mlir.orig").has_value();
      found += table.Find("zzz").has_value();
      // What a trace zone needs from a dispatch's (executable, export) pair.
      StatusOr<ExportView> ex = module->GetExport(0, 0);
      if (ex.ok()) {
        found += !ex->name().empty();
        found += ex->TraceLocation(1).line == 5;
        found += ex->FindStageLocation(2).has_value();
        found += ex->location().known();
      }
      found += module->FindCaptureStage("2.translated").has_value();
      // What following a line back through the stages needs.
      const auto origins = table.origins(kStage2File);
      const auto [first, last] = SourceTable::FindOrigins(**origins, 121);
      found += last - first == 2;
      found += (**origins)[first].previous_line == 14;
      found += table.FindInputFile("model.mlir").has_value();
    }
    EXPECT_EQ(counter.count(), 0u);
  }
  EXPECT_EQ(found, 100u * 11);
  {
    // The counter does see allocations (so the check above can fail).
    AllocationCounter counter;
    std::string copy = StrCat(hit, miss, hit, miss);
    EXPECT_GT(counter.count(), 0u);
  }
}

TEST(SourceTableTest, DecompressIntoBufferWritesExactlyTheText) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  const SourceTable& table = module->sources();
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    std::vector<char> buffer(file.uncompressed_size + 64, '\xab');
    Status status = file.DecompressInto(buffer.data(), buffer.size());
    ASSERT_TRUE(status.ok()) << status.ToString();
    const std::string expected = i == kStage0File   ? Stage0()
                                 : i == kStage1File ? Stage1()
                                 : i == kStage2File ? Stage2()
                                                    : Model();
    EXPECT_EQ(std::string(buffer.data(), file.uncompressed_size), expected);
    for (size_t k = file.uncompressed_size; k < buffer.size(); ++k) {
      ASSERT_EQ(buffer[k], '\xab') << "wrote past the text at " << k;
    }
    // Exactly the size is enough; one byte less is refused.
    std::vector<char> exact(file.uncompressed_size);
    EXPECT_TRUE(file.DecompressInto(exact.data(), exact.size()).ok());
    Status small = file.DecompressInto(exact.data(), exact.size() - 1);
    EXPECT_EQ(small.code(), StatusCode::kOutOfRange);
    EXPECT_EQ(small.message(),
              StrCat("source '", file.path, "': needs ", file.uncompressed_size,
                     " bytes, the buffer holds ", exact.size() - 1));

    StatusOr<std::string> text = file.Decompress();
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(*text, expected);
  }
}

TEST(SourceTableTest, LineCountMismatchIsAnError) {
  fb::ModuleT spec = DebugSpec();
  spec.source_contents[kStage2File]->line_count = 299;
  std::shared_ptr<const Module> module = MustLoad(spec);
  ASSERT_TRUE(module);
  StatusOr<std::string> text = module->sources()[kStage2File].Decompress();
  EXPECT_EQ(text.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(text.status().message(),
            "source 'dbg_ex_cpu.2.translated.mlir': the text has 300 lines, "
            "the table records 299");
  // 0: not recorded, not checked.
  spec.source_contents[kStage2File]->line_count = 0;
  spec.source_files[kStage2File]->origins.reset();
  module = MustLoad(spec);
  ASSERT_TRUE(module);
  EXPECT_TRUE(module->sources()[kStage2File].Decompress().ok());
}

// A module's texts compressed with its dictionary decompress through it;
// a dictionary that is missing, altered or itself dictionary-compressed is
// an error.
TEST(SourceTableTest, TextsCompressedWithTheModulesDictionary) {
  const std::string dictionary = Stage0() + Stage1();
  const std::vector<std::string> texts = {Stage0(), Stage1(), Stage2(),
                                          Model()};
  auto spec_with_dictionary = [&] {
    fb::ModuleT spec = DebugSpec();
    spec.source_contents[kStage1File] = ZstdContent(Stage1());
    SetDictionary(&spec, dictionary, texts);
    return spec;
  };
  std::shared_ptr<const Module> module = MustLoad(spec_with_dictionary());
  ASSERT_TRUE(module);
  const SourceTable& table = module->sources();
  EXPECT_EQ(table.dictionary_size(), dictionary.size());
  EXPECT_GT(table.dictionary_stored_size(), 0u);
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    EXPECT_EQ(file.compression, SourceCompression::kZstdDictionary);
    StatusOr<std::string> text = file.Decompress();
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(*text, texts[file.content]);
  }
  EXPECT_EQ(SourceCompressionName(SourceCompression::kZstdDictionary),
            "zstd+dict");
  // The texts alone are far smaller than the dictionary they share.
  EXPECT_LT(table[kStage1File].stored_size, Stage1().size() / 4);

  fb::ModuleT spec = spec_with_dictionary();
  spec.source_dictionary.reset();
  EXPECT_EQ(LoadError(spec),
            "source content 0: compressed with a dictionary the module does "
            "not hold");
  spec = spec_with_dictionary();
  spec.source_dictionary->compression = fb::Compression::ZstdDictionary;
  EXPECT_EQ(LoadError(spec),
            "source dictionary: compressed with a dictionary itself");
  spec = spec_with_dictionary();
  spec.source_dictionary->hash ^= 1;
  module = MustLoad(spec);
  ASSERT_TRUE(module);
  StatusOr<std::string> text = module->sources()[kStage1File].Decompress();
  EXPECT_EQ(text.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(text.status().message().rfind(
                "source 'dbg_ex_cpu.1.configured.mlir': the module's "
                "dictionary: source '(dictionary)': content hash mismatch",
                0),
            0u)
      << text.status().message();
  // Another dictionary: the frames decode to other bytes, or not at all.
  spec = spec_with_dictionary();
  const std::string other = Stage2();
  spec.source_dictionary = ZstdContent(other);
  spec.source_dictionary->line_count = 0;
  module = MustLoad(spec);
  ASSERT_TRUE(module);
  EXPECT_EQ(module->sources()[kStage1File].Decompress().status().code(),
            StatusCode::kDataLoss);
}

TEST(SourceTableTest, HashMismatchIsAnError) {
  for (fb::Compression compression :
       {fb::Compression::None, fb::Compression::Zstd}) {
    fb::ModuleT spec = DebugSpec();
    std::unique_ptr<fb::SourceContentT>& content =
        spec.source_contents[kStage0File];
    content = compression == fb::Compression::Zstd ? ZstdContent(Stage0())
                                                   : NoneContent(Stage0());
    content->hash ^= 1;
    // Hashes are checked when a text is read, not at load.
    std::shared_ptr<const Module> module = MustLoad(spec);
    ASSERT_TRUE(module);
    const SourceFileView file = module->sources()[kStage0File];
    std::vector<char> buffer(file.uncompressed_size);
    Status status = file.DecompressInto(buffer.data(), buffer.size());
    EXPECT_EQ(status.code(), StatusCode::kDataLoss);
    const uint64_t actual = HashText(Stage0());
    char expected[160];
    std::snprintf(expected, sizeof(expected),
                  "source 'dbg_ex_cpu.0.source.mlir': content hash mismatch "
                  "(text hashes to 0x%016llx, the table records 0x%016llx)",
                  static_cast<unsigned long long>(actual),
                  static_cast<unsigned long long>(actual ^ 1));
    EXPECT_EQ(status.message(), expected);
    EXPECT_FALSE(file.Decompress().ok());
  }
}

TEST(SourceTableTest, CorruptOrTruncatedZstdDataIsAnError) {
  const fb::SourceContentT content = *ZstdContent(Stage2());
  SourceFileView view;
  view.path = "x.mlir";
  view.compression = SourceCompression::kZstd;
  view.uncompressed_size = content.uncompressed_size;
  view.hash = content.hash;
  view.stored_data = content.data.data();
  view.stored_size = content.data.size();
  std::vector<char> buffer(view.uncompressed_size);
  ASSERT_TRUE(view.DecompressInto(buffer.data(), buffer.size()).ok());

  // Every truncation fails.
  for (size_t size = 0; size < content.data.size(); ++size) {
    SourceFileView truncated = view;
    truncated.stored_size = size;
    Status status = truncated.DecompressInto(buffer.data(), buffer.size());
    ASSERT_FALSE(status.ok()) << "truncated to " << size << " bytes";
    EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  }
  SourceFileView truncated = view;
  truncated.stored_size = content.data.size() - 1;
  EXPECT_EQ(truncated.DecompressInto(buffer.data(), buffer.size()).message(),
            "source 'x.mlir': zstd decompression failed: Src size is "
            "incorrect");

  // A single-byte corruption either fails (zstd error or hash mismatch) or,
  // where the byte does not matter (e.g. the window size), yields the exact
  // text; nothing is ever written past the declared size.
  std::vector<uint8_t> corrupted = content.data;
  std::vector<char> guarded(view.uncompressed_size + 16, '\xab');
  int failures = 0;
  for (size_t at = 0; at < corrupted.size(); ++at) {
    corrupted[at] ^= 0x5a;
    SourceFileView bad = view;
    bad.stored_data = corrupted.data();
    if (bad.DecompressInto(guarded.data(), guarded.size()).ok()) {
      ASSERT_EQ(std::string(guarded.data(), view.uncompressed_size), Stage2())
          << "corruption at " << at << " was not detected";
    } else {
      ++failures;
    }
    corrupted[at] ^= 0x5a;
    for (size_t k = view.uncompressed_size; k < guarded.size(); ++k) {
      ASSERT_EQ(guarded[k], '\xab');
    }
  }
  EXPECT_GT(failures, static_cast<int>(corrupted.size()) / 2);

  // A truncated frame inside a module is refused at load.
  fb::ModuleT spec = DebugSpec();
  spec.source_contents[kStage2File]->data.pop_back();
  EXPECT_EQ(LoadError(spec),
            "source content 2: truncated or corrupt zstd frame (Src size is "
            "incorrect)");
}

//===----------------------------------------------------------------------===//
// Verification of the source table
//===----------------------------------------------------------------------===//

TEST(SourceVerifyTest, ContentSizes) {
  fb::ModuleT spec = DebugSpec();
  spec.source_contents[kStage2File]->uncompressed_size += 1;
  EXPECT_EQ(LoadError(spec),
            StrCat("source content 2: zstd frame declares ", Stage2().size(),
                   " bytes but the table records ", Stage2().size() + 1));
  spec = DebugSpec();
  spec.source_contents[kStage1File]->uncompressed_size -= 1;
  EXPECT_EQ(LoadError(spec),
            StrCat("source content 1: stores ", Stage1().size(),
                   " bytes uncompressed but declares ", Stage1().size() - 1));
  spec = DebugSpec();
  spec.source_contents[kStage1File]->uncompressed_size =
      (uint64_t{1} << 30) + 1;
  EXPECT_EQ(LoadError(spec),
            "source content 1: uncompressed size 1073741825 exceeds the limit "
            "of 1073741824 bytes");
  spec = DebugSpec();
  spec.source_contents[0]->compression = static_cast<fb::Compression>(7);
  EXPECT_EQ(LoadError(spec), "source content 0: invalid compression 7");
}

TEST(SourceVerifyTest, ZstdFrames) {
  fb::ModuleT spec = DebugSpec();
  spec.source_contents[0]->data = {'h', 'e', 'l', 'l', 'o'};
  EXPECT_EQ(LoadError(spec), "source content 0: data is not a zstd frame");
  spec.source_contents[0]->data.clear();
  EXPECT_EQ(LoadError(spec), "source content 0: data is not a zstd frame");

  // A frame that does not declare its size.
  spec = DebugSpec();
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  ZSTD_inBuffer in = {Stage0().data(), Stage0().size(), 0};
  std::vector<uint8_t> out(ZSTD_compressBound(Stage0().size()));
  ZSTD_outBuffer output = {out.data(), out.size(), 0};
  ASSERT_EQ(ZSTD_compressStream2(cctx, &output, &in, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(cctx);
  out.resize(output.pos);
  spec.source_contents[0]->data = out;
  EXPECT_EQ(LoadError(spec),
            "source content 0: zstd frame does not declare its content size");

  // Two frames, or trailing bytes after the frame.
  spec = DebugSpec();
  std::vector<uint8_t>& data = spec.source_contents[0]->data;
  const std::vector<uint8_t> frame = data;
  data.insert(data.end(), frame.begin(), frame.end());
  EXPECT_EQ(
      LoadError(spec),
      StrCat("source content 0: zstd data is not one frame (", 2 * frame.size(),
             " bytes, the first frame takes ", frame.size(), ")"));
}

TEST(SourceVerifyTest, FilesSortedUniqueAndInRange) {
  fb::ModuleT spec = DebugSpec();
  std::swap(spec.source_files[1], spec.source_files[2]);
  EXPECT_EQ(LoadError(spec),
            "source files are not sorted by path: file 1 "
            "'dbg_ex_cpu.2.translated.mlir' comes before file 2 "
            "'dbg_ex_cpu.1.configured.mlir'");
  spec = DebugSpec();
  spec.source_files[4]->path = "model.mlir";
  EXPECT_EQ(LoadError(spec),
            "source file 'model.mlir' appears twice (files 3 and 4)");
  spec = DebugSpec();
  spec.source_files[3]->content = 4;
  EXPECT_EQ(LoadError(spec),
            "source file 3 'model.mlir': content 4 out of range (4 contents)");
  // Files without any content table.
  spec = DebugSpec();
  spec.source_contents.clear();
  EXPECT_EQ(LoadError(spec),
            "source file 0 'dbg_ex_cpu.0.source.mlir': content 0 out of range "
            "(0 contents)");
}

TEST(SourceTableTest, LineOriginsAndInputFiles) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  const SourceTable& table = module->sources();
  EXPECT_EQ(table.file(kStage2File).previous, kStage1File);
  EXPECT_EQ(table.file(kStage1File).previous, kStage0File);
  EXPECT_EQ(table.file(kStage0File).previous, kNoSource);
  EXPECT_EQ(table.file(kModelFile).previous, kNoSource);
  EXPECT_EQ(table.file(kStage2File).origin_count, 4u);
  EXPECT_EQ(table.file(kModelFile).origin_count, 0u);
  EXPECT_EQ(table.file(kStage2File).line_count, 300u);

  auto rows = [&](uint32_t source, uint32_t line) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    const StatusOr<const std::vector<LineOriginView>*> origins =
        table.origins(source);
    EXPECT_TRUE(origins.ok()) << origins.status().message();
    const auto [first, last] = SourceTable::FindOrigins(**origins, line);
    for (uint32_t row = first; row < last; ++row) {
      const LineOriginView& origin = (**origins)[row];
      EXPECT_EQ(origin.line, line);
      out.emplace_back(origin.previous_line, origin.input_line);
    }
    return out;
  };
  using Rows = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(rows(kStage2File, 121), (Rows{{14, 2}, {15, 2}}));
  EXPECT_EQ(rows(kStage2File, 122), (Rows{{15, 2}}));
  EXPECT_EQ(rows(kStage2File, 130), (Rows{{0, 0}}));
  EXPECT_EQ(rows(kStage2File, 1), Rows{});
  EXPECT_EQ(rows(kStage2File, 125), Rows{});
  EXPECT_EQ(rows(kStage2File, 300), Rows{});
  EXPECT_EQ(rows(kStage0File, 10), (Rows{{0, 7}, {0, 2}}));
  EXPECT_EQ(rows(kModelFile, 2), Rows{});

  EXPECT_EQ(table.input_file_count(), 2u);
  EXPECT_EQ(table.input_file(1), "model.mlir");
  EXPECT_EQ(table.FindInputFile("input.mlir"), 0u);
  EXPECT_EQ(table.FindInputFile("model.mlir"), 1u);
  EXPECT_EQ(table.FindInputFile("other.mlir"), std::nullopt);
  EXPECT_EQ(SourceTable().input_file_count(), 0u);
}

TEST(SourceVerifyTest, LineOrigins) {
  // Rows are checked when first unpacked, not at load.
  auto with_rows = [](uint32_t file,
                      const std::vector<std::array<uint64_t, 4>>& rows) {
    fb::ModuleT spec = DebugSpec();
    spec.source_files[file]->origins = Origins(rows);
    return spec;
  };
  std::vector<std::array<uint64_t, 4>> rows = DebugOrigins(kStage2File);
  rows[3] = {301, 0, 0, 0};
  EXPECT_EQ(OriginsError(with_rows(kStage2File, rows), kStage2File),
            "source file 'dbg_ex_cpu.2.translated.mlir': line origin 3 is for "
            "line 301, outside its 300 lines");
  rows = DebugOrigins(kStage2File);
  rows[0] = {0, 14, 1, 2};
  // Packed, a first row at line 0 then line 121 is still ascending.
  EXPECT_EQ(OriginsError(with_rows(kStage2File, rows), kStage2File),
            "source file 'dbg_ex_cpu.2.translated.mlir': line origin 0 is for "
            "line 0, outside its 300 lines");
  rows = DebugOrigins(kStage2File);
  rows[1] = rows[0];
  EXPECT_EQ(OriginsError(with_rows(kStage2File, rows), kStage2File),
            "source file 'dbg_ex_cpu.2.translated.mlir': line origins are not "
            "sorted and unique at row 1");
  rows = DebugOrigins(kStage2File);
  std::swap(rows[0], rows[1]);
  EXPECT_EQ(OriginsError(with_rows(kStage2File, rows), kStage2File),
            "source file 'dbg_ex_cpu.2.translated.mlir': line origins are not "
            "sorted and unique at row 1");
  rows = DebugOrigins(kStage2File);
  rows[2] = {122, 51, 1, 2};
  EXPECT_EQ(OriginsError(with_rows(kStage2File, rows), kStage2File),
            "source file 'dbg_ex_cpu.2.translated.mlir': line origin 2 names "
            "line 51 of its previous text (50 lines)");
  rows = DebugOrigins(kStage0File);
  rows[0] = {9, 3, 1, 2};
  EXPECT_EQ(OriginsError(with_rows(kStage0File, rows), kStage0File),
            "source file 'dbg_ex_cpu.0.source.mlir': line origin 0 names line "
            "3 of no previous text (0 lines)");
  // model.mlir is embedded (3 lines); input.mlir is not (any line).
  rows = DebugOrigins(kStage0File);
  rows[0] = {9, 0, 1, 4};
  EXPECT_EQ(OriginsError(with_rows(kStage0File, rows), kStage0File),
            "source file 'dbg_ex_cpu.0.source.mlir': line origin 0 names line "
            "4 of input file 'model.mlir', past the end of its embedded text "
            "(3 lines)");
  {
    std::shared_ptr<const Module> module = MustLoad(
        with_rows(kStage0File, {{9, 0, 0, 4294967295u}, {10, 0, 1, 2}}));
    ASSERT_NE(module, nullptr);
    EXPECT_TRUE(module->sources().origins(kStage0File).ok());
  }
  rows = DebugOrigins(kStage0File);
  rows[0] = {9, 0, 2, 2};
  EXPECT_EQ(OriginsError(with_rows(kStage0File, rows), kStage0File),
            "source file 'dbg_ex_cpu.0.source.mlir': line origin 0 names input "
            "file 2 line 2 (2 input files)");
  rows = DebugOrigins(kStage0File);
  rows[0] = {9, 0, 1, 0};
  EXPECT_EQ(OriginsError(with_rows(kStage0File, rows), kStage0File),
            "source file 'dbg_ex_cpu.0.source.mlir': line origin 0 names input "
            "file 1 line 0 (2 input files)");
  fb::ModuleT spec;
  spec = DebugSpec();
  spec.source_files[kStage1File]->previous = 5;
  EXPECT_EQ(LoadError(spec),
            "source file 'dbg_ex_cpu.1.configured.mlir': previous text 5 out "
            "of range (5 files)");
  // A chain that runs into a later file whose link is out of range.
  spec = DebugSpec();
  spec.source_files[kStage0File]->previous = kModelCopyFile;
  spec.source_files[kModelCopyFile]->previous = 1000000;
  EXPECT_EQ(LoadError(spec),
            "source file 'model.mlir.orig': previous text 1000000 out of range "
            "(5 files)");
  spec = DebugSpec();
  spec.source_files[kStage0File]->previous = kStage2File;
  EXPECT_EQ(LoadError(spec),
            "source file 'dbg_ex_cpu.0.source.mlir': its previous texts lead "
            "back to themselves");
  spec = DebugSpec();
  spec.source_files[kModelFile]->previous = kModelFile;
  EXPECT_EQ(LoadError(spec),
            "source file 'model.mlir': its previous texts lead back to "
            "themselves");
  spec = DebugSpec();
  spec.input_files = {"model.mlir", "input.mlir"};
  EXPECT_EQ(LoadError(spec),
            "input files are not sorted and unique: file 0 'model.mlir', then "
            "'input.mlir'");
}

//===----------------------------------------------------------------------===//
// Verification of export debug information
//===----------------------------------------------------------------------===//

TEST(DebugInfoVerifyTest, StageLocations) {
  const std::string prefix = "executable 0 'ex' export 'add_f32': ";
  fb::ModuleT spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[2]->stage = 3;
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 2: stage 3 out of range (3 capture "
                "stages)");
  spec = DebugSpec();
  std::swap(Executables(spec)[0]->exports[0]->stage_locations[0],
            Executables(spec)[0]->exports[0]->stage_locations[1]);
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 1: stage 0 after stage 1 (stage "
                "locations must be strictly increasing by stage)");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[1]->stage = 0;
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 1: stage 0 after stage 0 (stage "
                "locations must be strictly increasing by stage)");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[1]->source = 5;
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 1: source 5 out of range (5 source "
                "files)");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[0]->line = 0;
  EXPECT_EQ(LoadError(spec),
            prefix + "stage location 0: line 0 (lines are 1-based)");
  // Lines past the end of the text they point into.
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[2]->line = 301;
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 2: line 301 of "
                "'dbg_ex_cpu.2.translated.mlir' is past the end of its text "
                "(300 lines)");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->stage_locations[0]->line = UINT32_MAX;
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 0: line 4294967295 of "
                "'dbg_ex_cpu.0.source.mlir' is past the end of its text (40 "
                "lines)");
  // Stage locations without any capture stage.
  spec = DebugSpec();
  spec.capture_stages.clear();
  EXPECT_EQ(LoadError(spec),
            prefix +
                "stage location 0: stage 0 out of range (0 capture "
                "stages)");
}

// Rows for add_f32 (ordinal 0) on lines of the 2.translated text (300
// lines), fail (ordinal 1) without a line, then the end of both.
std::vector<std::array<uint64_t, 4>> LibraryLineRows() {
  return {{0x100, 0, kStage2File, 120},
          {0x110, 0, kStage2File, 300},
          {0x120, 1, 0, 0},
          {0x130, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, 0, 0}};
}

// "ok" when `spec` loads and its address -> line tables unpack; the error.
std::string UnpackedCodeLines(const fb::ModuleT& spec) {
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(BuildModule(spec));
  if (!module.ok()) return module.status().message();
  const Status status = (*module)->UnpackCodeLines();
  return status.ok() ? "ok" : status.message();
}

fb::ModuleT LibraryLinesSpec(
    const std::vector<std::array<uint64_t, 4>>& rows = LibraryLineRows()) {
  fb::ModuleT spec = DebugSpec();
  spec.libraries[0]->lines = LibraryLines(rows);
  return spec;
}

TEST(DebugInfoVerifyTest, LibraryLines) {
  const std::string prefix = "library 0: ";
  {
    std::shared_ptr<const Module> module = MustLoad(LibraryLinesSpec());
    ASSERT_NE(module, nullptr);
    EXPECT_TRUE(module->UnpackCodeLines().ok());
  }
  // Rows are checked when first unpacked, not at load.
  std::vector<std::array<uint64_t, 4>> rows = LibraryLineRows();
  fb::ModuleT spec;
  rows[1] = {0x100, 0, kStage2File, 121};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line rows are not sorted: row 1 at offset 256 follows "
                "row 0 at offset 256");
  rows = LibraryLineRows();
  rows[3] = {uint64_t{1} << 40, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, 0, 0};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(
      CodeLinesError(spec).rfind(prefix + "line row 3: offset 1099511627776 "
                                          "is outside the library's image (",
                                 0),
      0u)
      << CodeLinesError(spec);
  rows = LibraryLineRows();
  rows[1] = {0x110, 0, kStage2File, 301};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line row 1: line 301 of 'dbg_ex_cpu.2.translated.mlir' "
                "is past the end of its text (300 lines)");
  rows = LibraryLineRows();
  rows[1] = {0x110, 0, 5, 1};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix + "line row 1: source 5 out of range (5 source files)");
  // A line of an input file the module names but does not embed (levels 1
  // and 2): any line, in a file the module names.
  rows = LibraryLineRows();
  rows[1] = {0x110, 0, KILN_LIBRARY_LINE_INPUT_FILE | 0, 5000};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(UnpackedCodeLines(spec), "ok");
  rows[1] = {0x110, 0, KILN_LIBRARY_LINE_INPUT_FILE | 1, 4};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line row 1: line 4 of input file 'model.mlir' is past the "
                "end of its embedded text (3 lines)");
  rows[1] = {0x110, 0, KILN_LIBRARY_LINE_INPUT_FILE | 2, 1};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix + "line row 1: input file 2 out of range (2 input files)");
  rows = LibraryLineRows();
  rows[1] = {0x110, 7, kStage2File, 1};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line row 1: export ordinal 7 is not one of the "
                "module's exports in this library");
  rows = LibraryLineRows();
  rows[2] = {0x120, 1, kStage2File, 0};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line row 2: source 2 line 0 without a line (expected "
                "source 0 line 0)");
  // fail (ordinal 1) has a stage location in 0.source only: its code has
  // no line in 2.translated, add_f32's text, but may have lines in an
  // input file.
  rows = LibraryLineRows();
  rows[2] = {0x120, 1, kStage2File, 5};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "line row 2: export ordinal 1 has code on a line of "
                "'dbg_ex_cpu.2.translated.mlir', which is not one of its "
                "stage texts but another export's");
  rows = LibraryLineRows();
  rows[2] = {0x120, 1, kStage0File, 5};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(UnpackedCodeLines(spec), "ok");
  rows[2] = {0x120, 1, kModelFile, 3};
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(UnpackedCodeLines(spec), "ok");
  rows = LibraryLineRows();
  rows.pop_back();
  spec = LibraryLinesSpec(rows);
  EXPECT_EQ(CodeLinesError(spec),
            prefix +
                "the last line row (2) lies in an export: the ranges "
                "must end with a row outside every export");
}

// Load checks a packed table's sizes; unpacking checks its bytes.
TEST(DebugInfoVerifyTest, PackedLibraryLines) {
  const std::string prefix = "library 0: line rows: ";
  fb::ModuleT spec = LibraryLinesSpec();
  const uint32_t packed_size = spec.libraries[0]->lines->packed_size;
  spec.libraries[0]->lines->count = 1000000;
  EXPECT_EQ(LoadError(spec).rfind(prefix + "1000000 rows exceed the ", 0), 0u)
      << LoadError(spec);
  spec = LibraryLinesSpec();
  // Each row takes at least a byte per column.
  spec.libraries[0]->lines->count = packed_size / 4 + 1;
  EXPECT_EQ(LoadError(spec),
            StrCat(prefix, packed_size / 4 + 1, " rows cannot pack into ",
                   packed_size, " bytes"));
  spec = LibraryLinesSpec();
  spec.libraries[0]->lines->packed_size += 1;
  EXPECT_EQ(LoadError(spec),
            StrCat(prefix, "the rows' zstd frame does not declare its ",
                   packed_size + 1, " bytes"));
  spec = LibraryLinesSpec();
  spec.libraries[0]->lines->data.clear();
  EXPECT_EQ(LoadError(spec),
            StrCat(prefix, "the rows' zstd frame does not declare its ",
                   packed_size, " bytes"));
  // A table that would unpack to more than the module may allocate is
  // refused at load: its 4 rows take 32 bytes each beside the packed ones
  // (the text's line origins, checked first, take a few bytes less).
  spec = LibraryLinesSpec();
  {
    const uint64_t needed = packed_size + 4 * 32;
    ModuleLoadOptions options;
    options.max_buffer_bytes = needed - 1;
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec, options);
    ASSERT_FALSE(module.ok());
    EXPECT_EQ(module.status().code(), StatusCode::kResourceExhausted);
    EXPECT_EQ(
        module.status().message(),
        StrCat(prefix, "4 rows need ", needed,
               " bytes to unpack, more than the buffer limit of ", needed - 1,
               " bytes (ModuleLoadOptions::max_buffer_bytes; default: "
               "physical memory)"));
    options.max_buffer_bytes = needed;
    EXPECT_TRUE(LoadSpec(spec, options).ok());
  }
  spec = LibraryLinesSpec();
  spec.libraries[0]->lines->count = 0;
  EXPECT_EQ(LoadError(spec),
            prefix + "no rows but " +
                std::to_string(spec.libraries[0]->lines->data.size()) +
                " stored bytes");
  // A frame that declares its size but is cut short.
  spec = LibraryLinesSpec();
  spec.libraries[0]->lines->data.pop_back();
  EXPECT_EQ(
      CodeLinesError(spec).rfind(prefix + "zstd decompression failed: ", 0), 0u)
      << CodeLinesError(spec);
  // Four rows and a byte left over.
  spec = LibraryLinesSpec();
  {
    const std::string packed =
        packed_rows::Pack(LibraryLineRows(), packed_rows::kLibraryLineColumns);
    std::string padded = packed + std::string(1, '\0');
    fb::PackedRowsT& table = *spec.libraries[0]->lines;
    table.packed_size = static_cast<uint32_t>(padded.size());
    table.data.resize(ZSTD_compressBound(padded.size()));
    table.data.resize(ZSTD_compress(table.data.data(), table.data.size(),
                                    padded.data(), padded.size(), 3));
  }
  EXPECT_EQ(CodeLinesError(spec),
            StrCat(prefix, "malformed packed rows (4 rows in ", packed_size + 1,
                   " bytes)"));
  // LocateCode finds nothing in a library whose table is bad.
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(BuildModule(spec));
  ASSERT_TRUE(module.ok());
  EXPECT_FALSE((*module)->LocateCode(0x100).has_value());
}

// The address -> line tables read are the chosen variant's: a module for
// two CPUs whose preferred variant's library, which this machine cannot
// run, has a bad table.
TEST(DebugInfoVerifyTest, CodeLinesFollowTheChosenVariant) {
  fb::ModuleT spec = LibraryLinesSpec();
  std::vector<std::array<uint64_t, 4>> rows = LibraryLineRows();
  rows[1] = {0x100, 0, kStage2File, 121};
  spec.libraries.push_back(std::make_unique<fb::LibraryT>(*spec.libraries[0]));
  spec.libraries[1]->lines = LibraryLines(rows);
  spec.libraries[1]->cpu_features = {"newext"};
  spec.variants[0]->name = "x86-64";
  spec.variants.insert(spec.variants.begin(), Variant("x86-64-v4"));
  spec.variants[0]->executables.push_back(
      std::make_unique<fb::ExecutableT>(*spec.variants[1]->executables[0]));
  spec.variants[0]->executables[0]->library = 1;
  const std::vector<uint8_t> bytes = BuildModule(spec);
  StatusOr<std::shared_ptr<const Module>> module = LoadBytes(bytes);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_name(), "x86-64");
  EXPECT_TRUE((*module)->UnpackCodeLines().ok());
  ModuleLoadOptions options;
  options.load_libraries = false;
  options.variant = "x86-64-v4";
  module = LoadBytes(bytes, options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->UnpackCodeLines().message(),
            "library 1: line rows are not sorted: row 1 at offset 256 follows "
            "row 0 at offset 256");
}

TEST(DebugInfoVerifyTest, BindingTypesLocationsAndProvenance) {
  const std::string prefix = "executable 0 'ex' export 'add_f32': ";
  fb::ModuleT spec = DebugSpec();
  Executables(spec)[0]->exports[0]->binding_types.pop_back();
  EXPECT_EQ(LoadError(spec), prefix + "has 2 binding types for 3 bindings");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->binding_types[1]->element_type =
      static_cast<fb::ElementType>(42);
  EXPECT_EQ(LoadError(spec),
            prefix + "binding type 1: invalid element type 42");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->binding_types[2]->shape = {-2};
  EXPECT_EQ(LoadError(spec),
            prefix + "binding type 2: dimension 0 is negative (-2)");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->location->file.clear();
  EXPECT_EQ(LoadError(spec), prefix + "location: missing file");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->provenance[1]->name.clear();
  EXPECT_EQ(LoadError(spec), prefix + "provenance 1: missing op name");
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->provenance[0]->location->file.clear();
  EXPECT_EQ(LoadError(spec), prefix + "provenance 0 location: missing file");
  // An op's text ends after the line it starts on.
  spec = DebugSpec();
  Executables(spec)[0]->exports[0]->provenance[0]->last_line = 2;
  EXPECT_EQ(LoadError(spec),
            prefix + "provenance 0: last line 2 is not past line 2");
  Executables(spec)[0]->exports[0]->provenance[0]->last_line = 3;
  EXPECT_TRUE(LoadSpec(spec, {.load_libraries = false}).ok());
}

TEST(DebugInfoVerifyTest, ModulesWithoutDebugInfoStayValid) {
  fb::ModuleT spec = DebugSpec();
  spec.debug_level = 0;
  spec.capture_stages.clear();
  spec.source_files.clear();
  spec.source_contents.clear();
  for (std::unique_ptr<fb::ExportT>& ex : Executables(spec)[0]->exports) {
    ex->binding_types.clear();
    ex->location.reset();
    ex->provenance.clear();
    ex->stage_locations.clear();
  }
  std::shared_ptr<const Module> module = MustLoad(spec);
  ASSERT_TRUE(module);
  EXPECT_EQ(module->debug_level(), 0u);
  EXPECT_EQ(module->capture_stage_count(), 0u);
  EXPECT_FALSE(module->FindCaptureStage("0.source"));
  EXPECT_TRUE(module->sources().empty());
  EXPECT_EQ(module->sources().content_count(), 0u);
  EXPECT_FALSE(module->sources().Find("model.mlir"));
  StatusOr<ExportView> ex = module->GetExport(0, 0);
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex->name(), "add_f32");
  EXPECT_FALSE(ex->has_binding_types());
  EXPECT_FALSE(ex->location().known());
  EXPECT_EQ(ex->provenance_count(), 0u);
  EXPECT_EQ(ex->stage_location_count(), 0u);
  EXPECT_FALSE(ex->FindStageLocation(0));
  EXPECT_FALSE(ex->TraceLocation(0).known());
  // Level 1: a location but nothing else.
  spec.debug_level = 1;
  Executables(spec)[0]->exports[0]->location = Location("in.mlir", 3, 0);
  module = MustLoad(spec);
  ASSERT_TRUE(module);
  ex = module->GetExport(0, 0);
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex->TraceLocation(2).ToString(), "in.mlir:3");
}

//===----------------------------------------------------------------------===//
// Export views
//===----------------------------------------------------------------------===//

TEST(ExportViewTest, Accessors) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  EXPECT_EQ(module->debug_level(), 3u);
  ASSERT_EQ(module->capture_stage_count(), 3u);
  EXPECT_EQ(module->capture_stage(1), "1.configured");
  EXPECT_EQ(module->FindCaptureStage("2.translated"), 2u);
  EXPECT_FALSE(module->FindCaptureStage("3.nope"));
  ASSERT_EQ(module->executable_count(), 1u);
  EXPECT_EQ(module->executable_name(0), "ex");
  EXPECT_EQ(module->export_count(0), 3u);

  StatusOr<ExportView> add = module->GetExport(0, 0);
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  EXPECT_EQ(add->name(), "add_f32");
  EXPECT_EQ(add->executable_name(), "ex");
  EXPECT_EQ(add->executable_index(), 0u);
  EXPECT_EQ(add->export_index(), 0u);
  EXPECT_EQ(add->binding_count(), 3u);
  EXPECT_EQ(add->workgroup_count(), (std::array<uint32_t, 3>{4, 1, 1}));
  ASSERT_TRUE(add->has_binding_types());
  EXPECT_EQ(add->binding_type(2).ToString(), "8xf32");
  EXPECT_TRUE(add->binding_type(2) == (TensorType{ElementType::kF32, {8}}));
  EXPECT_TRUE(add->binding_type(2) != (TensorType{ElementType::kF32, {2, 4}}));
  EXPECT_EQ(add->location().ToString(), "model.mlir:2:8");
  ASSERT_EQ(add->provenance_count(), 2u);
  EXPECT_EQ(add->provenance(1).name, "arith.addf");
  EXPECT_EQ(add->provenance(1).location.ToString(), "model.mlir:2:3");
  ASSERT_EQ(add->stage_location_count(), 3u);
  const StageLocationView stage2 = add->stage_location(2);
  EXPECT_EQ(stage2.stage, 2u);
  EXPECT_EQ(stage2.stage_name, "2.translated");
  EXPECT_EQ(stage2.source, kStage2File);
  EXPECT_EQ(stage2.path, "dbg_ex_cpu.2.translated.mlir");
  EXPECT_EQ(stage2.line, 120u);
  EXPECT_EQ(add->FindStageLocation(1)->line, 5u);
  EXPECT_EQ(add->TraceLocation(1).ToString(), "dbg_ex_cpu.1.configured.mlir:5");

  // fail has a line in stage 0 only: other stages fall back to its location.
  StatusOr<ExportView> fail = module->FindExport("fail");
  ASSERT_TRUE(fail.ok());
  EXPECT_EQ(fail->export_index(), 1u);
  EXPECT_EQ(fail->TraceLocation(0).ToString(), "dbg_ex_cpu.0.source.mlir:30");
  EXPECT_FALSE(fail->FindStageLocation(2));
  EXPECT_EQ(fail->TraceLocation(2).ToString(), "model.mlir:3:1");
  // The trace location's file is in the source table.
  EXPECT_TRUE(module->sources().Find(fail->TraceLocation(0).file));
}

TEST(ExportViewTest, FindAndGetErrors) {
  fb::ModuleT spec = DebugSpec();
  // A second executable with an export of the same name.
  Executables(spec).push_back(
      Executable("ex2", 0, {*Executables(spec)[0]->exports[1]}));
  std::shared_ptr<const Module> module = MustLoad(spec);
  ASSERT_TRUE(module);
  StatusOr<ExportView> ex = module->FindExport("workgroup_ids");
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex->export_index(), 2u);
  ex = module->FindExport("fail");
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.status().message(),
            "export name 'fail' is ambiguous (ex::fail, ex2::fail); qualify "
            "it as EXECUTABLE::EXPORT");
  ex = module->FindExport("ex2::fail");
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex->executable_index(), 1u);
  ex = module->FindExport("nope");
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ex.status().message(),
            "no export 'nope' (available: add_f32, fail, workgroup_ids, "
            "fail)");
  ex = module->GetExport(2, 0);
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.status().message(), "executable 2 out of range (2 executables)");
  ex = module->GetExport(1, 1);
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.status().message(),
            "export 1 out of range (executable 'ex2' has 1 exports)");
}

//===----------------------------------------------------------------------===//
// Loading without libraries
//===----------------------------------------------------------------------===//

TEST(LoadOptionsTest, WithoutLibrariesVerifiesButDoesNotRun) {
  ModuleLoadOptions options;
  options.load_libraries = false;
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(DebugSpec(), options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_FALSE((*module)->libraries_loaded());
  EXPECT_EQ((*module)->sources().size(), 5u);
  ThreadPool pool(1);
  Context context(*module, &pool);
  std::vector<Tensor> outputs;
  Status status = context.Call("main", {}, &outputs);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the module was loaded without its libraries "
            "(ModuleLoadOptions::load_libraries); it cannot run");
  StatusOr<Tensor> a = ParseTensor("8xf32=1");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(context.Dispatch(0, 0, {1, 1, 1}, {*a, *a, *a}).code(),
            StatusCode::kFailedPrecondition);

  // Everything else is still verified, libraries included.
  fb::ModuleT spec = DebugSpec();
  spec.source_files[3]->content = 9;
  EXPECT_FALSE(LoadSpec(spec, options).ok());
  spec = DebugSpec();
  spec.libraries[0]->data.resize(spec.libraries[0]->data.size() / 2);
  module = LoadSpec(spec, options);
  ASSERT_FALSE(module.ok());
  EXPECT_NE(module.status().message().find("library 0: truncated ELF"),
            std::string::npos)
      << module.status().message();
  // Libraries for a CPU this machine may lack are not checked.
  spec = DebugSpec();
  spec.libraries[0]->cpu = "x86-64-v4";
  EXPECT_TRUE(LoadSpec(spec, options).ok());
}

//===----------------------------------------------------------------------===//
// Context::Dispatch
//===----------------------------------------------------------------------===//

Tensor Parse(std::string_view text) {
  StatusOr<Tensor> tensor = ParseTensor(text);
  EXPECT_TRUE(tensor.ok()) << tensor.status().ToString();
  return tensor.ok() ? *tensor : Tensor();
}

TEST(ContextDispatchTest, RunsOneExport) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  ThreadPool pool(2);
  Context context(module, &pool);
  Tensor a = Parse("8xf32=1,2,3,4,5,6,7,8");
  Tensor b = Parse("8xf32=10");
  Tensor out = Parse("8xf32=0");
  StatusOr<ExportView> add = module->FindExport("add_f32");
  ASSERT_TRUE(add.ok());
  Status status = context.Dispatch(*add, {a, b, out});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(FormatTensor(out), "8xf32=11 12 13 14 15 16 17 18");
  EXPECT_EQ(FormatTensor(a), "8xf32=1 2 3 4 5 6 7 8");
  // A smaller workgroup count (this kernel splits its work over any count).
  out = Parse("8xf32=0");
  status = context.Dispatch(0, 0, {1, 1, 1}, {b, b, out});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(FormatTensor(out), "8xf32=20 20 20 20 20 20 20 20");
  // Kernel failures come back as errors.
  EXPECT_EQ(context.Dispatch(0, 1, {1, 1, 1}, {out}).message(),
            "dispatch 'fail' failed: workgroup (0, 0, 0) returned 7");
}

TEST(ContextDispatchTest, Errors) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  ThreadPool pool(1);
  Context context(module, &pool);
  Tensor v8 = Parse("8xf32=1");
  EXPECT_EQ(context.Dispatch(0, 0, {4, 1, 1}, {v8, v8}).message(),
            "dispatch 'add_f32': expected 3 bindings, got 2");
  EXPECT_EQ(
      context.Dispatch(0, 0, {4, 1, 1}, {v8, Parse("2x4xf32=1"), v8}).message(),
      "dispatch 'add_f32': binding 1: expected 8xf32, got 2x4xf32");
  EXPECT_EQ(
      context.Dispatch(0, 0, {4, 1, 1}, {v8, v8, Parse("8xi32=1")}).message(),
      "dispatch 'add_f32': binding 2: expected 8xf32, got 8xi32");
  EXPECT_EQ(context.Dispatch(0, 0, {4, 1, 1}, {v8, Tensor(), v8}).message(),
            "dispatch 'add_f32': binding 1: empty tensor");
  const float values[8] = {};
  StatusOr<Tensor> borrowed =
      Tensor::Borrow(ElementType::kF32, {8}, values, sizeof(values));
  ASSERT_TRUE(borrowed.ok());
  EXPECT_EQ(context.Dispatch(0, 0, {4, 1, 1}, {v8, v8, *borrowed}).message(),
            "dispatch 'add_f32': binding 2: borrowed tensor (the kernel may "
            "write any binding; pass an allocated tensor)");
  // Shared storage the caller did not align as Tensor::Share asks.
  std::shared_ptr<void> storage(std::aligned_alloc(64, 128), &std::free);
  StatusOr<Tensor> misaligned = Tensor::Share(
      ElementType::kF32, {8},
      std::shared_ptr<void>(storage, static_cast<char*>(storage.get()) + 4));
  ASSERT_TRUE(misaligned.ok());
  EXPECT_EQ(context.Dispatch(0, 0, {4, 1, 1}, {v8, v8, *misaligned}).message(),
            "dispatch 'add_f32': binding 2: data is not 64-byte aligned");
  EXPECT_EQ(context.Dispatch(0, 0, {5, 1, 1}, {v8, v8, v8}).message(),
            "dispatch 'add_f32': workgroup count 5x1x1 is outside [1, 4x1x1] "
            "(the export's count bounds the workgroup ids its code handles)");
  EXPECT_EQ(context.Dispatch(0, 0, {0, 1, 1}, {v8, v8, v8}).message(),
            "dispatch 'add_f32': workgroup count 0x1x1 is outside [1, 4x1x1] "
            "(the export's count bounds the workgroup ids its code handles)");
  EXPECT_EQ(context.Dispatch(0, 2, {1, 1, 1}, {Parse("24xi32=0")}).message(),
            "dispatch 'workgroup_ids': the module does not record the "
            "export's binding types, so its bindings cannot be checked");
  EXPECT_EQ(context.Dispatch(0, 3, {1, 1, 1}, {}).message(),
            "export 3 out of range (executable 'ex' has 3 exports)");
}

//===----------------------------------------------------------------------===//
// Damaged debug information never crashes
//===----------------------------------------------------------------------===//

// Reads every view of a module that loaded despite corruption.
size_t ExerciseDebugInfo(const Module& module) {
  size_t touched = 0;
  for (uint32_t i = 0; i < module.capture_stage_count(); ++i) {
    touched += module.capture_stage(i).size();
  }
  const SourceTable& table = module.sources();
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    touched += table.FindIndex(file.path).has_value();
    StatusOr<std::string> text = file.Decompress();
    if (text.ok()) touched += text->size();
  }
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      StatusOr<ExportView> ex = module.GetExport(e, x);
      if (!ex.ok()) continue;
      touched += ex->name().size() + ex->location().ToString().size();
      if (ex->has_binding_types()) {
        for (uint32_t b = 0; b < ex->binding_count(); ++b) {
          touched += ex->binding_type(b).ToString().size();
        }
      }
      for (uint32_t p = 0; p < ex->provenance_count(); ++p) {
        touched += ex->provenance(p).name.size() +
                   ex->provenance(p).location.file.size();
      }
      for (uint32_t s = 0; s < ex->stage_location_count(); ++s) {
        touched += ex->stage_location(s).path.size() +
                   ex->stage_location(s).stage_name.size();
      }
      for (uint32_t s = 0; s < module.capture_stage_count() + 1; ++s) {
        touched += ex->TraceLocation(s).file.size();
      }
    }
  }
  return touched;
}

TEST(SourceFuzzTest, SingleByteCorruptionsNeverCrash) {
  // Native code is not corrupted (see module_test.cc) nor loaded here: the
  // point is the debug information and the source table.
  const std::vector<uint8_t> bytes = BuildModule(DebugSpec());
  ModuleLoadOptions options;
  options.load_libraries = false;
  StatusOr<std::shared_ptr<const Module>> good = Module::LoadFromMemory(
      bytes.data(), bytes.size(), Module::MemoryMode::kCopy, options);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  const auto* library_data = (*good)->flatbuffer().libraries()->Get(0)->data();
  const size_t library_begin = library_data->data() - (*good)->data();
  const size_t library_end = library_begin + library_data->size();
  good->reset();

  std::mt19937 rng(7);
  int loaded = 0, rejected = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    if (at >= library_begin && at < library_end) continue;
    for (uint8_t value : {uint8_t(bytes[at] ^ 0xff), uint8_t(rng())}) {
      if (value == bytes[at]) continue;
      std::vector<uint8_t> corrupted = bytes;
      corrupted[at] = value;
      StatusOr<std::shared_ptr<const Module>> module =
          Module::LoadFromMemory(corrupted.data(), corrupted.size(),
                                 Module::MemoryMode::kCopy, options);
      if (!module.ok()) {
        EXPECT_FALSE(module.status().message().empty());
        ++rejected;
        continue;
      }
      ++loaded;
      (void)ExerciseDebugInfo(**module);
    }
  }
  EXPECT_GT(loaded, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace kiln
