#pragma once
// Small filesystem helpers with the guarantees the model directory needs.

#include <string>

namespace atento {

/// Writes `content` to `path` atomically: a temporary file beside it, fsync, then rename. A
/// crash at any moment leaves either the old file or the new one, never a torn one.
void write_file_atomic(const std::string& path, const std::string& content);

/// Renames `from` onto `to` after fsync'ing `from` (`to` is replaced atomically).
void commit_file(const std::string& from, const std::string& to);

/// The whole file as a string; throws naming the file if it cannot be read.
std::string read_file(const std::string& path);

/// Creates `dir` (and parents) and checks that a file can be written in it; throws a clear
/// error naming the directory otherwise.
void ensure_writable_dir(const std::string& dir);

/// `dir` + "/" + `name`.
std::string join_path(const std::string& dir, const std::string& name);

bool file_exists(const std::string& path);

}  // namespace atento
