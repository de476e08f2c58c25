#include "app/train/split_files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "app/common/config.h"
#include "app/common/files.h"
#include "app/model_dir/model_dir.h"

namespace atento {
namespace {

struct SplitPaths {
  std::string train, valid, test;
};

SplitPaths split_paths(const std::string& dir) {
  return {join_path(dir, model_files::kTrain), join_path(dir, model_files::kValid),
          join_path(dir, model_files::kTest)};
}

data::Split reread_split(const data::CorpusOptions& options, const SplitPaths& paths) {
  data::CorpusOptions reread = options;
  reread.strict = true;  // the split was written by us: any bad line there is corruption
  data::Split split;
  split.train = data::read_pairs(paths.train, reread);
  split.valid = data::read_pairs(paths.valid, reread);
  // test_fraction 0 leaves an empty test.tsv, which read_pairs rightly refuses.
  if (file_exists(paths.test) && std::filesystem::file_size(paths.test) > 0) {
    split.test = data::read_pairs(paths.test, reread);
  }
  return split;
}

/// read_pairs, with skipped lines reported to `warn`.
std::vector<data::Pair> read_reporting(const std::string& path, const data::CorpusOptions& options,
                                       const WarningSink& warn) {
  data::ReadReport report;
  auto pairs = data::read_pairs(path, options, &report);
  for (const auto& problem : report.problems) warn("warning: " + problem);
  if (report.skipped > 0) {
    warn("warning: " + path + ": skipped " + std::to_string(report.skipped) + " bad line(s) of " +
         std::to_string(report.lines) + " (set data.strict to make them errors)");
  }
  return pairs;
}

data::Split read_new_split(const data::CorpusOptions& d, const WarningSink& warn) {
  data::Split split;
  if (!d.train_file.empty()) {
    if (d.valid_file.empty()) throw ConfigError("data.valid_file: required with data.train_file");
    split.train = read_reporting(d.train_file, d, warn);
    split.valid = read_reporting(d.valid_file, d, warn);
    if (!d.test_file.empty()) split.test = read_reporting(d.test_file, d, warn);
  } else {
    if (d.corpus.empty()) throw ConfigError("data.corpus: no corpus given (a TSV of pairs)");
    auto pairs = read_reporting(d.corpus, d, warn);
    split = data::split_pairs(std::move(pairs), d.valid_fraction, d.test_fraction, d.seed);
  }
  if (split.train.empty()) throw std::runtime_error("the training split is empty");
  if (split.valid.empty()) {
    throw ConfigError("data.valid_fraction: the validation split is empty (corpus too small?)");
  }
  return split;
}

/// Mixes pairs of options.replay_corpus (a seeded sample) into `train` so that they make up
/// options.replay_fraction of it.
void add_replay(std::vector<data::Pair>& train, const data::CorpusOptions& options,
                const WarningSink& warn) {
  if (options.replay_fraction <= 0) return;
  auto replay = read_reporting(options.replay_corpus, options, warn);
  const double share = options.replay_fraction / (1 - options.replay_fraction);
  const auto wanted = static_cast<size_t>(std::llround(share * static_cast<double>(train.size())));
  std::mt19937_64 rng(options.seed ^ 0x5265706c6179ULL);  // "Replay": its own stream
  std::shuffle(replay.begin(), replay.end(), rng);
  if (wanted > replay.size()) {
    warn("warning: data.replay_corpus " + options.replay_corpus + " has " +
         std::to_string(replay.size()) + " pairs, fewer than the " + std::to_string(wanted) +
         " that data.replay_fraction asks for: all are used");
  }
  replay.resize(std::min(wanted, replay.size()));
  warn("replay: " + std::to_string(replay.size()) + " pairs of " + options.replay_corpus +
       " mixed into " + std::to_string(train.size()) + " training pairs");
  train.insert(train.end(), replay.begin(), replay.end());
}

}  // namespace

data::Split prepare_split(const data::CorpusOptions& options, const std::string& dir,
                          const WarningSink& warn) {
  auto paths = split_paths(dir);
  if (file_exists(paths.train) && file_exists(paths.valid)) return reread_split(options, paths);
  auto split = read_new_split(options, warn);
  add_replay(split.train, options, warn);  // written into train.tsv: a resume re-reads it
  data::write_pairs(paths.train, split.train);
  data::write_pairs(paths.valid, split.valid);
  data::write_pairs(paths.test, split.test);
  return split;
}

}  // namespace atento
