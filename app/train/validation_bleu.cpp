#include "app/train/validation_bleu.h"

#include <memory>
#include <numeric>

#include "app/model_dir/model_dir.h"
#include "app/translate/translator.h"
#include "data/batch.h"

namespace atento {

ValidationBleu::ValidationBleu(const std::vector<data::Pair>& valid, int64_t sentences,
                               int64_t rank, int64_t ranks) {
  ReferenceSets all = reference_sets(valid, static_cast<size_t>(std::max<int64_t>(sentences, 0)));
  total_ = static_cast<int64_t>(all.sources.size());
  std::vector<int64_t> indices(all.sources.size());
  std::iota(indices.begin(), indices.end(), 0);
  for (int64_t i : data::shard(indices, rank, ranks)) {
    mine_.sources.push_back(std::move(all.sources[i]));
    mine_.references.push_back(std::move(all.references[i]));
  }
}

BleuStats ValidationBleu::stats(const model::Seq2Seq& model, const Config& config,
                                const data::Vocabularies& vocab, torch::Device device) const {
  BleuStats sum;
  if (mine_.sources.empty()) return sum;
  TrainedModel translator;
  translator.config = config;
  translator.config.translate.beam = 1;
  translator.config.translate.n_best = 1;
  translator.config.translate.precision = config.train.precision;
  translator.vocab = std::make_unique<data::Vocabularies>(vocab);
  translator.model = model;
  translator.device = device;
  const auto hyps = translate_texts(translator, mine_.sources, search_options(translator));
  for (size_t i = 0; i < hyps.size(); ++i) sum += bleu_stats(hyps[i], mine_.references[i]);
  return sum;
}

}  // namespace atento
