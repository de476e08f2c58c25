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
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

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
bool write_all(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
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

// The regular file that writing `path` replaces: `path` itself, or the target of a symlink
// to a regular file (the link stays a link). "" when `path` must be written in place: a
// device, FIFO, socket or terminal, or a descriptor of this process.
std::string replaced_file(const std::string& path) {
  struct stat followed {};
  if (::stat(path.c_str(), &followed) == 0 && !S_ISREG(followed.st_mode)) {
    if (S_ISDIR(followed.st_mode)) throw write_error(path, "it is a directory");
    return "";
  }
  if (names_a_descriptor(path)) return "";
  struct stat own {};
  if (::lstat(path.c_str(), &own) == 0 && S_ISLNK(own.st_mode)) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (!ec) return target.string();
  }
  return path;
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

OutputFile::OutputFile(const std::string& path) : path_(path.empty() ? "<stdout>" : path) {
  if (path.empty()) {
    fd_ = STDOUT_FILENO;  // standard output: written in place, not ours to close
    return;
  }
  target_ = replaced_file(path);
  if (target_.empty()) {
    // Appends, so that /dev/stdout redirected with `>>` keeps what it held.
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw write_error(path, std::strerror(errno));
    owned_ = true;
    return;
  }
  const std::filesystem::path target(target_);
  if (target.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
  }
  // The pid keeps two processes writing the same directory from sharing a temporary file.
  temporary_ = target_ + ".tmp." + std::to_string(::getpid());
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw write_error(temporary_, std::strerror(errno));
  owned_ = true;
}

OutputFile::~OutputFile() {
  if (owned_ && fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw write_error(path_, "already closed");
  if (!write_all(fd_, bytes)) {
    throw write_error(temporary_.empty() ? path_ : temporary_, std::strerror(errno));
  }
}

void OutputFile::commit() {
  if (committed_) return;
  if (temporary_.empty()) {  // in place
    const bool closed = !owned_ || ::close(fd_) == 0;
    const int saved = errno;
    fd_ = -1;
    committed_ = true;
    if (!closed) throw write_error(path_, std::strerror(saved));
    return;
  }
  const bool synced = ::fsync(fd_) == 0;
  const int saved = errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!synced || !closed) throw write_error(temporary_, std::strerror(synced ? errno : saved));
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + temporary_ + " to " + target_ + ": " +
                             std::strerror(errno));
  }
  committed_ = true;
  sync_directory(std::filesystem::path(target_).parent_path().string());
}

void write_file_atomically(const std::string& path, const std::string& content) {
  OutputFile file(path);
  file.write(content);
  file.commit();
}

}  // namespace atento::data
