#include "data/text_io.h"

#include <fcntl.h>
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

void write_file_atomically(const std::string& path, const std::string& content) {
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

}  // namespace atento::data
