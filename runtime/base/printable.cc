//===- printable.cc - Module text made safe to print ----------------------===//

#include "kiln/printable.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace kiln {
namespace {

/// The length of the well-formed UTF-8 sequence at the start of `text`
/// (Unicode's table 3-7: no overlong forms, surrogates or values above
/// U+10FFFF), or 0; its code point in `*code_point`.
size_t DecodeUtf8(std::string_view text, uint32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(0);
  size_t length;
  uint8_t low = 0x80, high = 0xbf;  // bounds of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    *code_point = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    *code_point = lead & 0x0f;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    *code_point = lead & 0x07;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const uint8_t next = byte(i);
    if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xbf)) {
      return 0;
    }
    *code_point = *code_point << 6 | (next & 0x3f);
  }
  return length;
}

/// C1 controls and the characters that reorder or break lines.
bool IsUnicodeControl(uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

std::string Escape(std::string_view text, bool keep_tabs) {
  std::string out;
  out.reserve(text.size());
  char escaped[12];
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<uint8_t>(text[i]);
    if ((byte >= 0x20 && byte < 0x7f) || (keep_tabs && byte == '\t')) {
      out.push_back(text[i++]);
      continue;
    }
    uint32_t code_point = 0;
    const size_t length =
        byte < 0x80 ? 0 : DecodeUtf8(text.substr(i), &code_point);
    if (length != 0 && !IsUnicodeControl(code_point)) {
      out.append(text.substr(i, length));
    } else if (length != 0) {
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", code_point);
      out.append(escaped);
    } else {
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", byte);
      out.append(escaped);
    }
    i += length != 0 ? length : 1;
  }
  return out;
}

}  // namespace

std::string Printable(std::string_view text) {
  return Escape(text, /*keep_tabs=*/false);
}

std::string PrintableSourceLine(std::string_view line) {
  return Escape(line, /*keep_tabs=*/true);
}

std::string NumberedSourceLine(uint64_t number, bool marked, size_t width,
                               std::string_view line) {
  const std::string digits = std::to_string(number);
  std::string out(1, marked ? '>' : ' ');
  out.append(width > digits.size() ? width - digits.size() : 0, ' ');
  out += ' ';
  out += digits;
  out += "  ";
  out += PrintableSourceLine(line);
  return out;
}

LineWindow FindLineWindow(std::string_view text, uint64_t first,
                          uint64_t last) {
  LineWindow window;
  window.first = first;
  size_t begin_byte = 0, end_byte = 0;  // end_byte: past the last '\n'
  for (size_t begin = 0; begin < text.size();) {
    const size_t newline = text.find('\n', begin);
    const size_t next =
        newline == std::string_view::npos ? text.size() : newline + 1;
    ++window.line_count;
    if (window.line_count == first) begin_byte = begin;
    if (window.line_count >= first && window.line_count <= last) {
      end_byte = next;
    }
    begin = next;
  }
  window.last = std::min(window.line_count, last);
  if (window.last >= first) {
    window.text = text.substr(begin_byte, end_byte - begin_byte);
  }
  return window;
}

void ForEachNumberedLine(const LineWindow& window, uint64_t marked,
                         size_t width,
                         const std::function<void(const std::string&)>& emit) {
  uint64_t number = window.first;
  for (size_t begin = 0; begin < window.text.size(); ++number) {
    size_t end = window.text.find('\n', begin);
    if (end == std::string_view::npos) end = window.text.size();
    emit(NumberedSourceLine(number, number == marked, width,
                            window.text.substr(begin, end - begin)));
    begin = end + 1;
  }
}

}  // namespace kiln
