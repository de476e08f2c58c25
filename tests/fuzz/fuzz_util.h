#pragma once
// Helpers of the libFuzzer targets: the readers under test take paths, so each input is
// written to a file in one scratch directory per process (removed at exit).

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace atento::fuzz {

/// The process's scratch directory (created on first use, removed at exit).
inline const std::string& scratch_dir() {
  // Leaked on purpose: the exit handler that removes it runs after static destructors.
  static const std::string* dir = [] {
    auto* pattern =
        new std::string((std::filesystem::temp_directory_path() / "atento-fuzz-XXXXXX").string());
    if (::mkdtemp(pattern->data()) == nullptr) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(*dir, ec);
    });
    return pattern;
  }();
  return *dir;
}

/// Writes `size` bytes to `name` in the scratch directory (parents created) and returns its path.
inline std::string write_scratch(const std::string& name, const uint8_t* data, size_t size) {
  const std::filesystem::path path = std::filesystem::path(scratch_dir()) / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return path.string();
}

/// Splits an input at the first "\n--\n": the part before and the part after ("" if none).
inline std::pair<std::string, std::string> split_input(const uint8_t* data, size_t size) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const size_t at = all.find("\n--\n");
  if (at == std::string::npos) return {all, ""};
  return {all.substr(0, at), all.substr(at + 4)};
}

}  // namespace atento::fuzz
