#pragma once
// One trainer per model directory: an advisory lock (flock) on DIR/.lock, held while the
// trainer runs and released by the kernel when its process ends, however it ends.

#include <string>

namespace atento {

/// Name of the lock file inside a model directory.
inline constexpr const char* kLockFile = ".lock";

/// Holds the exclusive lock of a model directory for its lifetime.
class DirectoryLock {
 public:
  /// Takes the lock of `dir` or throws std::runtime_error at once when another process holds
  /// it ("… is in use by another atento-train (pid N)").
  explicit DirectoryLock(const std::string& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  /// The lock moves with the object (the moved-from one holds nothing).
  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock& operator=(DirectoryLock&&) = delete;

 private:
  int fd_ = -1;
};

/// True when a running process holds the lock of `dir` (a trainer is writing it).
bool directory_in_use(const std::string& dir);

}  // namespace atento
