#pragma once
// Scaled dot-product attention, its masks, and multi-head attention (Vaswani et al. 2017, §3.2).
// Mask convention: boolean `keep` masks, true = this query may attend this key.
// Shape legend: B batch, S source (key) length, T target (query) length, D d_model, H heads,
// Dh head dim.

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <memory>
#include <utility>

#include "model/projection.h"

namespace atento::model {

/// Output of attention together with the attention weights that produced it.
struct AttentionResult {
  torch::Tensor output;   ///< [..., T, Dv]
  torch::Tensor weights;  ///< [..., T, S]; rows sum to 1, or are all zero when no key is kept
};

/// softmax(q·kᵀ/√Dh) · v over the last two axes, with `keep` (broadcastable to [..., T, S],
/// true = may attend; undefined = attend everywhere) excluding keys. Masked keys get exactly
/// zero weight; a query with no kept key yields a zero output row, never NaN.
/// q [..., T, Dh], k [..., S, Dh], v [..., S, Dv] → [..., T, Dv].
torch::Tensor dot_product_attention(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep);

/// As dot_product_attention, also returning the attention weights [..., T, S].
AttentionResult dot_product_attention_with_weights(const torch::Tensor& q, const torch::Tensor& k,
                                                   const torch::Tensor& v,
                                                   const torch::Tensor& keep);

/// As dot_product_attention_with_weights, in ATen operations only: for every device, dtype and
/// autograd. dot_product_attention() takes the one-query-at-a-time CPU loop
/// (single_query_attention.h) where it applies, and this form everywhere else.
AttentionResult tensor_attention(const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, const torch::Tensor& keep);

/// Keep mask of real tokens: ids [B,S] int64 → [B,S] bool, false where ids == pad_id.
torch::Tensor padding_mask(const torch::Tensor& ids, int64_t pad_id = 0);

/// Lower-triangular keep mask [T,T] bool: position t may attend positions ≤ t.
torch::Tensor causal_mask(int64_t length, const torch::Device& device);

struct MultiHeadAttentionOptions {
  MultiHeadAttentionOptions(int64_t d_model, int64_t n_heads, int64_t head_dim)
      : d_model_(d_model), n_heads_(n_heads), head_dim_(head_dim) {}
  /// Width D of queries, keys/values inputs and the output.
  TORCH_ARG(int64_t, d_model);
  /// Number of heads H.
  TORCH_ARG(int64_t, n_heads);
  /// Width Dh of each head (the book: 256 with D = 256, so projections are D → H·Dh = 2048).
  TORCH_ARG(int64_t, head_dim);
};

/// Multi-head attention with bias on every projection (like Keras' MultiHeadAttention).
/// Parameters: q_proj, k_proj, v_proj (D → H·Dh) and out_proj (H·Dh → D).
/// The projection steps are public so that a decoder can keep a KV cache: project only the
/// newest position's query/key/value, append the keys/values to the cache, and attend; cross
/// attention projects the encoder output once.
class MultiHeadAttentionImpl : public torch::nn::Module {
 public:
  explicit MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options);

  /// Full attention: query [B,T,D] attends memory [B,S,D] (memory = query for
  /// self-attention) under `keep` broadcastable to [B,H,T,S] (e.g. [B,1,1,S] or [B,1,T,S]).
  /// When `weights` is not null it receives the attention weights [B,H,T,S].
  torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& memory,
                        const torch::Tensor& keep, torch::Tensor* weights = nullptr);

  /// Queries of every head: x [B,T,D] → [B,H,T,Dh].
  torch::Tensor project_query(const torch::Tensor& x);
  /// Keys and values of every head: x [B,S,D] → ([B,H,S,Dh], [B,H,S,Dh]).
  std::pair<torch::Tensor, torch::Tensor> project_key_value(const torch::Tensor& x);
  /// Attends projected q [B,H,T,Dh] to k, v [B,H,S,Dh], merges heads and applies out_proj:
  /// → [B,T,D]. `weights`, when not null, receives [B,H,T,S].
  torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                       const torch::Tensor& keep, torch::Tensor* weights = nullptr);

  MultiHeadAttentionOptions options;
  torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, out_proj{nullptr};

 private:
  /// Decoding copies (transposed fp32, bf16) of the four weights (see dense()).
  std::shared_ptr<WeightCache> q_cache_ = std::make_shared<WeightCache>(),
                               k_cache_ = std::make_shared<WeightCache>(),
                               v_cache_ = std::make_shared<WeightCache>(),
                               out_cache_ = std::make_shared<WeightCache>();
  /// [B,L,H·Dh] → [B,H,L,Dh] (a strided view, no copy).
  torch::Tensor split_heads(const torch::Tensor& x) const;
};
TORCH_MODULE(MultiHeadAttention);

}  // namespace atento::model
