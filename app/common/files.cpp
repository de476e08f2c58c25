#include "app/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace atento {

void ensure_writable_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
  if (!std::filesystem::is_directory(dir)) throw std::runtime_error(dir + ": not a directory");
  std::string probe = join_path(dir, ".write-test");
  {
    std::ofstream out(probe);
    if (!out)
      throw std::runtime_error(dir + ": directory is not writable: " + std::strerror(errno));
  }
  std::remove(probe.c_str());
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

}  // namespace atento
