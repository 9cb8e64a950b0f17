//===- file_descriptor.h - A file descriptor closed with its owner -*- C++ -*-===//

#ifndef KILN_FILE_DESCRIPTOR_H_
#define KILN_FILE_DESCRIPTOR_H_

#include <unistd.h>

#include <utility>

namespace kiln {

/// Owns a file descriptor (or none: -1) and closes it when destroyed.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }

  int get() const { return fd_; }
  /// Closes the descriptor now and returns what close() returned (0, or -1
  /// with errno set): where a write error may show only at close.
  int Close() { return ::close(std::exchange(fd_, -1)); }
  /// Gives up ownership: the caller closes the returned descriptor.
  int Release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

}  // namespace kiln

#endif  // KILN_FILE_DESCRIPTOR_H_
