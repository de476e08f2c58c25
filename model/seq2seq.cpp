#include "model/seq2seq.h"

#include <utility>
#include <vector>

#include "model/adaptive_softmax.h"
#include "model/attention.h"
#include "model/block.h"
#include "model/full_softmax.h"
#include "model/positional_embedding.h"

namespace atento::model {

Seq2SeqImpl::Seq2SeqImpl(const ModelOptions& options) : options_(options) {
  validate_options(options);
  // Creation order fixes the random initialisation: encoder, decoder, output layer.
  encoder = register_module("encoder", Encoder(encoder_options(options)));
  decoder = register_module("decoder", Decoder(decoder_options(options)));
  if (options.share_embeddings) share_token_embedding();
  output_ = make_output_layer();
}

void Seq2SeqImpl::share_token_embedding() {
  // The encoder keeps a handle on the decoder's table without registering it, so the weight
  // is one parameter (stepped once, reduced once, saved once as decoder.embed.tokens.weight).
  encoder->embed->unregister_module("tokens");
  encoder->embed->tokens = decoder->embed->tokens;
}

std::shared_ptr<OutputLayerImpl> Seq2SeqImpl::make_output_layer() {
  const auto& o = options_;
  if (!o.adaptive_cutoffs.empty()) {
    return register_module(
        "adaptive", AdaptiveSoftmax(o.d_model, o.tgt_vocab, o.adaptive_cutoffs, o.adaptive_div));
  }
  if (o.tie_embeddings) {
    // Press & Wolf 2017: the target embedding matrix scores the vocabulary. The layer is not a
    // child module (its weight belongs to the decoder); its bias is this model's "out_bias".
    TiedSoftmax tied(decoder->embed->tokens);
    register_parameter("out_bias", tied->bias);
    return tied.ptr();
  }
  return register_module("out_proj", FullSoftmax(o.d_model, o.tgt_vocab));
}

EncoderOutput Seq2SeqImpl::encode(const torch::Tensor& src, const torch::Tensor& src_keep) {
  check_token_ids(src, "source");
  return {encoder(src, src_keep), src_keep};
}

EncoderOutput Seq2SeqImpl::encode(const torch::Tensor& src) {
  check_token_ids(src, "source");
  return encode(src, padding_mask(src, kPadId));  // [B,S]
}

torch::Tensor Seq2SeqImpl::decode_hidden(const EncoderOutput& encoded, const torch::Tensor& tgt_in,
                                         const torch::Tensor& tgt_keep) {
  check_token_ids(tgt_in, "target");
  TORCH_CHECK(tgt_in.size(0) == encoded.memory.size(0), "target batch ", tgt_in.size(0),
              " != source batch ", encoded.memory.size(0));
  TORCH_CHECK(tgt_keep.sizes() == tgt_in.sizes() && tgt_keep.scalar_type() == torch::kBool,
              "target keep mask must be [B,T] bool like the ids ", tgt_in.sizes(), ", got ",
              tgt_keep.sizes(), " ", tgt_keep.scalar_type());
  return decoder(tgt_in, tgt_keep, encoded.memory, encoded.src_keep);
}

torch::Tensor Seq2SeqImpl::decode_hidden(const EncoderOutput& encoded,
                                         const torch::Tensor& tgt_in) {
  check_token_ids(tgt_in, "target");
  return decode_hidden(encoded, tgt_in, padding_mask(tgt_in, kPadId));  // [B,T]
}

torch::Tensor Seq2SeqImpl::project(const torch::Tensor& hidden) {
  return output_->scores(dropout_if_training(hidden, options_.output_dropout, is_training()));
}

OutputTerms Seq2SeqImpl::output_terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                                      bool predict) {
  auto h = dropout_if_training(hidden, options_.output_dropout, is_training());
  return output_->terms(h, targets, predict);
}

torch::Tensor Seq2SeqImpl::forward(const torch::Tensor& src, const torch::Tensor& tgt_in) {
  return project(decode_hidden(encode(src), tgt_in));
}

DecoderState Seq2SeqImpl::start(const EncoderOutput& encoded, const DecodeOptions& options) {
  DecoderState state;
  state.src_keep = encoded.src_keep;
  state.use_cache = options.use_cache;
  state.record_attention = options.record_attention;
  if (options.use_cache) {
    state.layers = decoder->start_caches(encoded.memory);
  } else {
    state.memory = encoded.memory;
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
