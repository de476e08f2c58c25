#include "app/train/split_files.h"

#include <filesystem>
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

}  // namespace

data::Split prepare_split(const data::CorpusOptions& options, const std::string& dir,
                          const WarningSink& warn) {
  auto paths = split_paths(dir);
  if (file_exists(paths.train) && file_exists(paths.valid)) return reread_split(options, paths);
  auto split = read_new_split(options, warn);
  data::write_pairs(paths.train, split.train);
  data::write_pairs(paths.valid, split.valid);
  data::write_pairs(paths.test, split.test);
  return split;
}

}  // namespace atento
