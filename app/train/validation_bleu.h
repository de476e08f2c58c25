#pragma once
// Greedy BLEU at validation (train.bleu_sentences; train.best_metric bleu judges by it): the
// first N distinct English sources of the validation split, translated greedily by the judged
// model the way atento-eval translates (app/translate/translator.h), scored against every
// Spanish side of each source. A data-parallel group splits the sentences between its ranks
// and sums their statistics (app/distributed/data_parallel.h).

#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "app/common/config.h"
#include "app/scoring/metrics.h"
#include "app/scoring/reference_sets.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "model/seq2seq.h"

namespace atento {

class ValidationBleu {
 public:
  /// The first `sentences` distinct sources of `valid` with their references; of these, rank
  /// `rank` of `ranks` translates its contiguous share.
  ValidationBleu(const std::vector<data::Pair>& valid, int64_t sentences, int64_t rank = 0,
                 int64_t ranks = 1);

  /// Distinct sources judged over all ranks.
  int64_t sentences() const { return total_; }

  /// The BLEU statistics of this rank's share, translated greedily by `model` (on `device`,
  /// in train.precision, with the rest of `config`'s translate.* settings).
  BleuStats stats(const model::Seq2Seq& model, const Config& config,
                  const data::Vocabularies& vocab, torch::Device device) const;

 private:
  ReferenceSets mine_;
  int64_t total_ = 0;
};

}  // namespace atento
