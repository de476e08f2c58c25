#include "app/train/checkpoint_dir.h"

#include <ftw.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "app/common/files.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/weights_file.h"
#include "data/text_io.h"
#include "model/checkpoint.h"

namespace atento {
namespace {

namespace fs = std::filesystem;

/// Removes a checkpoint directory and what it holds, without following links. Not
/// std::filesystem::remove_all: upstream LibTorch wheels export their own copy of it, which
/// the dynamic linker binds ahead of libstdc++'s and which jumps to address 0 when called.
void remove_tree(const std::string& dir) {
  auto remove_entry = [](const char* path, const struct stat*, int, struct FTW*) {
    return std::remove(path) == 0 ? 0 : errno;
  };
  int failed = nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  int error = failed > 0 ? failed : errno;  // the callback's errno, or nftw's own
  if (failed != 0 && error != ENOENT) {
    throw std::runtime_error(dir + ": cannot remove old checkpoint: " + std::strerror(error));
  }
}

uint64_t step_of(const std::string& checkpoint_name) {
  return std::stoull(checkpoint_name.substr(std::string(kStepPrefix).size()));
}

struct CheckpointEntry {
  uint64_t step;
  std::string dir;
  bool complete;  ///< holds state.json (written last) and the weights
};

// Every step-N directory in `root`, oldest step first.
std::vector<CheckpointEntry> checkpoint_entries(const std::string& root) {
  std::vector<CheckpointEntry> entries;
  if (!fs::is_directory(root)) return entries;
  for (const auto& entry : fs::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!is_checkpoint_name(name)) continue;
    // state.json is written last; a removal interrupted by a crash may have left it alone.
    const bool complete = fs::exists(entry.path() / model_files::kTrainState) &&
                          fs::exists(entry.path() / model_files::kCheckpointWeights);
    entries.push_back({step_of(name), entry.path().string(), complete});
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.step < b.step; });
  return entries;
}

// Removes every checkpoint in `root` but `current` and the `keep` − 1 newest complete ones
// before it: also any that a crash left half-written or half-removed, and any beyond `current`
// (written before a crash, then a resume from an earlier one).
void remove_other_checkpoints(const std::string& root, const std::string& current, int64_t keep) {
  const uint64_t current_step = step_of(current);
  int64_t kept = 1;
  auto entries = checkpoint_entries(root);
  std::vector<std::string> others;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->step == current_step) continue;
    if (it->step < current_step && it->complete && kept < keep) {
      ++kept;
    } else {
      others.push_back(it->dir);
    }
  }
  for (const auto& dir : others) remove_tree(dir);
}

// Writes every file of one checkpoint into `dir` and flushes the directory entries that lead to
// it, so that nothing `latest` will name can be lost to a crash or a power loss.
void write_checkpoint_files(const std::string& model_dir, const std::string& dir,
                            const TrainState& state, const torch::nn::Module& model,
                            const torch::optim::Optimizer& optimizer,
                            const torch::nn::Module* average) {
  fs::create_directories(dir);
  save_weights(model, join_path(dir, model_files::kCheckpointWeights));
  save_optimizer(optimizer, join_path(dir, model_files::kOptimizerState));
  if (average) save_weights(*average, join_path(dir, model_files::kAverageWeights));
  data::write_file_atomically(join_path(dir, model_files::kTrainState),
                              train_state_to_json(state).dump(2) + "\n");
  data::sync_directory(dir);
  data::sync_directory(join_path(model_dir, model_files::kCheckpoints));
  data::sync_directory(model_dir);
}

}  // namespace

void write_checkpoint(const std::string& model_dir, const TrainState& state,
                      const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                      const torch::nn::Module* average, int64_t keep) {
  auto root = join_path(model_dir, model_files::kCheckpoints);
  auto name = kStepPrefix + std::to_string(state.step);
  auto dir = join_path(root, name);
  auto previous = latest_checkpoint(model_dir);
  const bool rewriting = previous && fs::path(*previous).filename() == name;
  try {
    write_checkpoint_files(model_dir, dir, state, model, optimizer, average);
  } catch (const std::exception& e) {
    // A full disk or an I/O error: `latest` still names the previous checkpoint; the partial
    // one goes (unless it is that one), and the error names what failed.
    if (!rewriting) {
      try {
        remove_tree(dir);
      } catch (const std::exception&) {
      }
    }
    throw std::runtime_error("checkpoint " + dir + " not written (" + e.what() + "); " +
                             (previous ? "the previous one, " + *previous + ", is intact"
                                       : std::string("there is no previous one")));
  }
  data::write_file_atomically(join_path(root, model_files::kLatest), name + "\n");
  remove_other_checkpoints(root, name, keep);
}

std::vector<std::string> complete_checkpoints(const std::string& model_dir) {
  std::vector<std::string> dirs;
  for (const auto& entry : checkpoint_entries(join_path(model_dir, model_files::kCheckpoints))) {
    if (entry.complete) dirs.push_back(entry.dir);
  }
  return dirs;
}

std::optional<LoadedCheckpoint> load_latest_checkpoint(const std::string& model_dir,
                                                       torch::nn::Module& model,
                                                       torch::optim::Optimizer& optimizer,
                                                       torch::nn::Module* average) {
  auto dir = latest_checkpoint(model_dir);
  if (!dir) return std::nullopt;
  LoadedCheckpoint loaded;
  loaded.dir = *dir;
  load_weights_file(model, join_path(*dir, model_files::kCheckpointWeights));
  load_optimizer_file(optimizer, join_path(*dir, model_files::kOptimizerState));
  if (average) {
    auto path = join_path(*dir, model_files::kAverageWeights);
    if (file_exists(path)) {
      load_weights_file(*average, path);
    } else {
      loaded.average_missing = true;
    }
  }
  loaded.state = read_train_state(join_path(*dir, model_files::kTrainState));
  return loaded;
}

}  // namespace atento
