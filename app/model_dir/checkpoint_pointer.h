#pragma once
// The `checkpoints/latest` pointer of a model directory: one line, "step-N", naming the newest
// complete checkpoint beside it. Read from files a model directory brings with it, so nothing
// it names may lead outside the directory.

#include <cstdint>
#include <optional>
#include <string>

namespace atento {

/// The largest `latest` file read ("step-" and up to 19 digits, a newline and some slack).
inline constexpr std::uint64_t kMaxPointerBytes = 64;

/// The prefix of a checkpoint directory's name: "step-" and the step.
inline constexpr const char* kStepPrefix = "step-";

/// True for "step-<digits>" (at most 19 digits, no separators, no ".."): the only names
/// `latest` may hold.
bool is_checkpoint_name(const std::string& name);

/// The directory of the checkpoint `checkpoints/latest` names, or nullopt when there is none.
/// Throws std::runtime_error naming the pointer file when it names anything but an existing
/// `step-<digits>` directory beside it (never a path outside the model directory).
std::optional<std::string> latest_checkpoint(const std::string& model_dir);

}  // namespace atento
