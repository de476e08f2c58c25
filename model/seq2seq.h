#pragma once
// The encoder-decoder Transformer (Vaswani et al. 2017; DLwP ch. 15), assembled from an
// Encoder, a Decoder and an output layer. Public surface used by app/: forward (teacher
// forcing), encode + decode_hidden + output_terms (the trainer scores only real target
// positions), start/decode_step (KV cache).
// Shape legend: B batch, S source length, T target length, D d_model, V vocab.

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <memory>

#include "model/decoder.h"
#include "model/decoder_state.h"
#include "model/encoder.h"
#include "model/options.h"
#include "model/output_layer.h"

namespace atento::model {

/// What the encoder hands the decoder.
struct EncoderOutput {
  torch::Tensor memory;    ///< [B,S,D]
  torch::Tensor src_keep;  ///< [B,S] bool
};

/// The translation model, built from ModelOptions. Parameter names (the checkpoint keys):
/// encoder.*, decoder.*, and the output layer's: out_proj.* (FullSoftmax), out_bias
/// (TiedSoftmax) or adaptive.* (AdaptiveSoftmax).
class Seq2SeqImpl : public torch::nn::Module {
 public:
  /// Throws std::invalid_argument (validate_options) for options out of range.
  explicit Seq2SeqImpl(const ModelOptions& options);

  /// Teacher forcing: src [B,S], tgt_in [B,T] (int64, padding kPadId) → scores [B,T,V].
  torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& tgt_in);
  /// src [B,S] int64 with src_keep [B,S] bool (true = real token) → memory and the mask.
  EncoderOutput encode(const torch::Tensor& src, const torch::Tensor& src_keep);
  /// As above, the mask built from the ids (padding kPadId).
  EncoderOutput encode(const torch::Tensor& src);
  /// Decoder hidden states for tgt_in [B,T] with tgt_keep [B,T] bool → [B,T,D], before the
  /// output layer, so that callers can score only the positions they need.
  torch::Tensor decode_hidden(const EncoderOutput& encoded, const torch::Tensor& tgt_in,
                              const torch::Tensor& tgt_keep);
  /// As above, the mask built from the ids (padding kPadId).
  torch::Tensor decode_hidden(const EncoderOutput& encoded, const torch::Tensor& tgt_in);
  /// Output dropout, then the output layer: hidden [..., D] → scores [..., V] (logits, or
  /// log-probabilities with the adaptive softmax; log_softmax leaves those unchanged).
  torch::Tensor project(const torch::Tensor& hidden);
  /// Output dropout, then the output layer's terms at positions hidden [N,D] with targets [N]
  /// (`predict = false` may leave `predicted` undefined; see OutputLayerImpl::terms).
  OutputTerms output_terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                           bool predict = true);
  /// Decoding state for `encoded`; with the cache, cross-attention keys/values are computed
  /// here once per layer.
  DecoderState start(const EncoderOutput& encoded, const DecodeOptions& options = {});
  /// Feeds last_tokens [B] at position state.step and returns the next-token scores [B,V].
  /// Cached and uncached states give the same scores.
  torch::Tensor decode_step(DecoderState& state, const torch::Tensor& last_tokens);

  const ModelOptions& options() const { return options_; }
  /// The vocabulary output layer, whichever it is.
  OutputLayerImpl& output() { return *output_; }
  const OutputLayerImpl& output() const { return *output_; }

  Encoder encoder{nullptr};
  Decoder decoder{nullptr};

 private:
  /// Builds the output layer and registers its parameters under their checkpoint names.
  std::shared_ptr<OutputLayerImpl> make_output_layer();
  /// model.share_embeddings: the encoder reads the decoder's token embedding.
  void share_token_embedding();

  ModelOptions options_;
  std::shared_ptr<OutputLayerImpl> output_;
};
TORCH_MODULE(Seq2Seq);

/// Parameter count of a module (all parameters, trainable or not).
int64_t count_parameters(const torch::nn::Module& module);

}  // namespace atento::model
