//===- profile_html_test.cc - A sampled profile as one HTML page ----------===//

#include "kiln/profile_html.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "module/module_test_util.h"
#include "nlohmann/json.hpp"

namespace kiln {
namespace {

namespace fb = kiln::fb;
using testing::DebugModuleSpec;
using testing::LoadSpec;

// Written into the input program's line 2, which the profile's hottest
// lines come from: markup, quotes, a terminal escape and other controls.
constexpr std::string_view kHostileLine =
    "  %0 = linalg.add </script><img src=x onerror=\"alert('x')\"> "
    "<!-- \x01\x1b[31m\x7f";

// DebugModuleSpec (see its line maps) with a 2.translated text too long to
// be embedded whole and the hostile line in the input program.
std::shared_ptr<const Module> HostileModule() {
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  std::vector<std::pair<uint32_t, decltype(spec.source_files[0]->origins)>>
      maps;
  for (const auto& file : spec.source_files) {
    maps.emplace_back(file->previous,
                      file->origins
                          ? std::make_unique<fb::PackedRowsT>(*file->origins)
                          : nullptr);
  }
  const std::string model =
      StrCat("func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) {\n",
             kHostileLine, "\n}\n");
  testing::SetSources(
      &spec,
      {{"dbg_ex_cpu.0.source.mlir", testing::Stage0()},
       {"dbg_ex_cpu.1.configured.mlir", testing::Stage1()},
       {"dbg_ex_cpu.2.translated.mlir", testing::Lines("translated", 1000)},
       {"model.mlir", model},
       {"model.mlir.orig", model}});
  for (size_t i = 0; i < maps.size(); ++i) {
    spec.source_files[i]->previous = maps[i].first;
    spec.source_files[i]->origins = std::move(maps[i].second);
  }
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(std::move(spec), {.load_libraries = false});
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? *module : nullptr;
}

// As RollUpProfileTest samples it: add_f32 on three lines of 2.translated,
// on no line and on an input line; fail on one line.
Profile SampledProfile(const Module& module) {
  const uint32_t stage2 = testing::kStage2File;
  const std::string_view path = module.sources().file(stage2).path;
  Profile profile;
  profile.samples = 29;
  profile.host_samples = 4;
  profile.sampling =
      ProfileSampling{ProfileClock::kCpuClockEvent, 1000, 2, 0.029};
  ProfileExport& add = profile.exports.emplace_back();
  add.export_view = module.GetExport(0, 0).value();
  add.samples = 21;
  add.lines = {{stage2, 121, 10, path},
               {stage2, 122, 3, path},
               {stage2, 130, 2, path},
               {kNoSource, 0, 1, {}},
               {testing::kModelFile, 2, 5, "model.mlir"}};
  ProfileExport& fail = profile.exports.emplace_back();
  fail.export_view = module.GetExport(0, 1).value();
  fail.samples = 4;
  fail.lines = {{stage2, 121, 4, path}};
  return profile;
}

/// The page's data block, parsed.
nlohmann::json PageData(const std::string& html) {
  const std::string open =
      "<script type=\"application/json\" id=\"kiln-profile-data\">";
  const size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos);
  const size_t end = html.find("</script>", begin);
  EXPECT_NE(end, std::string::npos);
  return nlohmann::json::parse(
      html.substr(begin + open.size(), end - begin - open.size()));
}

size_t Count(const std::string& text, std::string_view what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

TEST(ProfileHtmlTest, EmbedsTheProfileAtEveryStageAsData) {
  std::shared_ptr<const Module> module = HostileModule();
  ASSERT_TRUE(module);
  const std::string html =
      FormatProfileHtml(*module, SampledProfile(*module), "main");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const nlohmann::json data = PageData(html);
  // Self-contained: the page around the data fetches nothing.
  const std::string page =
      html.substr(0, html.find("id=\"kiln-profile-data\""));
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("://"), std::string::npos);

  EXPECT_EQ(data["function"], "main");
  EXPECT_EQ(data["sampling"]["samples"], 29);
  EXPECT_EQ(data["sampling"]["host_samples"], 4);
  EXPECT_EQ(data["sampling"]["hz"], 1000);
  EXPECT_EQ(data["sampling"]["clock"], "the cpu-clock event");
  EXPECT_EQ(data["stages"],
            (nlohmann::json{"0.source", "1.configured", "2.translated"}));

  // The op table: at the input, add_f32's lines go to its linalg.add.
  ASSERT_EQ(data["ops"].size(), 1u);
  EXPECT_EQ(data["ops"][0]["name"], "linalg.add");
  EXPECT_EQ(data["ops"][0]["location"], "model.mlir:2:8");
  EXPECT_EQ(data["ops"][0]["samples"], 18);
  EXPECT_EQ(data["ops"][0]["dispatches"], nlohmann::json{0});
  EXPECT_EQ(data["unplaced_samples"], 7);

  // The flame graph under add_f32: the op, then the sampled lines; what
  // has no op's line is op -1. Each level adds up to the one above.
  const nlohmann::json& add = data["exports"][0];
  EXPECT_EQ(add["name"], "add_f32");
  EXPECT_EQ(add["samples"], 21);
  uint64_t frames = 0;
  for (const nlohmann::json& frame : add["flame"]) {
    uint64_t leaves = 0;
    for (const nlohmann::json& leaf : frame[2]) leaves += leaf[2].get<int>();
    EXPECT_EQ(leaves, frame[1].get<uint64_t>()) << frame;
    frames += frame[1].get<uint64_t>();
  }
  EXPECT_EQ(frames, 21u);
  EXPECT_EQ(add["flame"][0][0], 0);
  EXPECT_EQ(add["flame"][0][1], 18);

  // add_f32's texts: a stage text per captured stage, then the input,
  // each with the samples on its lines at that stage.
  const nlohmann::json& texts = data["texts"];
  std::vector<std::string> paths;
  for (const nlohmann::json& entry : add["texts"]) {
    paths.push_back(texts[entry["text"].get<size_t>()]["path"]);
  }
  EXPECT_EQ(paths,
            (std::vector<std::string>{
                "dbg_ex_cpu.0.source.mlir", "dbg_ex_cpu.1.configured.mlir",
                "dbg_ex_cpu.2.translated.mlir", "model.mlir"}));
  EXPECT_EQ(add["texts"][0]["lines"], (nlohmann::json{{9, 10}, {10, 3}}));
  EXPECT_EQ(add["texts"][2]["entry"], 120);
  EXPECT_EQ(add["texts"][3]["lines"], (nlohmann::json{{2, 18}}));

  // A short text whole; of the long one, the lines around the sampled and
  // entry lines (120 to 130), with the line maps to follow.
  const nlohmann::json& source = texts[add["texts"][0]["text"].get<size_t>()];
  EXPECT_EQ(source["segments"].size(), 1u);
  EXPECT_EQ(source["segments"][0][0], 1);
  EXPECT_EQ(source["segments"][0][1].size(), 40u);
  const nlohmann::json& translated =
      texts[add["texts"][2]["text"].get<size_t>()];
  EXPECT_EQ(translated["line_count"], 1000);
  ASSERT_EQ(translated["segments"].size(), 1u);
  EXPECT_EQ(translated["segments"][0][0], 120 - kProfileHtmlContextLines);
  EXPECT_EQ(
      translated["segments"][0][1].size(),
      130 + kProfileHtmlContextLines - (120 - kProfileHtmlContextLines) + 1);
  EXPECT_EQ(
      translated["segments"][0][1][0],
      StrCat("translated line ", 120 - kProfileHtmlContextLines, ": %",
             120 - kProfileHtmlContextLines, " = arith.addf %a, %b : f32"));
  EXPECT_EQ(translated["omitted"], nullptr);
  EXPECT_EQ(texts[translated["previous"].get<size_t>()]["path"],
            "dbg_ex_cpu.1.configured.mlir");
  // 121 <- 1.configured 14, input model.mlir 2 (the first row).
  const nlohmann::json& model = texts[add["texts"][3]["text"].get<size_t>()];
  EXPECT_EQ(translated["origins"][0], 121);
  EXPECT_EQ(translated["origins"][1], 14);
  EXPECT_EQ(texts[translated["origins"][2].get<size_t>()]["path"],
            "model.mlir");
  EXPECT_EQ(translated["origins"][3], 2);
  EXPECT_EQ(model["stage"], -1);

  // input.mlir, which the line maps name, is not in the module: the page
  // says so instead of showing its lines.
  bool input_named = false;
  for (const nlohmann::json& text : texts) {
    if (text["path"] != "input.mlir") continue;
    input_named = true;
    EXPECT_TRUE(text["segments"].empty());
    EXPECT_NE(text["omitted"].get<std::string>().find(
                  "--executable-embed-input-files"),
              std::string::npos);
  }
  EXPECT_TRUE(input_named);
}

TEST(ProfileHtmlTest, ModuleTextCannotBreakOutOfTheData) {
  std::shared_ptr<const Module> module = HostileModule();
  ASSERT_TRUE(module);
  const std::string html = FormatProfileHtml(*module, SampledProfile(*module),
                                             "main</script><b>\"'");
  // The page's own three scripts close; nothing from the module does.
  EXPECT_EQ(Count(html, "</script"), 3u);
  EXPECT_EQ(Count(html, "<img"), 0u);
  EXPECT_EQ(Count(html, "<!--"), 0u);
  EXPECT_EQ(Count(html, "<b>"), 0u);
  EXPECT_NE(html.find("\\u003c/script>\\u003cimg src=x onerror=\\\"alert('x')"
                      "\\\"> \\u003c!-- \\\\x01\\\\x1b[31m\\\\x7f"),
            std::string::npos);
  for (char c : html) {
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20)
        << static_cast<int>(c);
    if (c != '\n' && static_cast<unsigned char>(c) < 0x20) break;
  }
  EXPECT_EQ(html.find('\x7f'), std::string::npos);

  // Read back, the data says what the module says (controls shown as
  // escapes, as the text reports show them).
  const nlohmann::json data = PageData(html);
  EXPECT_EQ(data["function"], "main</script><b>\"'");
  bool found = false;
  for (const nlohmann::json& text : data["texts"]) {
    if (text["path"] != "model.mlir") continue;
    found = true;
    EXPECT_EQ(text["segments"][0][1][1],
              "  %0 = linalg.add </script><img src=x onerror=\"alert('x')\"> "
              "<!-- \\x01\\x1b[31m\\x7f")
        << text;
  }
  EXPECT_TRUE(found);
}

TEST(ProfileHtmlTest, AProfileWithoutSamplesStillMakesAPage) {
  std::shared_ptr<const Module> module = HostileModule();
  ASSERT_TRUE(module);
  Profile empty;
  empty.sampling = ProfileSampling{ProfileClock::kCpuTimeTimer, 1000, 1, 0};
  const nlohmann::json data =
      PageData(FormatProfileHtml(*module, empty, "main"));
  EXPECT_TRUE(data["exports"].empty());
  EXPECT_TRUE(data["ops"].empty());
  EXPECT_TRUE(data["texts"].empty());
  EXPECT_NE(data["sampling"]["advice"].get<std::string>().find("no samples"),
            std::string::npos);
}

}  // namespace
}  // namespace kiln
