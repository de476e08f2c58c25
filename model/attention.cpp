#include "model/attention.h"

#include <ATen/Dispatch.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/initialisation.h"
#include "model/projection.h"
#include "model/single_query_attention.h"

namespace atento::model {
namespace {

// The most negative finite value of a floating dtype. A finite fill (rather than -inf) keeps
// softmax finite on rows where every key is masked; those rows are zeroed afterwards.
c10::Scalar lowest_value(c10::ScalarType dtype) {
  c10::Scalar lowest;
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::kHalf, c10::kBFloat16, dtype, "lowest_value",
                                  [&] { lowest = std::numeric_limits<scalar_t>::lowest(); });
  return lowest;
}

}  // namespace

AttentionResult tensor_attention(const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, const torch::Tensor& keep) {
  TORCH_CHECK(q.dim() >= 2 && q.dim() == k.dim() && k.dim() == v.dim(),
              "dot_product_attention: q, k, v need the same rank >= 2, got ", q.sizes(), ", ",
              k.sizes(), ", ", v.sizes());
  TORCH_CHECK(q.size(-1) == k.size(-1), "dot_product_attention: query width ", q.size(-1),
              " != key width ", k.size(-1));
  TORCH_CHECK(k.size(-2) == v.size(-2), "dot_product_attention: ", k.size(-2), " keys but ",
              v.size(-2), " values");
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  // With a single query elsewhere (on a GPU, with gradients, in fp16 or mixed dtypes) each
  // (batch, head) pair is a matrix-vector product: bmm would loop over B·H tiny products, whereas
  // multiply-and-sum is a few passes over the keys and values (several times faster on CPU, same
  // result).
  const bool single_query = q.size(-2) == 1;
  // Scaling the scores (T·S values) is cheaper than scaling q (T·Dh) whenever S < Dh, and the
  // scores are a fresh tensor, so the in-place ops below are safe for autograd.
  auto scores = single_query
                    // [..., 1, Dh] * [..., S, Dh] → [..., S, Dh] → sum → [..., S] → [..., 1, S]
                    ? q.mul(k).sum(-1).unsqueeze(-2)
                    // [..., T, Dh] @ [..., Dh, S] → [..., T, S]
                    : torch::matmul(q, k.transpose(-2, -1));
  scores.mul_(scale);
  torch::Tensor weights;
  if (keep.defined()) {
    TORCH_CHECK(keep.scalar_type() == torch::kBool,
                "dot_product_attention: keep mask must be bool");
    scores.masked_fill_(keep.logical_not(), lowest_value(scores.scalar_type()));
    // Masked keys underflow to exactly 0; a row with no kept key came out uniform and the
    // product with `keep` zeroes it.
    weights = torch::softmax(scores, -1).mul(keep);
  } else {
    weights = torch::softmax(scores, -1);
  }
  auto output = single_query
                    // [..., 1, S] → [..., S, 1] * [..., S, Dv] → sum over S → [..., 1, Dv]
                    ? weights.transpose(-2, -1).mul(v).sum(-2, /*keepdim=*/true)
                    // [..., T, S] @ [..., S, Dv] → [..., T, Dv]
                    : torch::matmul(weights, v);
  return {output, weights};
}

namespace {

AttentionResult attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                          const torch::Tensor& keep) {
  // Without gradients on the CPU: one query row at a time, independent of padding and batch.
  if (single_query_attention_applies(q, k, v, keep)) {
    return single_query_attention(q, k, v, keep);
  }
  return tensor_attention(q, k, v, keep);
}

}  // namespace

torch::Tensor dot_product_attention(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep) {
  return attention(q, k, v, keep).output;
}

AttentionResult dot_product_attention_with_weights(const torch::Tensor& q, const torch::Tensor& k,
                                                   const torch::Tensor& v,
                                                   const torch::Tensor& keep) {
  return attention(q, k, v, keep);
}

torch::Tensor padding_mask(const torch::Tensor& ids, int64_t pad_id) {
  TORCH_CHECK(ids.dim() == 2, "padding_mask: ids must be [B,S], got ", ids.sizes());
  return ids.ne(pad_id);
}

torch::Tensor causal_mask(int64_t length, const torch::Device& device) {
  TORCH_CHECK(length >= 0, "causal_mask: negative length ", length);
  return torch::ones({length, length}, torch::TensorOptions().dtype(torch::kBool).device(device))
      .tril();
}

MultiHeadAttentionImpl::MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options_)
    : options(options_) {
  TORCH_CHECK(options.d_model() > 0 && options.n_heads() > 0 && options.head_dim() > 0,
              "MultiHeadAttention: d_model, n_heads and head_dim must be positive, got ",
              options.d_model(), ", ", options.n_heads(), ", ", options.head_dim());
  const int64_t inner = options.n_heads() * options.head_dim();
  q_proj = register_module("q_proj", glorot_linear(options.d_model(), inner));
  k_proj = register_module("k_proj", glorot_linear(options.d_model(), inner));
  v_proj = register_module("v_proj", glorot_linear(options.d_model(), inner));
  out_proj = register_module("out_proj", glorot_linear(inner, options.d_model()));
}

torch::Tensor MultiHeadAttentionImpl::split_heads(const torch::Tensor& x) const {
  // [B,L,H·Dh] → [B,L,H,Dh] → [B,H,L,Dh]
  return x.view({x.size(0), x.size(1), options.n_heads(), options.head_dim()}).transpose(1, 2);
}

torch::Tensor MultiHeadAttentionImpl::project_query(const torch::Tensor& x) {
  // [B,T,D] → [B,T,H·Dh] → [B,H,T,Dh]
  return split_heads(dense(x, q_proj, q_cache_.get()));
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::project_key_value(
    const torch::Tensor& x) {
  // [B,S,D] → [B,S,H·Dh] → [B,H,S,Dh], for keys and for values. (One product against the
  // concatenated weights was measured slower, forward plus backward, on LibTorch 1.13 CPU.)
  return {split_heads(dense(x, k_proj, k_cache_.get())),
          split_heads(dense(x, v_proj, v_cache_.get()))};
}

torch::Tensor MultiHeadAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                             const torch::Tensor& v, const torch::Tensor& keep,
                                             torch::Tensor* weights) {
  torch::Tensor context;
  if (weights != nullptr) {
    auto result = dot_product_attention_with_weights(q, k, v, keep);
    context = result.output;
    *weights = result.weights;
  } else {
    context = dot_product_attention(q, k, v, keep);
  }
  // [B,H,T,Dh] → [B,T,H,Dh] → [B,T,H·Dh] (the one copy that merges the heads) → [B,T,D]
  const int64_t batch = context.size(0), length = context.size(2);
  return dense(
      context.transpose(1, 2).reshape({batch, length, options.n_heads() * options.head_dim()}),
      out_proj, out_cache_.get());
}

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& query,
                                              const torch::Tensor& memory,
                                              const torch::Tensor& keep, torch::Tensor* weights) {
  TORCH_CHECK(query.dim() == 3 && memory.dim() == 3 && query.size(0) == memory.size(0),
              "MultiHeadAttention: query [B,T,D] and memory [B,S,D] expected, got ", query.sizes(),
              " and ", memory.sizes());
  auto [k, v] = project_key_value(memory);
  return attend(project_query(query), k, v, keep, weights);
}

}  // namespace atento::model
