#include "model/greedy_choice.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "model/logit_rows.h"

namespace atento::model {
namespace {

/// One row x[0, V): its best allowed token and that token's log-probability.
void choose(const float* x, int64_t vocab, const std::vector<int64_t>& forbidden, BestLogits& best,
            float& log_prob, int64_t& token) {
  best_logits(x, vocab, forbidden, 1, best);
  if (best.values.empty()) {  // every allowed logit NaN: the first allowed token
    token = 0;
    for (int64_t id : forbidden) token += id == token ? 1 : 0;
    log_prob = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  token = best.indices[0];
  const Normaliser normaliser = row_normaliser(x, vocab, row_top(x, best.values[0], forbidden));
  log_prob = normaliser.log_prob(best.values[0]);
}

}  // namespace

GreedyChoice greedy_choice(const torch::Tensor& logits, const torch::Tensor& forbidden) {
  if (!cpu_logits_path(logits)) {
    auto logp = torch::log_softmax(logits, -1, torch::kFloat);  // [B,V]
    auto [best, token] =
        logp.index_fill_(1, forbidden, -std::numeric_limits<float>::infinity()).max(-1);
    return {best, token};
  }
  const auto x = logits.to(torch::kFloat).contiguous();  // [B,V]
  const int64_t rows = x.size(0), vocab = x.size(1);
  const std::vector<int64_t> ids = sorted_forbidden(forbidden, vocab);
  GreedyChoice choice{torch::empty({rows}, torch::kFloat), torch::empty({rows}, torch::kLong)};
  const float* data = x.data_ptr<float>();
  float* log_prob = choice.log_prob.data_ptr<float>();
  int64_t* token = choice.token.data_ptr<int64_t>();
  at::parallel_for(0, rows, std::max<int64_t>(1, 32768 / vocab), [&](int64_t begin, int64_t end) {
    BestLogits best;
    for (int64_t b = begin; b < end; ++b) {
      choose(data + b * vocab, vocab, ids, best, log_prob[b], token[b]);
    }
  });
  return choice;
}

}  // namespace atento::model
