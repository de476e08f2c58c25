#pragma once
// Whole-file reads and atomic writes, for data/ and app/.

#include <string>

namespace atento::data {

/// The whole file as bytes; throws std::runtime_error "cannot read <what> <path>: <reason>".
std::string read_whole_file(const std::string& path, const std::string& what);

/// Writes `content` to a temporary file next to `path`, then renames it over `path`, so a
/// reader never sees a half-written file. Creates missing parent directories.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace atento::data
