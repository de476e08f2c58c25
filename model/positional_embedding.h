#pragma once
// Token embedding plus learned position embedding (DLwP ch. 15's PositionalEmbedding layer).
// Shape legend: B batch, L sequence length, D d_model.

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/pimpl.h>

#include <cstdint>

#include "model/options.h"

namespace atento::model {

struct PositionalEmbeddingOptions {
  PositionalEmbeddingOptions(int64_t vocab, int64_t d_model, int64_t max_len)
      : vocab_(vocab), d_model_(d_model), max_len_(max_len) {}
  /// Token vocabulary size V.
  TORCH_ARG(int64_t, vocab);
  /// Embedding width D.
  TORCH_ARG(int64_t, d_model);
  /// Positions covered by the learned table.
  TORCH_ARG(int64_t, max_len);
  /// Learned position embeddings added to the tokens, or tokens only.
  TORCH_ARG(Positions, positions) = Positions::kLearned;
};

/// Token embedding plus learned position embedding. Like the book's Keras layer, the sum is not
/// scaled by √D.
class PositionalEmbeddingImpl : public torch::nn::Module {
 public:
  explicit PositionalEmbeddingImpl(const PositionalEmbeddingOptions& options);
  /// ids [B,L] int64 at positions offset..offset+L-1 → [B,L,D]. Throws when a position lies
  /// beyond the table.
  torch::Tensor forward(const torch::Tensor& ids, int64_t offset = 0);
  /// ids [B,1] int64, row b at position at[b] ([B] int64): rows at different positions
  /// (continuous batching) → [B,1,D]. Throws when a position lies beyond the table.
  torch::Tensor forward_at(const torch::Tensor& ids, const torch::Tensor& at);
  /// As forward_at, without reading `at` back to check its range (a captured CUDA graph may
  /// not read the device): the caller guarantees positions inside the table.
  torch::Tensor forward_at_unchecked(const torch::Tensor& ids, const torch::Tensor& at);

  PositionalEmbeddingOptions options;
  torch::nn::Embedding tokens{nullptr};
  torch::nn::Embedding positions{nullptr};  ///< null with Positions::kNone
};
TORCH_MODULE(PositionalEmbedding);

/// Throws c10::Error unless ids is [B,L] int64; `what` names the tensor in the message.
void check_token_ids(const torch::Tensor& ids, const char* what);

}  // namespace atento::model
