//===- tool_test.cc - Running a tool from a test --------------------------===//

#include "support/tool_test.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace kiln::testing {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void ToolTest::SetUp() {
  char name[] = "/tmp/kiln_tool_test_XXXXXX";
  ASSERT_NE(::mkdtemp(name), nullptr);
  dir_ = name;
}

void ToolTest::TearDown() {
  std::error_code error;
  std::filesystem::remove_all(dir_, error);
}

std::string ToolTest::Write(const std::string& name,
                            const std::vector<uint8_t>& data) {
  const std::string path = dir_ + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), data.size());
  return path;
}

RunResult ToolTest::RunProgram(const std::string& program,
                               std::vector<std::string> args) {
  const std::string out_path = dir_ + "/stdout", err_path = dir_ + "/stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  args.insert(args.begin(), program);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  RunResult result;
  pid_t pid;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr,
                                  argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot spawn " << program;
    return result;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = ReadText(out_path);
  result.err = ReadText(err_path);
  return result;
}

RunResult ToolTest::RunInShell(const std::string& setup,
                               const std::string& program,
                               std::vector<std::string> args) {
  args.insert(args.begin(), {"-c", setup + " && exec \"$0\" \"$@\"", program});
  return RunProgram("/bin/sh", std::move(args));
}

}  // namespace kiln::testing
