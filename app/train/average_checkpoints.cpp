#include "app/train/average_checkpoints.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "app/common/config.h"
#include "app/common/directory_lock.h"
#include "app/common/files.h"
#include "app/common/runtime.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/weights_file.h"
#include "app/train/checkpoint_dir.h"
#include "data/text_io.h"
#include "model/checkpoint.h"
#include "model/weights_mean.h"

namespace atento {
namespace {

namespace fs = std::filesystem;

// The `last` newest complete checkpoints of `args.model_dir`, oldest first.
std::vector<std::string> chosen_checkpoints(const AverageArgs& args) {
  auto dirs = complete_checkpoints(args.model_dir);
  if (static_cast<int64_t>(dirs.size()) < args.last) {
    throw ConfigError("--last " + std::to_string(args.last) + ": " + args.model_dir + " holds " +
                      std::to_string(dirs.size()) +
                      " complete checkpoint(s); train it with --set train.keep_checkpoints=" +
                      std::to_string(args.last) + " or more");
  }
  return {dirs.end() - args.last, dirs.end()};
}

std::string weights_file(const std::string& checkpoint, AveragedWeights weights) {
  auto path =
      join_path(checkpoint, weights == AveragedWeights::kAverage ? model_files::kAverageWeights
                                                                 : model_files::kCheckpointWeights);
  if (!file_exists(path)) {
    throw ConfigError(path + " does not exist" +
                      (weights == AveragedWeights::kAverage
                           ? std::string(" (the run kept no weight average: train.ema_decay 0; "
                                         "use --weights trained)")
                           : std::string()));
  }
  return path;
}

// Copies the files a model directory needs besides its weights: configuration, tokenizers, split.
void copy_model_files(const std::string& from, const std::string& to) {
  const std::set<std::string> skipped = {model_files::kBestWeights,
                                         model_files::kLegacyBestWeights,
                                         model_files::kBestInfo,
                                         model_files::kLog,
                                         kLockFile,
                                         kAverageInfo};
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || skipped.count(name) || name.front() == '.') continue;
    data::write_file_atomically(join_path(to, name),
                                data::read_whole_file(entry.path().string(), "model file"));
  }
}

void check_output_dir(const AverageArgs& args) {
  if (fs::exists(args.out_dir) && fs::equivalent(args.out_dir, args.model_dir)) {
    throw ConfigError("--out must be a new directory, not the model directory " + args.model_dir);
  }
  if (file_exists(join_path(args.out_dir, model_files::kConfig))) {
    throw ConfigError("--out " + args.out_dir + " already holds a model (" +
                      std::string(model_files::kConfig) + "); choose a new directory");
  }
}

}  // namespace

int run_average(const AverageArgs& args) {
  open_model_dir(args.model_dir, ModelKind::kTranslation, {});  // every check of a model directory
  check_output_dir(args);
  const auto checkpoints = chosen_checkpoints(args);
  std::vector<std::string> files;
  nlohmann::json names = nlohmann::json::array();
  for (const auto& dir : checkpoints) {
    files.push_back(weights_file(dir, args.weights));
    names.push_back(fs::path(dir).filename().string());
  }
  const auto averaged = model::average_weights_files(files);
  ensure_writable_dir(args.out_dir);
  copy_model_files(args.model_dir, args.out_dir);
  const char* kind = args.weights == AveragedWeights::kAverage ? "average" : "trained";
  nlohmann::json info = {{"source", args.model_dir}, {"checkpoints", names}, {"weights", kind}};
  data::write_file_atomically(join_path(args.out_dir, kAverageInfo), info.dump(2) + "\n");
  // Last: a directory without best weights is refused by the loaders, never half used.
  save_weights(averaged, join_path(args.out_dir, model_files::kBestWeights));
  std::cout << "averaged the " << kind << " weights of " << files.size() << " checkpoint(s), "
            << names.front().get<std::string>() << " to " << names.back().get<std::string>()
            << ", into " << join_path(args.out_dir, model_files::kBestWeights) << "\n";
  return kExitOk;
}

}  // namespace atento
