#include "app/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace atento {
namespace {

std::string errno_text() { return std::strerror(errno); }

void fsync_path(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error(path + ": cannot open to sync: " + errno_text());
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void commit_file(const std::string& from, const std::string& to) {
  fsync_path(from);
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    throw std::runtime_error(to + ": cannot replace with " + from + ": " + errno_text());
  }
}

void write_file_atomic(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write: " + errno_text());
    out << content;
    out.flush();
    if (!out) throw std::runtime_error(tmp + ": write failed: " + errno_text());
  }
  commit_file(tmp, path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read: " + errno_text());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void ensure_writable_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
  if (!std::filesystem::is_directory(dir)) throw std::runtime_error(dir + ": not a directory");
  std::string probe = join_path(dir, ".write-test");
  {
    std::ofstream out(probe);
    if (!out) throw std::runtime_error(dir + ": directory is not writable: " + errno_text());
  }
  std::remove(probe.c_str());
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

}  // namespace atento
