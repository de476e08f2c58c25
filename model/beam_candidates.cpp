#include "model/beam_candidates.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/logit_rows.h"
#include "model/tensor_values.h"

namespace atento::model {
namespace {

constexpr float kCandidateMinusInfinity = -std::numeric_limits<float>::infinity();

struct Candidate {
  float value;
  int64_t index;  ///< beam · V + token
};

/// Best first; equal values in index order; NaN ranks as −inf.
bool ranks_before(const Candidate& a, const Candidate& b) {
  const float x = std::isnan(a.value) ? kCandidateMinusInfinity : a.value;
  const float y = std::isnan(b.value) ? kCandidateMinusInfinity : b.value;
  return x > y || (x == y && a.index < b.index);
}

BeamCandidates tensor_form(const torch::Tensor& logits, const torch::Tensor& scores,
                           const torch::Tensor& forbidden, int64_t width, int64_t count) {
  const int64_t vocab = logits.size(1), sentences = logits.size(0) / width;
  auto logp = torch::log_softmax(logits, -1, torch::kFloat)  // [R,V]
                  .index_fill_(1, forbidden, kCandidateMinusInfinity);
  // [R,1] + [R,V] → [N, W·V]: every continuation of every beam of a sentence
  auto all = (scores.to(torch::kFloat).unsqueeze(1) + logp).view({sentences, width * vocab});
  auto [top, index] = all.topk(std::min(count, width * vocab), 1);  // [N,k] each
  return {top.size(1), float_values(top), long_values(index)};
}

/// Sentence i's W rows → its k best continuations into out[i·k, (i+1)·k).
void sentence_candidates(const float* x, const float* scores, int64_t i, int64_t width,
                         int64_t vocab, const std::vector<int64_t>& forbidden, BestLogits& best,
                         std::vector<Candidate>& pool, BeamCandidates& out) {
  const int64_t k = out.count;
  pool.clear();
  for (int64_t beam = 0; beam < width; ++beam) {
    const int64_t r = i * width + beam;
    const float* row = x + r * vocab;
    best_logits(row, vocab, forbidden, k, best);  // a row's k best hold its part of the k best
    if (best.values.empty()) continue;
    const Normaliser normaliser =
        row_normaliser(row, vocab, row_top(row, best.values[0], forbidden));
    for (size_t c = 0; c < best.values.size(); ++c) {
      pool.push_back(
          {scores[r] + normaliser.log_prob(best.values[c]), beam * vocab + best.indices[c]});
    }
  }
  const auto kept = static_cast<int64_t>(std::min<size_t>(static_cast<size_t>(k), pool.size()));
  std::partial_sort(pool.begin(), pool.begin() + kept, pool.end(), ranks_before);
  for (int64_t c = 0; c < k; ++c) {  // fewer allowed tokens than k: −inf continuations
    const Candidate filler{kCandidateMinusInfinity, forbidden.empty() ? 0 : forbidden[0]};
    const Candidate& chosen = c < kept ? pool[static_cast<size_t>(c)] : filler;
    out.values[static_cast<size_t>(i * k + c)] = chosen.value;
    out.indices[static_cast<size_t>(i * k + c)] = chosen.index;
  }
}

}  // namespace

BeamCandidates beam_candidates(const torch::Tensor& logits, const torch::Tensor& scores,
                               const torch::Tensor& forbidden, int64_t width, int64_t count) {
  TORCH_CHECK(logits.dim() == 2 && width > 0 && logits.size(0) % width == 0 && count > 0 &&
                  scores.numel() == logits.size(0),
              "beam_candidates: logits [R,V] with R a multiple of the width ", width,
              ", one score a row and count > 0");
  if (!cpu_logits_path(logits)) return tensor_form(logits, scores, forbidden, width, count);
  const auto x = logits.to(torch::kFloat).contiguous();  // [R,V]
  const std::vector<float> beam_scores = float_values(scores);
  const int64_t vocab = x.size(1), sentences = x.size(0) / width;
  const std::vector<int64_t> ids = sorted_forbidden(forbidden, vocab);
  BeamCandidates out;
  out.count = std::min(count, width * vocab);
  out.values.resize(static_cast<size_t>(sentences * out.count));
  out.indices.resize(out.values.size());
  const float* data = x.data_ptr<float>();
  const int64_t grain = std::max<int64_t>(1, 32768 / (width * vocab));
  at::parallel_for(0, sentences, grain, [&](int64_t begin, int64_t end) {
    BestLogits best;
    std::vector<Candidate> pool;
    for (int64_t i = begin; i < end; ++i) {
      sentence_candidates(data, beam_scores.data(), i, width, vocab, ids, best, pool, out);
    }
  });
  return out;
}

}  // namespace atento::model
