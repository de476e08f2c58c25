#include "data/text_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <sstream>
#include <stdexcept>

namespace atento::data {

std::string read_whole_file(const std::string& path, const std::string& what,
                            std::uint64_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error("cannot read " + what + " " + path + ": it is a directory");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw std::runtime_error("cannot read " + what + " " + path + ": " + std::to_string(size) +
                             " bytes, more than the " + std::to_string(max_bytes) + " allowed");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read " + what + " " + path + ": " + std::strerror(errno));
  }
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read " + what + " " + path + ": I/O error");
  return std::move(content).str();
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream file;
  if (!path.empty()) {
    file.open(path, std::ios::binary);
    if (!file) throw std::runtime_error(path + ": cannot open input");
  }
  std::istream& in = path.empty() ? std::cin : file;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

namespace {

std::runtime_error write_error(const std::string& path, const std::string& reason) {
  return std::runtime_error("cannot write " + path + ": " + reason);
}

// Writes every byte of `content` to `fd`, resuming after partial writes and signals.
bool write_all(int fd, const std::string& content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Creates `temporary` holding `content`, on disk (fsync) before it returns; removes it and
// throws on failure.
void write_durable_file(const std::string& temporary, const std::string& content) {
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw write_error(temporary, std::strerror(errno));
  const bool written = write_all(fd, content) && ::fsync(fd) == 0;
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    const std::string reason = std::strerror(written ? errno : saved);
    ::unlink(temporary.c_str());
    throw write_error(temporary, reason);
  }
}

}  // namespace

void sync_directory(const std::string& dir) {
  const std::string name = dir.empty() ? "." : dir;
  const int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw write_error(name, std::strerror(errno));
  const bool synced = ::fsync(fd) == 0;
  const std::string reason = std::strerror(errno);
  ::close(fd);
  if (!synced) throw write_error(name, "cannot flush the directory: " + reason);
}

namespace {

// Writes `content` into the existing non-regular file `path` (a device, FIFO, socket or
// terminal, or an open descriptor such as /dev/stdout) where it is: such a file must not be
// replaced by a rename. Appends, so that /dev/stdout redirected with `>>` keeps what it held.
void write_in_place(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw write_error(path, std::strerror(errno));
  const bool written = write_all(fd, content);
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) throw write_error(path, std::strerror(written ? errno : saved));
}

// Writes `content` to the regular file (or new path) `path` by temporary file and rename.
void replace_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  if (target.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
  }
  // The pid keeps two processes writing the same directory from sharing a temporary file.
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  write_durable_file(temporary, content);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + reason);
  }
  sync_directory(target.parent_path().string());
}

// Whether the chain of symlinks from `path` passes through /proc (as /dev/stdout and /dev/fd/N
// do): such a path names an open descriptor of this process, to be written where it points.
bool names_a_descriptor(std::filesystem::path path) {
  for (int hop = 0; hop < 40; ++hop) {
    if (path.string().rfind("/proc/", 0) == 0) return true;
    std::error_code ec;
    if (!std::filesystem::is_symlink(path, ec)) return false;
    const std::filesystem::path next = std::filesystem::read_symlink(path, ec);
    if (ec) return false;
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return false;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  struct stat followed {};
  if (::stat(path.c_str(), &followed) == 0 && !S_ISREG(followed.st_mode)) {
    if (S_ISDIR(followed.st_mode)) throw write_error(path, "it is a directory");
    write_in_place(path, content);
    return;
  }
  if (names_a_descriptor(path)) {
    write_in_place(path, content);
    return;
  }
  struct stat own {};
  if (::lstat(path.c_str(), &own) == 0 && S_ISLNK(own.st_mode)) {
    // A link to a regular file stays a link: its target is the file replaced.
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (!ec) {
      replace_atomically(target.string(), content);
      return;
    }
  }
  replace_atomically(path, content);
}

}  // namespace atento::data
