//===- printable_test.cc - Tests of Printable -----------------------------===//

#include "kiln/printable.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(PrintableTest, KeepsTextAndUtf8) {
  EXPECT_EQ(Printable("main_dispatch_0 model.mlir:3:8 \\x41"),
            "main_dispatch_0 model.mlir:3:8 \\x41");
  EXPECT_EQ(Printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
  EXPECT_EQ(Printable(""), "");
}

TEST(PrintableTest, EscapesControlCharacters) {
  EXPECT_EQ(Printable("a\nb\rc\td\x1b[2Je\x7f"),
            "a\\x0ab\\x0dc\\x09d\\x1b[2Je\\x7f");
  EXPECT_EQ(Printable(std::string_view("nul\0", 4)), "nul\\x00");
  // C1 controls (CSI), bidirectional overrides, line separators.
  EXPECT_EQ(Printable("\xc2\x9b[2J"), "\\u009b[2J");
  EXPECT_EQ(Printable("abc\xe2\x80\xae_fed"), "abc\\u202e_fed");
  EXPECT_EQ(Printable("\xe2\x81\xa6x\xe2\x80\xa8"), "\\u2066x\\u2028");
}

TEST(PrintableTest, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(Printable("\x9b[2J"), "\\x9b[2J");
  EXPECT_EQ(Printable("\xc3"), "\\xc3");                    // truncated
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
  EXPECT_EQ(Printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(Printable("\xe2\x82x"), "\\xe2\\x82x");
}

TEST(PrintableTest, SourceLinesKeepTheirTabs) {
  EXPECT_EQ(PrintableSourceLine("\t%0 = arith.addf\x1b[2J\n"),
            "\t%0 = arith.addf\\x1b[2J\\x0a");
}

TEST(PrintableTest, NumberedSourceLinesAlignAndMarkTheirLine) {
  EXPECT_EQ(NumberedSourceLine(7, true, 2, "\t%0 = arith.addf"),
            ">  7  \t%0 = arith.addf");
  EXPECT_EQ(NumberedSourceLine(12, false, 2, "x\x1b"), "  12  x\\x1b");
  // A number wider than its column is shown whole.
  EXPECT_EQ(NumberedSourceLine(123456, false, 5, ""), "  123456  ");
}

TEST(PrintableTest, LineWindowsCountLinesAsTheCompilerDoes) {
  const std::string_view text = "a\nb\nc\nd\n";
  LineWindow window = FindLineWindow(text, 2, 3);
  EXPECT_EQ(window.text, "b\nc\n");
  EXPECT_EQ(window.first, 2u);
  EXPECT_EQ(window.last, 3u);
  // The final '\n' starts no fifth line.
  EXPECT_EQ(window.line_count, 4u);
  window = FindLineWindow(text, 3, UINT64_MAX);
  EXPECT_EQ(window.text, "c\nd\n");
  EXPECT_EQ(window.last, 4u);
  // A last line without '\n' counts; a window past the end is empty.
  EXPECT_EQ(FindLineWindow("a\nb", 2, 9).text, "b");
  window = FindLineWindow("a\nb", 3, 9);
  EXPECT_TRUE(window.text.empty());
  EXPECT_EQ(window.last, 2u);
  EXPECT_EQ(FindLineWindow("", 1, 9).line_count, 0u);
}

TEST(PrintableTest, NumberedLinesOfAWindowMarkTheirLine) {
  std::vector<std::string> lines;
  ForEachNumberedLine(FindLineWindow("x\ny\nz\n", 2, 3), 3, 2,
                      [&](const std::string& line) { lines.push_back(line); });
  EXPECT_EQ(lines, (std::vector<std::string>{"   2  y", ">  3  z"}));
}

TEST(PrintableTest, EscapedTextIsUnchanged) {
  const std::string once = Printable("a\n\x9b\xe2\x80\xae\xc3\xa9");
  EXPECT_EQ(Printable(once), once);
}

}  // namespace
}  // namespace kiln
