#pragma once
// The Transformer encoder (Vaswani et al. 2017, §3.1): token and position embedding, then a
// stack of self-attention blocks. Self-contained: ids and a keep mask in, one vector per
// position out, so a model other than Seq2Seq (a classifier reading a first [CLS] position)
// can reuse a trained encoder.
// Shape legend: B batch, S sequence length, D d_model, H heads.

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <cstdint>

#include "model/attention.h"
#include "model/block.h"
#include "model/feed_forward.h"
#include "model/options.h"
#include "model/positional_embedding.h"

namespace atento::model {

using EncoderOptions = StackOptions;

/// The encoder of a Seq2Seq model: source vocabulary, encoder_layers blocks.
EncoderOptions encoder_options(const ModelOptions& options);


/// Encoder block: self-attention and feed-forward sublayers, each with residual and LayerNorm.
class EncoderLayerImpl : public torch::nn::Module {
 public:
  explicit EncoderLayerImpl(const BlockOptions& options);
  /// x [B,S,D], keep broadcastable to [B,H,S,S] → [B,S,D]
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& keep);

  BlockOptions options;
  MultiHeadAttention self_attn{nullptr};
  torch::nn::LayerNorm self_attn_norm{nullptr};
  FeedForward ffn{nullptr};
  torch::nn::LayerNorm ffn_norm{nullptr};
};
TORCH_MODULE(EncoderLayer);

/// Embedding and the stack of encoder blocks.
class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const EncoderOptions& options);
  /// ids [B,S] int64, keep [B,S] bool (true = real token) → [B,S,D]. Padded positions never
  /// change the outputs at real positions.
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& keep);

  EncoderOptions options;
  PositionalEmbedding embed{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm final_norm{nullptr};  ///< pre-norm only
};
TORCH_MODULE(Encoder);

}  // namespace atento::model
