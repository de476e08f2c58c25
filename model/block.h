#pragma once
// What every Transformer block shares: its options, the residual sublayer (post- or pre-norm),
// the LayerNorm it uses, and the key keep mask its attention layers take.
// Shape legend: B batch, L sequence length, D d_model, H heads.

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/normalization.h>
#include <torch/types.h>

#include <cstdint>
#include <string>

#include "model/attention.h"
#include "model/options.h"
#include "model/positional_embedding.h"

namespace atento::model {

/// One encoder or decoder block.
struct BlockOptions {
  /// Width D.
  int64_t d_model = 256;
  /// Attention heads H.
  int64_t n_heads = 8;
  /// Head width Dh.
  int64_t head_dim = 32;
  /// Feed-forward inner width.
  int64_t d_ff = 1024;
  /// Dropout on each sublayer's output before the residual sum.
  double dropout = 0.1;
  /// Post-norm (the book) or pre-norm.
  Norm norm = Norm::kPost;
};

/// The block fields of a model: widths, dropout, norm placement.
BlockOptions block_options(const ModelOptions& options);

/// An embedding under a stack of blocks: the shape of the encoder and of the decoder.
struct StackOptions {
  /// Token vocabulary size V (padding is kPadId).
  int64_t vocab = 8000;
  /// Longest sequence the position table covers.
  int64_t max_len = 64;
  /// Learned position embeddings, or none.
  Positions positions = Positions::kLearned;
  /// Number of blocks.
  int64_t layers = 2;
  /// Every block; block.d_model is the width D of the embedding and of the output.
  BlockOptions block;
};

/// One side of a Seq2Seq model: `vocab` and `layers` of that side, the rest shared.
StackOptions stack_options(const ModelOptions& options, int64_t vocab, int64_t layers);

/// Throws std::invalid_argument "<prefix>.<field>: …" for a field out of range (the limits of
/// validate_options(ModelOptions)).
void validate_options(const StackOptions& options, const std::string& prefix);

/// Throws std::invalid_argument "<prefix>.<field>: …" for a field out of range (the limits of
/// validate_options(ModelOptions)).
void validate_options(const BlockOptions& options, const std::string& prefix);

/// The attention layer of a block.
MultiHeadAttentionOptions attention_options(const BlockOptions& options);

/// LayerNorm over the last axis of width d_model.
torch::nn::LayerNorm make_norm(int64_t d_model);

/// Dropout with rate p while training; x itself otherwise.
torch::Tensor dropout_if_training(const torch::Tensor& x, double p, bool training);

/// [B,L] keep → [B,1,1,L]: one row of keys shared by every head and query.
torch::Tensor key_keep(const torch::Tensor& keep);

/// Registers what every stack has on `owner`, in this order (which fixes the initial weights for
/// a seed): "embed" (tokens + positions), "layers" (`options.layers` blocks of type Block) and,
/// for pre-norm, "final_norm".
template <typename Block>
void build_stack(torch::nn::Module& owner, const StackOptions& options,
                 PositionalEmbedding& embed, torch::nn::ModuleList& layers,
                 torch::nn::LayerNorm& final_norm) {
  embed = owner.register_module(
      "embed", PositionalEmbedding(
                   PositionalEmbeddingOptions(options.vocab, options.block.d_model, options.max_len)
                       .positions(options.positions)));
  layers = owner.register_module("layers", torch::nn::ModuleList());
  for (int64_t i = 0; i < options.layers; ++i) layers->push_back(Block(options.block));
  if (options.block.norm == Norm::kPre) {
    final_norm = owner.register_module("final_norm", make_norm(options.block.d_model));
  }
}

/// One residual sublayer. Post-norm (the book; Vaswani et al. §3.1): norm(x + drop(f(x))).
/// Pre-norm (Xiong et al. 2020): x + drop(f(norm(x))).
template <typename Sublayer>
torch::Tensor residual(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                       const BlockOptions& options, bool training, Sublayer&& sublayer) {
  if (options.norm == Norm::kPre) {
    return x + dropout_if_training(sublayer(norm(x)), options.dropout, training);
  }
  return norm(x + dropout_if_training(sublayer(x), options.dropout, training));
}

}  // namespace atento::model
