#pragma once
// The Transformer decoder (Vaswani et al. 2017, §3.1): token and position embedding, then a
// stack of blocks with causal self-attention and cross-attention over an encoder's output.
// Whole sequences (teacher forcing) or one position at a time over a DecoderState.
// Shape legend: B batch, S source length, T target length, D d_model, H heads.

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <vector>

#include "model/attention.h"
#include "model/block.h"
#include "model/decoder_state.h"
#include "model/feed_forward.h"
#include "model/options.h"
#include "model/positional_embedding.h"

namespace atento::model {

using DecoderOptions = StackOptions;

/// The decoder of a Seq2Seq model: target vocabulary, decoder_layers blocks.
DecoderOptions decoder_options(const ModelOptions& options);

/// Decoder block: causal self-attention, cross-attention over the encoder output, feed-forward.
class DecoderLayerImpl : public torch::nn::Module {
 public:
  explicit DecoderLayerImpl(const BlockOptions& options);
  /// x [B,T,D]; self_keep broadcastable to [B,H,T,t] (undefined: attend everywhere);
  /// cross_keep broadcastable to [B,H,T,S]. Without a cache, keys and values come from x and
  /// from memory [B,S,D]. With a cache, x holds only the new positions: their keys/values are
  /// appended to cache->self_k/self_v and cross attention uses cache->cross_k/cross_v (memory
  /// is then unused). `cross_weights`, when not null, receives [B,H,T,S]. → [B,T,D]
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& self_keep,
                        const torch::Tensor& memory, const torch::Tensor& cross_keep,
                        LayerCache* cache = nullptr, torch::Tensor* cross_weights = nullptr);

  BlockOptions options;
  MultiHeadAttention self_attn{nullptr};
  torch::nn::LayerNorm self_attn_norm{nullptr};
  MultiHeadAttention cross_attn{nullptr};
  torch::nn::LayerNorm cross_attn_norm{nullptr};
  FeedForward ffn{nullptr};
  torch::nn::LayerNorm ffn_norm{nullptr};
};
TORCH_MODULE(DecoderLayer);

/// Embedding and the stack of decoder blocks.
class DecoderImpl : public torch::nn::Module {
 public:
  explicit DecoderImpl(const DecoderOptions& options);
  /// Whole-sequence pass: tgt [B,T] int64 with tgt_keep [B,T] bool (undefined: no padding)
  /// over memory [B,S,D] → hidden [B,T,D]. When `cross_weights` is not null it receives one
  /// [B,H,T,S] tensor per layer.
  torch::Tensor forward(const torch::Tensor& tgt, const torch::Tensor& tgt_keep,
                        const torch::Tensor& memory, const torch::Tensor& src_keep,
                        std::vector<torch::Tensor>* cross_weights = nullptr);
  /// One cache per layer holding the cross-attention keys/values of memory [B,S,D], made
  /// contiguous once so that each step attends without copying.
  std::vector<LayerCache> start_caches(const torch::Tensor& memory);
  /// One cached step: tokens [B] at position state.step → hidden [B,D]; updates the caches
  /// (and state.cross_attention when recording). Does not advance state.step.
  torch::Tensor step(DecoderState& state, const torch::Tensor& tokens);
  /// One cached step of rows at different positions (continuous batching): tokens [B] at
  /// positions [B]; self_keep [B,1,1,K] marks, among the K = length-first+1 columns each
  /// layer's cache will span after this step, the ones row b attends (undefined: all);
  /// cross_keep [B,1,1,S].
  /// Appends to `caches` → hidden [B,D].
  torch::Tensor step_at(std::vector<LayerCache>& caches, const torch::Tensor& tokens,
                        const torch::Tensor& positions, const torch::Tensor& self_keep,
                        const torch::Tensor& cross_keep);
  /// One step in a fixed shape (CUDA graphs, model/static_greedy.h): tokens [B] at position
  /// `position` ([1] int64, never read on the host; the caller keeps it below max_len) over
  /// caches with write_position set and capacity C; self_keep [1,1,1,C] marks the columns
  /// written so far, this step's included; cross_keep [B,1,1,S]. → hidden [B,D]
  torch::Tensor step_static(std::vector<LayerCache>& caches, const torch::Tensor& tokens,
                            const torch::Tensor& position, const torch::Tensor& self_keep,
                            const torch::Tensor& cross_keep);

  DecoderOptions options;
  PositionalEmbedding embed{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm final_norm{nullptr};  ///< pre-norm only

 private:
  /// The blocks and the final norm over embedded positions x [B,1,D] → hidden [B,D].
  torch::Tensor cached_layers(std::vector<LayerCache>& caches, torch::Tensor x,
                              const torch::Tensor& self_keep, const torch::Tensor& cross_keep);
};
TORCH_MODULE(Decoder);

}  // namespace atento::model
