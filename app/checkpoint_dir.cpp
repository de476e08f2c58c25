#include "app/checkpoint_dir.h"

#include <ftw.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/files.h"
#include "app/model_dir.h"
#include "app/weights_file.h"
#include "data/text_io.h"
#include "model/checkpoint.h"

namespace atento {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOptimizerFile = "optimizer.pt";
constexpr const char* kStateFile = "state.json";
constexpr const char* kStepPrefix = "step-";

/// "step-<digits>": the only names `latest` may hold (no separators, no "..").
bool is_checkpoint_name(const std::string& name) {
  const std::string prefix = kStepPrefix;
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

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

}  // namespace

std::optional<std::string> latest_checkpoint(const std::string& model_dir) {
  auto dir = join_path(model_dir, model_files::kCheckpoints);
  auto pointer = join_path(dir, model_files::kLatest);
  if (!file_exists(pointer)) return std::nullopt;
  auto name = data::read_whole_file(pointer, "checkpoint pointer");
  while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
  if (!is_checkpoint_name(name)) {
    throw std::runtime_error(pointer + ": names '" + name +
                             "', which is not a checkpoint (expected step-<number>)");
  }
  auto path = join_path(dir, name);
  if (!fs::is_directory(path)) {
    throw std::runtime_error(pointer + ": names a missing checkpoint '" + name + "'");
  }
  return path;
}

void write_checkpoint(const std::string& model_dir, const TrainState& state,
                      const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                      const torch::nn::Module* average) {
  auto root = join_path(model_dir, model_files::kCheckpoints);
  auto name = kStepPrefix + std::to_string(state.step);
  auto dir = join_path(root, name);
  fs::create_directories(dir);
  save_weights(model, join_path(dir, model_files::kCheckpointWeights));
  save_optimizer(optimizer, join_path(dir, kOptimizerFile));
  if (average) save_weights(*average, join_path(dir, model_files::kAverageWeights));
  data::write_file_atomically(join_path(dir, kStateFile),
                              train_state_to_json(state).dump(2) + "\n");
  auto previous = latest_checkpoint(model_dir);
  data::write_file_atomically(join_path(root, model_files::kLatest), name + "\n");
  if (previous && fs::path(*previous).filename() != name) remove_tree(*previous);
}

std::optional<LoadedCheckpoint> load_latest_checkpoint(const std::string& model_dir,
                                                       torch::nn::Module& model,
                                                       torch::optim::Optimizer& optimizer,
                                                       torch::nn::Module* average) {
  auto dir = latest_checkpoint(model_dir);
  if (!dir) return std::nullopt;
  LoadedCheckpoint loaded;
  loaded.dir = *dir;
  model::load_weights(model, join_path(*dir, model_files::kCheckpointWeights));
  model::load_optimizer(optimizer, join_path(*dir, kOptimizerFile));
  if (average) {
    auto path = join_path(*dir, model_files::kAverageWeights);
    if (file_exists(path)) {
      model::load_weights(*average, path);
    } else {
      loaded.average_missing = true;
    }
  }
  loaded.state = read_train_state(join_path(*dir, kStateFile));
  return loaded;
}

}  // namespace atento
