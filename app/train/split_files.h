#pragma once
// The split a model directory keeps (train.tsv, valid.tsv, test.tsv): made once from the
// corpus (or the given split files), then re-read on every resume so that the data never
// changes under a model.

#include <functional>
#include <string>

#include "data/corpus.h"
#include "data/options.h"

namespace atento {

/// Receives one warning line ("warning: …").
using WarningSink = std::function<void(const std::string&)>;

/// Reads the split written into `dir` by an earlier call when train.tsv and valid.tsv are
/// there (strictly: a bad line there is corruption). Otherwise reads data.train_file/
/// valid_file/test_file, or reads data.corpus and splits it, reports skipped lines to `warn`,
/// and writes the three files into `dir`. Throws ConfigError for a missing input setting or an
/// empty validation split, std::runtime_error for an empty training split.
data::Split prepare_split(const data::CorpusOptions& options, const std::string& dir,
                          const WarningSink& warn);

}  // namespace atento
