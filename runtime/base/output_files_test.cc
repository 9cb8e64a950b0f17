//===- output_files_test.cc - Tests of how tools write files --------------===//

#include "kiln/output_files.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "gtest/gtest.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using testing::Names;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs `write` in a child process that may not grow any file (RLIMIT_FSIZE
// 0, SIGXFSZ ignored, so a write fails with EFBIG as on a full disk) and
// returns the message of its error, or "ok".
std::string RunOnFullDisk(const std::function<Status()>& write) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "no pipe";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit = {0, 0};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const Status status = write();
    const std::string message = status.ok() ? "ok" : status.message();
    (void)!::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof(buffer))) > 0;) {
    message.append(buffer, n);
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return message;
}

class OutputFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    std::string name = std::string(tmp ? tmp : "/tmp") + "/kiln_output_XXXXXX";
    ASSERT_NE(::mkdtemp(name.data()), nullptr);
    dir_ = name;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
};

TEST_F(OutputFilesTest, WriteFileAtomicallyReplacesTheFileAsAWhole) {
  const std::string path = dir_ + "/out.npy";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  EXPECT_EQ(ReadText(path), "first");
  // A symlink is replaced, its target left alone; no temporary file stays.
  WriteText(dir_ + "/target", "target");
  std::filesystem::remove(path);
  std::filesystem::create_symlink(dir_ + "/target", path);
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  EXPECT_EQ(ReadText(path), "second");
  EXPECT_FALSE(std::filesystem::is_symlink(path));
  EXPECT_EQ(ReadText(dir_ + "/target"), "target");
  EXPECT_EQ(Names(dir_), (std::vector<std::string>{"out.npy", "target"}));

  EXPECT_EQ(
      WriteFileAtomically(dir_ + "/missing/x.npy", "x").message(),
      "cannot write '" + dir_ + "/missing/x.npy': No such file or directory");
  EXPECT_EQ(WriteFileAtomically(dir_ + "/", "x").message(),
            "cannot write '" + dir_ + "/': it names a directory");
}

TEST_F(OutputFilesTest, AFullDiskLeavesTheOldFileAndNoTemporaryFile) {
  const std::string path = dir_ + "/out.npy";
  WriteText(path, "old");
  EXPECT_EQ(RunOnFullDisk([&] { return WriteFileAtomically(path, "new"); }),
            "cannot write '" + path + "': write failed: File too large");
  EXPECT_EQ(ReadText(path), "old");
  EXPECT_EQ(Names(dir_), std::vector<std::string>{"out.npy"});

  StatusOr<OutputDirectory> out = OutputDirectory::OpenOrCreate(dir_ + "/d");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(
      RunOnFullDisk([&] {
        return out->WriteFile("a/b.mlir", "text", IfFileExists::kFail);
      }),
      "cannot write '" + dir_ + "/d/a/b.mlir': write failed: File too large");
  EXPECT_EQ(Names(dir_ + "/d/a"), std::vector<std::string>{});
}

TEST_F(OutputFilesTest, NormalizeRelativePath) {
  auto normal = [](std::string_view path) {
    StatusOr<std::string> result = NormalizeRelativePath(path);
    return result.ok() ? *result : "error: " + result.status().message();
  };
  EXPECT_EQ(normal("a.mlir"), "a.mlir");
  EXPECT_EQ(normal("/abs/./path.mlir"), "abs/path.mlir");
  EXPECT_EQ(normal("a//b/./c.mlir"), "a/b/c.mlir");
  EXPECT_EQ(normal("m:v2.mlir"), "m:v2.mlir");
  EXPECT_EQ(normal("a.b/c..d.mlir"), "a.b/c..d.mlir");
  EXPECT_EQ(normal(""), "error: empty path");
  EXPECT_EQ(normal("a/"), "error: path names a directory");
  EXPECT_EQ(normal("/"), "error: path names a directory");
  EXPECT_EQ(normal("./."), "error: path names a directory");
  EXPECT_EQ(normal("a/../../up"),
            "error: '..' component would leave the directory");
  EXPECT_EQ(normal(".bashrc"),
            "error: '.bashrc' is a hidden name (it starts with '.')");
  EXPECT_EQ(normal("/home/u/.ssh/authorized_keys"),
            "error: '.ssh' is a hidden name (it starts with '.')");
  EXPECT_EQ(normal(std::string_view("a\0b", 3)),
            "error: path contains a NUL byte");
  // Names that would forge lines or drive a terminal where they are listed.
  EXPECT_EQ(normal("a\nwrote /etc/passwd.mlir"),
            "error: path holds control characters ('a\\x0awrote "
            "/etc/passwd.mlir')");
  EXPECT_EQ(normal("\x1b]2;title\x07.mlir"),
            "error: path holds control characters ('\\x1b]2;title\\x07.mlir')");
  EXPECT_EQ(normal("a\xe2\x80\xae"
                   "b.mlir"),
            "error: path holds control characters ('a\\u202eb.mlir')");
  EXPECT_EQ(normal("caf\xc3\xa9.mlir"), "caf\xc3\xa9.mlir");
  // Deep paths: 64 directories, not 65 (nor 2,100).
  std::string deep;
  for (int i = 0; i < 64; ++i) deep += "d/";
  EXPECT_EQ(normal(deep + "x.mlir"), deep + "x.mlir");
  EXPECT_EQ(normal(deep + "d/x.mlir"),
            "error: path is more than 64 directories deep");
  deep.clear();
  for (int i = 0; i < 2100; ++i) deep += "/a";
  EXPECT_EQ(normal(deep), "error: path is more than 64 directories deep");
  EXPECT_EQ(normal(std::string(4200, 'n') + "/x.mlir"),
            "error: path is 4207 bytes long, more than the system's limit "
            "of 4095");
}

TEST_F(OutputFilesTest, WriteFileRefusesOrReplacesAnExistingFile) {
  StatusOr<OutputDirectory> out = OutputDirectory::OpenOrCreate(dir_ + "/d");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE(out->WriteFile("x/a.mlir", "one", IfFileExists::kFail).ok());
  EXPECT_EQ(ReadText(dir_ + "/d/x/a.mlir"), "one");
  Status again = out->WriteFile("./x//a.mlir", "two", IfFileExists::kFail);
  EXPECT_EQ(again.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(again.message(), "'" + dir_ + "/d/x/a.mlir' exists");
  EXPECT_EQ(ReadText(dir_ + "/d/x/a.mlir"), "one");
  // A hard link to the file is not written through.
  ASSERT_EQ(::link((dir_ + "/d/x/a.mlir").c_str(), (dir_ + "/linked").c_str()),
            0);
  ASSERT_TRUE(out->WriteFile("x/a.mlir", "two", IfFileExists::kReplace).ok());
  EXPECT_EQ(ReadText(dir_ + "/d/x/a.mlir"), "two");
  EXPECT_EQ(ReadText(dir_ + "/linked"), "one");
  EXPECT_EQ(Names(dir_ + "/d/x"), std::vector<std::string>{"a.mlir"});
  EXPECT_EQ(out->WriteFile(".hidden", "x", IfFileExists::kFail).message(),
            "'.hidden' is a hidden name (it starts with '.')");
}

TEST_F(OutputFilesTest, WriteFileNeverFollowsSymlinks) {
  const std::string outside = dir_ + "/outside";
  std::filesystem::create_directory(outside);
  WriteText(outside + "/target", "outside");
  StatusOr<OutputDirectory> out = OutputDirectory::OpenOrCreate(dir_ + "/d");
  ASSERT_TRUE(out.ok());
  std::filesystem::create_directory_symlink(outside, dir_ + "/d/sub");
  std::filesystem::create_symlink(outside + "/target", dir_ + "/d/link");
  EXPECT_EQ(out->WriteFile("sub/x", "x", IfFileExists::kReplace).message(),
            "'" + dir_ + "/d/sub' exists and is a symlink or not a directory");
  EXPECT_EQ(out->WriteFile("link", "new", IfFileExists::kFail).message(),
            "'" + dir_ + "/d/link' exists");
  ASSERT_TRUE(out->WriteFile("link", "new", IfFileExists::kReplace).ok());
  EXPECT_FALSE(std::filesystem::is_symlink(dir_ + "/d/link"));
  EXPECT_EQ(ReadText(dir_ + "/d/link"), "new");
  EXPECT_EQ(Names(outside), std::vector<std::string>{"target"});
  EXPECT_EQ(ReadText(outside + "/target"), "outside");
}

TEST_F(OutputFilesTest, CreateNewRefusesAnExistingPath) {
  StatusOr<OutputDirectory> made = OutputDirectory::CreateNew(dir_ + "/a/b/");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ(made->FilePath("f"), dir_ + "/a/b/f");
  for (const std::string& existing :
       {dir_ + "/a/b", dir_ + "/a/b/", dir_ + "/a"}) {
    StatusOr<OutputDirectory> again = OutputDirectory::CreateNew(existing);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(
        again.status().message(),
        "'" + existing + "' exists; give a directory that does not exist yet");
  }
  // A symlink to a directory, or a file, exists too.
  std::filesystem::create_directory_symlink(dir_ + "/a", dir_ + "/link");
  EXPECT_FALSE(OutputDirectory::CreateNew(dir_ + "/link").ok());
  WriteText(dir_ + "/file", "");
  EXPECT_FALSE(OutputDirectory::CreateNew(dir_ + "/file").ok());
  EXPECT_FALSE(OutputDirectory::CreateNew("").ok());
}

}  // namespace
}  // namespace kiln
