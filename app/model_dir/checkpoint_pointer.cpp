#include "app/model_dir/checkpoint_pointer.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "app/common/files.h"
#include "app/model_dir/model_files.h"
#include "data/text_io.h"

namespace atento {
namespace {

constexpr size_t kMaxStepDigits = 19;  // an int64_t step

}  // namespace

bool is_checkpoint_name(const std::string& name) {
  const std::string prefix = kStepPrefix;
  if (name.size() <= prefix.size() || name.size() > prefix.size() + kMaxStepDigits ||
      name.compare(0, prefix.size(), prefix) != 0) {
    return false;
  }
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::optional<std::string> latest_checkpoint(const std::string& model_dir) {
  auto dir = join_path(model_dir, model_files::kCheckpoints);
  auto pointer = join_path(dir, model_files::kLatest);
  if (!file_exists(pointer)) return std::nullopt;
  auto name = data::read_whole_file(pointer, "checkpoint pointer", kMaxPointerBytes);
  while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
  if (!is_checkpoint_name(name)) {
    // The name may hold anything (NUL bytes, escapes): quote only what is printable.
    std::string shown;
    for (unsigned char c : name) shown += std::isprint(c) ? static_cast<char>(c) : '?';
    throw std::runtime_error(pointer + ": names '" + shown +
                             "', which is not a checkpoint (expected step-<number>)");
  }
  auto path = join_path(dir, name);
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::symlink_status(path, ec))) {
    throw std::runtime_error(pointer + ": names a missing checkpoint '" + name + "'");
  }
  return path;
}

}  // namespace atento
