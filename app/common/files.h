#pragma once
// Small filesystem helpers of the model directory (atomic writes and whole-file reads are
// data/text_io.h's).

#include <string>

namespace atento {

/// Creates `dir` (and parents) and checks that a file can be written in it; throws a clear
/// error naming the directory otherwise.
void ensure_writable_dir(const std::string& dir);

/// `dir` + "/" + `name`.
std::string join_path(const std::string& dir, const std::string& name);

bool file_exists(const std::string& path);

}  // namespace atento
