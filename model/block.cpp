#include "model/block.h"

namespace atento::model {

BlockOptions block_options(const ModelOptions& options) {
  BlockOptions block;
  block.d_model = options.d_model;
  block.n_heads = options.n_heads;
  block.head_dim = options.head_dim;
  block.d_ff = options.d_ff;
  block.dropout = options.dropout;
  block.norm = options.norm;
  return block;
}

void validate_options(const BlockOptions& options, const std::string& prefix) {
  require_at_least(prefix + ".d_model", options.d_model, 1);
  require_at_least(prefix + ".n_heads", options.n_heads, 1);
  require_at_least(prefix + ".head_dim", options.head_dim, 1);
  require_at_least(prefix + ".d_ff", options.d_ff, 1);
  require_rate(prefix + ".dropout", options.dropout);
}

StackOptions stack_options(const ModelOptions& options, int64_t vocab, int64_t layers) {
  StackOptions stack;
  stack.vocab = vocab;
  stack.max_len = options.max_len;
  stack.positions = options.positions;
  stack.layers = layers;
  stack.block = block_options(options);
  return stack;
}

void validate_options(const StackOptions& options, const std::string& prefix) {
  require_at_least(prefix + ".vocab", options.vocab, kMinVocab);
  require_at_least(prefix + ".max_len", options.max_len, 1);
  require_at_least(prefix + ".layers", options.layers, 1);
  validate_options(options.block, prefix + ".block");
}

MultiHeadAttentionOptions attention_options(const BlockOptions& options) {
  return MultiHeadAttentionOptions(options.d_model, options.n_heads, options.head_dim);
}

torch::nn::LayerNorm make_norm(int64_t d_model) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model}));
}

torch::Tensor dropout_if_training(const torch::Tensor& x, double p, bool training) {
  return (training && p > 0.0) ? torch::dropout(x, p, true) : x;
}

torch::Tensor key_keep(const torch::Tensor& keep) {
  return keep.view({keep.size(0), 1, 1, keep.size(1)});  // [B,L] → [B,1,1,L]
}

}  // namespace atento::model
