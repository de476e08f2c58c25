#include "model/decoder.h"

#include <utility>

namespace atento::model {

DecoderOptions decoder_options(const ModelOptions& options) {
  return stack_options(options, options.tgt_vocab, options.decoder_layers);
}

// --- DecoderLayer --------------------------------------------------------------------------

DecoderLayerImpl::DecoderLayerImpl(const BlockOptions& options_) : options(options_) {
  self_attn = register_module("self_attn", MultiHeadAttention(attention_options(options)));
  self_attn_norm = register_module("self_attn_norm", make_norm(options.d_model));
  cross_attn = register_module("cross_attn", MultiHeadAttention(attention_options(options)));
  cross_attn_norm = register_module("cross_attn_norm", make_norm(options.d_model));
  ffn = register_module("ffn", FeedForward(FeedForwardOptions(options.d_model, options.d_ff)));
  ffn_norm = register_module("ffn_norm", make_norm(options.d_model));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& self_keep,
                                        const torch::Tensor& memory,
                                        const torch::Tensor& cross_keep, LayerCache* cache,
                                        torch::Tensor* cross_weights) {
  auto self_attention = [&](const torch::Tensor& y) {
    auto q = self_attn->project_query(y);           // [B,H,T,Dh]
    auto [k, v] = self_attn->project_key_value(y);  // [B,H,T,Dh] each
    if (cache != nullptr) {
      cache->append(k, v);
      return self_attn->attend(q, cache->keys(), cache->values(), self_keep);  // [B,H,t+T,Dh]
    }
    return self_attn->attend(q, k, v, self_keep);
  };
  auto cross_attention = [&](const torch::Tensor& y) {
    auto q = cross_attn->project_query(y);  // [B,H,T,Dh]
    if (cache != nullptr) {
      return cross_attn->attend(q, cache->cross_k, cache->cross_v, cross_keep, cross_weights);
    }
    auto [k, v] = cross_attn->project_key_value(memory);  // [B,H,S,Dh] each
    return cross_attn->attend(q, k, v, cross_keep, cross_weights);
  };
  auto h = residual(x, self_attn_norm, options, is_training(), self_attention);
  h = residual(h, cross_attn_norm, options, is_training(), cross_attention);
  return residual(h, ffn_norm, options, is_training(),
                  [&](const torch::Tensor& y) { return ffn(y); });
}

// --- Decoder -------------------------------------------------------------------------------

DecoderImpl::DecoderImpl(const DecoderOptions& options_) : options(options_) {
  validate_options(options, "decoder");
  build_stack<DecoderLayer>(*this, options, embed, layers, final_norm);
}

torch::Tensor DecoderImpl::forward(const torch::Tensor& tgt, const torch::Tensor& tgt_keep,
                                   const torch::Tensor& memory, const torch::Tensor& src_keep,
                                   std::vector<torch::Tensor>* cross_weights) {
  const int64_t length = tgt.size(1);
  // [T,T] causal, combined with key padding: [T,T] ∧ [B,1,1,T] → [B,1,T,T]
  auto self_keep = causal_mask(length, tgt.device());
  if (tgt_keep.defined()) {
    self_keep = self_keep.logical_and(key_keep(tgt_keep));
  }
  auto cross_keep = key_keep(src_keep);  // [B,1,1,S]
  auto x = embed(tgt);                   // [B,T,D]
  if (cross_weights != nullptr) {
    cross_weights->assign(layers->size(), torch::Tensor());
  }
  for (size_t i = 0; i < layers->size(); ++i) {
    torch::Tensor* weights = cross_weights != nullptr ? &(*cross_weights)[i] : nullptr;
    x = layers->ptr<DecoderLayerImpl>(i)->forward(x, self_keep, memory, cross_keep, nullptr,
                                                  weights);
  }
  return final_norm ? final_norm(x) : x;
}

std::vector<LayerCache> DecoderImpl::start_caches(const torch::Tensor& memory) {
  std::vector<LayerCache> caches;
  caches.reserve(layers->size());
  for (size_t i = 0; i < layers->size(); ++i) {
    // [B,S,D] → [B,H,S,Dh]
    auto [k, v] = layers->ptr<DecoderLayerImpl>(i)->cross_attn->project_key_value(memory);
    LayerCache cache;
    cache.cross_k = k.contiguous();
    cache.cross_v = v.contiguous();
    caches.push_back(std::move(cache));
  }
  return caches;
}

torch::Tensor DecoderImpl::step(DecoderState& state, const torch::Tensor& tokens) {
  TORCH_CHECK(state.layers.size() == layers->size(), "decode step: state holds ",
              state.layers.size(), " layer caches for ", layers->size(), " decoder layers");
  const int64_t rows = tokens.size(0);
  auto cross_keep = key_keep(state.src_keep);          // [B,1,1,S]
  auto x = embed(tokens.view({rows, 1}), state.step);  // [B] → [B,1] → [B,1,D]
  if (state.record_attention) {
    state.cross_attention.assign(layers->size(), torch::Tensor());
  }
  for (size_t i = 0; i < layers->size(); ++i) {
    torch::Tensor weights;
    // Self-attention of the newest position sees every cached position: no mask needed.
    x = layers->ptr<DecoderLayerImpl>(i)->forward(x, torch::Tensor(), torch::Tensor(), cross_keep,
                                                  &state.layers[i],
                                                  state.record_attention ? &weights : nullptr);
    if (state.record_attention) {
      state.cross_attention[i] = weights.squeeze(2);  // [B,H,1,S] → [B,H,S]
    }
  }
  x = final_norm ? final_norm(x) : x;
  return x.squeeze(1);  // [B,1,D] → [B,D]
}

torch::Tensor DecoderImpl::step_at(std::vector<LayerCache>& caches, const torch::Tensor& tokens,
                                   const torch::Tensor& positions, const torch::Tensor& self_keep,
                                   const torch::Tensor& cross_keep) {
  const int64_t rows = tokens.size(0);
  auto x = embed->forward_at(tokens.view({rows, 1}), positions);  // [B] → [B,1] → [B,1,D]
  return cached_layers(caches, std::move(x), self_keep, cross_keep);
}

torch::Tensor DecoderImpl::step_static(std::vector<LayerCache>& caches, const torch::Tensor& tokens,
                                       const torch::Tensor& position,
                                       const torch::Tensor& self_keep,
                                       const torch::Tensor& cross_keep) {
  const int64_t rows = tokens.size(0);
  // [B] → [B,1] → [B,1,D], every row at `position` ([1] → [B])
  auto x = embed->forward_at_unchecked(tokens.view({rows, 1}), position.expand({rows}));
  return cached_layers(caches, std::move(x), self_keep, cross_keep);
}

torch::Tensor DecoderImpl::cached_layers(std::vector<LayerCache>& caches, torch::Tensor x,
                                         const torch::Tensor& self_keep,
                                         const torch::Tensor& cross_keep) {
  TORCH_CHECK(caches.size() == layers->size(), "decode step: ", caches.size(), " layer caches for ",
              layers->size(), " decoder layers");
  for (size_t i = 0; i < layers->size(); ++i) {
    x = layers->ptr<DecoderLayerImpl>(i)->forward(x, self_keep, torch::Tensor(), cross_keep,
                                                  &caches[i]);
  }
  x = final_norm ? final_norm(x) : x;
  return x.squeeze(1);  // [B,1,D] → [B,D]
}

}  // namespace atento::model
