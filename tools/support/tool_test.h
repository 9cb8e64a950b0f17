//===- tool_test.h - Running a tool from a test -------------------*- C++ -*-===//

#ifndef KILN_TOOLS_SUPPORT_TOOL_TEST_H_
#define KILN_TOOLS_SUPPORT_TOOL_TEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kiln::testing {

struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string out, err;
};

/// The whole file (empty if it cannot be read).
std::string ReadText(const std::string& path);

/// A test with a fresh directory for its files (removed at the end) that
/// runs built tools in it.
class ToolTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  /// Writes `data` to dir_/name and returns that path.
  std::string Write(const std::string& name, const std::vector<uint8_t>& data);
  /// Runs `program` with `args`, capturing stdout and stderr.
  RunResult RunProgram(const std::string& program,
                       std::vector<std::string> args);
  /// Runs `program` with `args` from /bin/sh once the shell commands
  /// `setup` succeed, e.g. "exec >/dev/full" (every write to stdout fails) or
  /// "trap '' XFSZ; ulimit -f 0" (every write to a file fails, as on a full
  /// disk; stdout and stderr too).
  RunResult RunInShell(const std::string& setup, const std::string& program,
                       std::vector<std::string> args);

  std::string dir_;
};

}  // namespace kiln::testing

#endif  // KILN_TOOLS_SUPPORT_TOOL_TEST_H_
