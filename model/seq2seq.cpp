#include "model/seq2seq.h"

#include <torch/nn/init.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace atento::model {
namespace {

torch::nn::LayerNorm make_norm(int64_t d_model) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model}));
}

torch::Tensor maybe_dropout(const torch::Tensor& x, double p, bool training) {
  return (training && p > 0.0) ? torch::dropout(x, p, true) : x;
}

// One residual sublayer. Post-norm (the book; Vaswani et al. §3.1): norm(x + drop(f(x))).
// Pre-norm (Xiong et al. 2020): x + drop(f(norm(x))).
template <typename Sublayer>
torch::Tensor residual(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                       const BlockOptions& options, bool training, Sublayer&& sublayer) {
  if (options.norm == Norm::kPre) {
    return x + maybe_dropout(sublayer(norm(x)), options.dropout, training);
  }
  return norm(x + maybe_dropout(sublayer(x), options.dropout, training));
}

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

MultiHeadAttentionOptions attention_options(const BlockOptions& options) {
  return MultiHeadAttentionOptions(options.d_model, options.n_heads, options.head_dim);
}

// [B,L] keep → [B,1,1,L]: one row of keys shared by every head and query.
torch::Tensor key_keep(const torch::Tensor& keep) {
  return keep.view({keep.size(0), 1, 1, keep.size(1)});
}

void check_ids(const torch::Tensor& ids, const char* what) {
  TORCH_CHECK(ids.dim() == 2, what, " must be [B,L] token ids, got shape ", ids.sizes());
  TORCH_CHECK(ids.scalar_type() == torch::kLong, what, " must be int64, got ", ids.scalar_type());
}

// [B,...] → [B',...]: rows `indices` of x (undefined stays undefined).
torch::Tensor select_rows(const torch::Tensor& x, const torch::Tensor& indices) {
  return x.defined() ? x.index_select(0, indices) : x;
}

}  // namespace

// --- PositionalEmbedding -------------------------------------------------------------------

PositionalEmbeddingImpl::PositionalEmbeddingImpl(const PositionalEmbeddingOptions& options_)
    : options(options_) {
  TORCH_CHECK(options.vocab() > 0 && options.d_model() > 0 && options.max_len() > 0,
              "PositionalEmbedding: vocab, d_model and max_len must be positive");
  // N(0, 1/D): unit-norm vectors on average, so tied output logits start near unit scale.
  const double std = 1.0 / std::sqrt(static_cast<double>(options.d_model()));
  tokens = register_module("tokens", torch::nn::Embedding(torch::nn::EmbeddingOptions(
                                         options.vocab(), options.d_model())));
  torch::nn::init::normal_(tokens->weight, 0.0, std);
  if (options.positions() == Positions::kLearned) {
    positions = register_module("positions", torch::nn::Embedding(torch::nn::EmbeddingOptions(
                                                 options.max_len(), options.d_model())));
    torch::nn::init::normal_(positions->weight, 0.0, std);
  }
}

torch::Tensor PositionalEmbeddingImpl::forward(const torch::Tensor& ids, int64_t offset) {
  check_ids(ids, "PositionalEmbedding input");
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

// --- FeedForward ---------------------------------------------------------------------------

FeedForwardImpl::FeedForwardImpl(const FeedForwardOptions& options) {
  TORCH_CHECK(options.d_model() > 0 && options.d_ff() > 0,
              "FeedForward: d_model and d_ff must be positive");
  linear1 = register_module("linear1", glorot_linear(options.d_model(), options.d_ff()));
  linear2 = register_module("linear2", glorot_linear(options.d_ff(), options.d_model()));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) {
  // [..., D] → [..., d_ff] → [..., D]; ReLU in place on the fresh projection.
  return dense(dense(x, linear1).relu_(), linear2);
}

// --- Encoder and decoder blocks ------------------------------------------------------------

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

// --- Encoder and decoder stacks ------------------------------------------------------------

EncoderImpl::EncoderImpl(const ModelOptions& options) {
  embed = register_module(
      "embed", PositionalEmbedding(
                   PositionalEmbeddingOptions(options.src_vocab, options.d_model, options.max_len)
                       .positions(options.positions)));
  layers = register_module("layers", torch::nn::ModuleList());
  for (int64_t i = 0; i < options.encoder_layers; ++i) {
    layers->push_back(EncoderLayer(block_options(options)));
  }
  if (options.norm == Norm::kPre) {
    final_norm = register_module("final_norm", make_norm(options.d_model));
  }
}

torch::Tensor EncoderImpl::forward(const torch::Tensor& src, const torch::Tensor& src_keep) {
  auto keep = key_keep(src_keep);  // [B,1,1,S]
  auto x = embed(src);             // [B,S,D]
  for (const auto& layer : *layers) {
    x = layer->as<EncoderLayerImpl>()->forward(x, keep);
  }
  return final_norm ? final_norm(x) : x;
}

DecoderImpl::DecoderImpl(const ModelOptions& options) {
  embed = register_module(
      "embed", PositionalEmbedding(
                   PositionalEmbeddingOptions(options.tgt_vocab, options.d_model, options.max_len)
                       .positions(options.positions)));
  layers = register_module("layers", torch::nn::ModuleList());
  for (int64_t i = 0; i < options.decoder_layers; ++i) {
    layers->push_back(DecoderLayer(block_options(options)));
  }
  if (options.norm == Norm::kPre) {
    final_norm = register_module("final_norm", make_norm(options.d_model));
  }
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

// --- LayerCache and DecoderState ----------------------------------------------------------

void LayerCache::append(const torch::Tensor& k, const torch::Tensor& v) {
  TORCH_CHECK(k.dim() == 4 && k.sizes() == v.sizes(),
              "LayerCache::append: keys and values must be [B,H,T,Dh], got ", k.sizes(), " and ",
              v.sizes());
  const int64_t added = k.size(2), needed = length + added;
  const int64_t capacity = self_k.defined() ? self_k.size(2) : 0;
  if (needed > capacity) {
    // Doubling keeps the total copying linear in the decoded length.
    const int64_t grown = std::max({needed, 2 * capacity, int64_t{16}});
    auto grow = [&](const torch::Tensor& old) {
      // [B,H,capacity,Dh] → [B,H,grown,Dh], filled part copied
      auto buffer = torch::empty({k.size(0), k.size(1), grown, k.size(3)}, k.options());
      if (length > 0) {
        buffer.narrow(2, 0, length).copy_(old.narrow(2, 0, length));
      }
      return buffer;
    };
    self_k = grow(self_k);
    self_v = grow(self_v);
  }
  // [B,H,T,Dh] into positions length..length+T-1 of [B,H,capacity,Dh]
  self_k.narrow(2, length, added).copy_(k);
  self_v.narrow(2, length, added).copy_(v);
  length = needed;
}

void DecoderState::reorder(const torch::Tensor& indices) {
  TORCH_CHECK(indices.dim() == 1, "DecoderState::reorder: indices must be [B'], got ",
              indices.sizes());
  const auto rows_on_device = indices.to(src_keep.device(), torch::kLong);
  for (auto& cache : layers) {
    cache.self_k = select_rows(cache.self_k, rows_on_device);
    cache.self_v = select_rows(cache.self_v, rows_on_device);
    cache.cross_k = select_rows(cache.cross_k, rows_on_device);
    cache.cross_v = select_rows(cache.cross_v, rows_on_device);
  }
  src_keep = select_rows(src_keep, rows_on_device);
  memory = select_rows(memory, rows_on_device);
  prefix = select_rows(prefix, rows_on_device);
  for (auto& weights : cross_attention) {
    weights = select_rows(weights, rows_on_device);
  }
}

// --- Seq2Seq -------------------------------------------------------------------------------

Seq2SeqImpl::Seq2SeqImpl(const ModelOptions& options) : options_(options) {
  TORCH_CHECK(options.src_vocab > 0 && options.tgt_vocab > 0,
              "model: vocabulary sizes must be positive, got src_vocab=", options.src_vocab,
              " tgt_vocab=", options.tgt_vocab);
  TORCH_CHECK(options.d_model > 0 && options.n_heads > 0 && options.head_dim > 0 &&
                  options.d_ff > 0 && options.max_len > 0,
              "model: d_model, n_heads, head_dim, d_ff and max_len must be positive");
  TORCH_CHECK(options.encoder_layers >= 0 && options.decoder_layers >= 0,
              "model: layer counts must not be negative");
  TORCH_CHECK(options.dropout >= 0.0 && options.dropout < 1.0 && options.output_dropout >= 0.0 &&
                  options.output_dropout < 1.0,
              "model: dropout rates must lie in [0, 1)");
  encoder = register_module("encoder", Encoder(options));
  decoder = register_module("decoder", Decoder(options));
  TORCH_CHECK(options.adaptive_cutoffs.empty() || !options.tie_embeddings,
              "model: the adaptive softmax cannot be tied to the target embedding");
  if (!options.adaptive_cutoffs.empty()) {
    adaptive = register_module("adaptive", AdaptiveSoftmax(options.d_model, options.tgt_vocab,
                                                           options.adaptive_cutoffs,
                                                           options.adaptive_div));
  } else if (options.tie_embeddings) {
    out_bias = register_parameter("out_bias", torch::zeros({options.tgt_vocab}));
  } else {
    out_proj = register_module("out_proj", glorot_linear(options.d_model, options.tgt_vocab));
  }
  to(torch::Device(options.device));
}

EncoderOutput Seq2SeqImpl::encode(const torch::Tensor& src) {
  check_ids(src, "source");
  auto src_keep = padding_mask(src);  // [B,S]
  return {encoder(src, src_keep), src_keep};
}

torch::Tensor Seq2SeqImpl::decode_hidden(const EncoderOutput& encoded,
                                         const torch::Tensor& tgt_in) {
  check_ids(tgt_in, "target");
  TORCH_CHECK(tgt_in.size(0) == encoded.memory.size(0), "target batch ", tgt_in.size(0),
              " != source batch ", encoded.memory.size(0));
  return decoder(tgt_in, padding_mask(tgt_in), encoded.memory, encoded.src_keep);
}

torch::Tensor Seq2SeqImpl::project(const torch::Tensor& hidden) {
  auto h = maybe_dropout(hidden, options_.output_dropout, is_training());
  if (adaptive) {
    auto flat = h.reshape({-1, h.size(-1)});                   // [..., D] → [M,D]
    auto logp = adaptive_log_probs(*adaptive, flat);           // [M,V]
    auto shape = h.sizes().vec();
    shape.back() = logp.size(-1);
    return logp.view(shape);                                   // [M,V] → [..., V]
  }
  if (out_proj) {
    return dense(h, out_proj);  // [..., D] → [..., V]
  }
  // Tied (Press & Wolf 2017): [..., D] @ [V,D]ᵀ + [V] → [..., V]
  return torch::linear(h, decoder->embed->tokens->weight, out_bias);
}

OutputTerms Seq2SeqImpl::output_terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                                      bool predict) {
  if (adaptive) {
    auto h = maybe_dropout(hidden, options_.output_dropout, is_training());
    return adaptive_softmax_terms(*adaptive, h, targets, predict);
  }
  return full_softmax_terms(project(hidden), targets);
}

torch::Tensor Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& tgt_in) {
  return project(decode_hidden(encode(src), tgt_in));
}

DecoderState Seq2SeqImpl::start(const EncoderOutput& encoded, const DecodeOptions& options) {
  DecoderState state;
  state.src_keep = encoded.src_keep;
  state.use_cache = options.use_cache;
  state.record_attention = options.record_attention;
  if (!options.use_cache) {
    state.memory = encoded.memory;
    return state;
  }
  state.layers.reserve(decoder->layers->size());
  for (size_t i = 0; i < decoder->layers->size(); ++i) {
    // [B,S,D] → [B,H,S,Dh], made contiguous once so each step attends without copying.
    auto [k, v] =
        decoder->layers->ptr<DecoderLayerImpl>(i)->cross_attn->project_key_value(encoded.memory);
    LayerCache cache;
    cache.cross_k = k.contiguous();
    cache.cross_v = v.contiguous();
    state.layers.push_back(std::move(cache));
  }
  return state;
}

torch::Tensor Seq2SeqImpl::decode_step(DecoderState& state, const torch::Tensor& last_tokens) {
  TORCH_CHECK(last_tokens.dim() == 1 && last_tokens.size(0) == state.rows(),
              "decode_step: last_tokens must be [B] with B = ", state.rows(), ", got ",
              last_tokens.sizes());
  TORCH_CHECK(last_tokens.scalar_type() == torch::kLong, "decode_step: tokens must be int64");
  // [B] → [B,1]; [B,t] ++ [B,1] → [B,t+1] (a copy, never a view of the caller's tensor)
  auto fed = last_tokens.view({state.rows(), 1});
  state.prefix = state.prefix.defined() ? torch::cat({state.prefix, fed}, 1) : fed.clone();
  torch::Tensor hidden;
  if (state.use_cache) {
    hidden = decoder->step(state, last_tokens);  // [B,D]
  } else {
    // Reference path: the whole prefix again, keeping only the last position.
    std::vector<torch::Tensor> weights;
    auto all = decoder(state.prefix, torch::Tensor(), state.memory, state.src_keep,
                       state.record_attention ? &weights : nullptr);  // [B,t+1,D]
    hidden = all.select(1, -1);                                       // [B,D]
    if (state.record_attention) {
      state.cross_attention.clear();
      for (const auto& w : weights) {
        state.cross_attention.push_back(w.select(2, -1));  // [B,H,t+1,S] → [B,H,S]
      }
    }
  }
  ++state.step;
  return project(hidden);  // [B,V]
}

int64_t count_parameters(const torch::nn::Module& module) {
  int64_t total = 0;
  for (const auto& parameter : module.parameters()) {
    total += parameter.numel();
  }
  return total;
}

}  // namespace atento::model
