#include "model/positional_embedding.h"

#include <cmath>

#include "model/initialisation.h"

namespace atento::model {

PositionalEmbeddingImpl::PositionalEmbeddingImpl(const PositionalEmbeddingOptions& options_)
    : options(options_) {
  TORCH_CHECK(options.vocab() > 0 && options.d_model() > 0 && options.max_len() > 0,
              "PositionalEmbedding: vocab, d_model and max_len must be positive");
  // N(0, 1/D): unit-norm vectors on average, so tied output logits start near unit scale.
  const double std = 1.0 / std::sqrt(static_cast<double>(options.d_model()));
  tokens = register_module("tokens", normal_embedding(options.vocab(), options.d_model(), std));
  if (options.positions() == Positions::kLearned) {
    positions =
        register_module("positions", normal_embedding(options.max_len(), options.d_model(), std));
  }
}

torch::Tensor PositionalEmbeddingImpl::forward(const torch::Tensor& ids, int64_t offset) {
  check_token_ids(ids, "PositionalEmbedding input");
  auto x = tokens(ids);  // [B,L] → [B,L,D]
  if (!positions) {
    return x;
  }
  const int64_t length = ids.size(1);
  TORCH_CHECK(offset >= 0 && offset + length <= options.max_len(), "position ", offset + length - 1,
              " is beyond the model's max_len ", options.max_len(), " (positions 0..",
              options.max_len() - 1,
              "): shorten or split the sequence, or train with a larger model.max_len");
  // [L,D] broadcast over the batch → [B,L,D]
  return x + positions->weight.narrow(0, offset, length);
}

torch::Tensor PositionalEmbeddingImpl::forward_at(const torch::Tensor& ids,
                                                  const torch::Tensor& at) {
  TORCH_CHECK(!positions || at.numel() == 0 ||
                  (at.min().item<int64_t>() >= 0 && at.max().item<int64_t>() < options.max_len()),
              "PositionalEmbedding::forward_at: positions must lie in 0..", options.max_len() - 1);
  return forward_at_unchecked(ids, at);
}

torch::Tensor PositionalEmbeddingImpl::forward_at_unchecked(const torch::Tensor& ids,
                                                            const torch::Tensor& at) {
  check_token_ids(ids, "PositionalEmbedding input");
  TORCH_CHECK(ids.size(1) == 1 && at.dim() == 1 && at.size(0) == ids.size(0),
              "PositionalEmbedding::forward_at: ids [B,1] and positions [B] expected, got ",
              ids.sizes(), " and ", at.sizes());
  auto x = tokens(ids);  // [B,1] → [B,1,D]
  if (!positions) {
    return x;
  }
  // [B] → [B,D] → [B,1,D]
  return x + positions->weight.index_select(0, at).unsqueeze(1);
}

void check_token_ids(const torch::Tensor& ids, const char* what) {
  TORCH_CHECK(ids.dim() == 2, what, " must be [B,L] token ids, got shape ", ids.sizes());
  TORCH_CHECK(ids.scalar_type() == torch::kLong, what, " must be int64, got ", ids.scalar_type());
}

}  // namespace atento::model
