#include "app/common/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "app/common/files.h"

namespace atento {
namespace {

int open_lock_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  return fd;
}

// The pid the holder wrote into the lock file, or "" when unreadable or not a number.
std::string holder_pid(int fd) {
  char buffer[32] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  std::string pid = n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  // The file is anyone's to write: only a number is shown.
  const bool number = !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos;
  return number ? pid : "";
}

}  // namespace

DirectoryLock::DirectoryLock(const std::string& dir) {
  const std::string path = join_path(dir, kLockFile);
  fd_ = open_lock_file(path);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const std::string pid = holder_pid(fd_);
    ::close(fd_);
    throw std::runtime_error(dir + " is in use by another atento-train" +
                             (pid.empty() ? "" : " (pid " + pid + ")") +
                             ": one trainer per model directory");
  }
  // Tells a second trainer who holds the lock; the lock itself is the flock, not the content.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The lock is held all the same; only the message of a second trainer loses the pid.
  }
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

bool directory_in_use(const std::string& dir) {
  const std::string path = join_path(dir, kLockFile);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

}  // namespace atento
