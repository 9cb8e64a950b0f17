//===- json_string.h - Module text as a JSON string literal -------*- C++ -*-===//
//
// The one JSON string escaping of the files the runtime writes (the chrome
// trace, the profile report): any bytes, names and texts read from a module
// included, make a valid literal. Internal to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BASE_JSON_STRING_H_
#define KILN_RUNTIME_BASE_JSON_STRING_H_

#include <string>
#include <string_view>

namespace kiln {

/// Appends `text` as a JSON string literal: '"', '\\' and control
/// characters escaped, other bytes as they are.
void AppendJsonString(std::string* out, std::string_view text);

}  // namespace kiln

#endif  // KILN_RUNTIME_BASE_JSON_STRING_H_
