#include "model/encoder.h"

namespace atento::model {

EncoderOptions encoder_options(const ModelOptions& options) {
  return stack_options(options, options.src_vocab, options.encoder_layers);
}

EncoderLayerImpl::EncoderLayerImpl(const BlockOptions& options_) : options(options_) {
  self_attn = register_module("self_attn", MultiHeadAttention(attention_options(options)));
  self_attn_norm = register_module("self_attn_norm", make_norm(options.d_model));
  ffn = register_module("ffn", FeedForward(FeedForwardOptions(options.d_model, options.d_ff)));
  ffn_norm = register_module("ffn_norm", make_norm(options.d_model));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& keep) {
  auto h = residual(x, self_attn_norm, options, is_training(),
                    [&](const torch::Tensor& y) { return self_attn(y, y, keep); });
  return residual(h, ffn_norm, options, is_training(),
                  [&](const torch::Tensor& y) { return ffn(y); });
}

EncoderImpl::EncoderImpl(const EncoderOptions& options_) : options(options_) {
  validate_options(options, "encoder");
  build_stack<EncoderLayer>(*this, options, embed, layers, final_norm);
}

torch::Tensor EncoderImpl::forward(const torch::Tensor& ids, const torch::Tensor& keep) {
  check_token_ids(ids, "encoder input");
  TORCH_CHECK(keep.sizes() == ids.sizes() && keep.scalar_type() == torch::kBool,
              "encoder keep mask must be [B,S] bool like the ids ", ids.sizes(), ", got ",
              keep.sizes(), " ", keep.scalar_type());
  auto key_mask = key_keep(keep);  // [B,S] → [B,1,1,S]
  auto x = embed(ids);             // [B,S] → [B,S,D]
  for (const auto& layer : *layers) {
    x = layer->as<EncoderLayerImpl>()->forward(x, key_mask);
  }
  return final_norm ? final_norm(x) : x;
}

}  // namespace atento::model
