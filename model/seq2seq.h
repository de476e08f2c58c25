#pragma once
// The encoder-decoder Transformer (Vaswani et al. 2017; DLwP ch. 15) and its decoding state.
// Public surface used by app/: forward (teacher forcing), decode_hidden + project (the trainer
// projects only real target positions), encode, start/decode_step (KV cache).
// Shape legend: B batch, S source length, T target length, D d_model, H heads, Dh head dim,
// V vocab.

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "model/attention.h"
#include "model/options.h"
#include "model/output.h"

namespace atento::model {

/// What the encoder hands the decoder.
struct EncoderOutput {
  torch::Tensor memory;    ///< [B,S,D]
  torch::Tensor src_keep;  ///< [B,S] bool
};

/// Per-layer cache of one decoder block. Self-attention keys/values live in buffers with room
/// to spare (capacity doubles when full), so a step writes one position instead of copying
/// the whole cache.
struct LayerCache {
  torch::Tensor self_k, self_v;    ///< [B,H,capacity,Dh]; positions [0, length) are filled
  int64_t length = 0;              ///< positions cached so far
  torch::Tensor cross_k, cross_v;  ///< [B,H,S,Dh], computed once from the encoder output
  /// Writes k, v [B,H,T,Dh] at positions length..length+T-1, growing the buffers if needed.
  void append(const torch::Tensor& k, const torch::Tensor& v);
  /// Cached keys [B,H,length,Dh] (a view of the buffer).
  torch::Tensor keys() const { return self_k.narrow(2, 0, length); }
  /// Cached values [B,H,length,Dh] (a view of the buffer).
  torch::Tensor values() const { return self_v.narrow(2, 0, length); }
};

/// Explicit decoding state (the model itself stays immutable during generation). A copy shares
/// the cache buffers with the original, which decode_step writes in place: branch with reorder,
/// which gathers rows into new buffers.
struct DecoderState {
  std::vector<LayerCache> layers;  ///< one per decoder block; empty on the uncached path
  torch::Tensor src_keep;          ///< [B,S] bool
  torch::Tensor memory;            ///< [B,S,D], kept for the uncached path only
  torch::Tensor prefix;            ///< [B,t] int64, tokens fed so far
  int64_t step = 0;                ///< positions already decoded (t)
  bool use_cache = true;
  /// When set, decode_step stores each layer's cross-attention weights of the newest
  /// position: [B,H,S] per layer.
  bool record_attention = false;
  std::vector<torch::Tensor> cross_attention;
  /// Keeps rows `indices` ([B'] int64, repeats allowed) of every tensor: beam reordering and
  /// dropping finished sentences.
  void reorder(const torch::Tensor& indices);
  /// Rows B currently decoded.
  int64_t rows() const { return src_keep.size(0); }
};

/// How Seq2SeqImpl::start prepares decoding.
struct DecodeOptions {
  /// Keep per-layer keys/values (cross attention computed once); otherwise every step
  /// recomputes the decoder over the whole prefix (reference path, for tests and benchmarks).
  bool use_cache = true;
  /// Record cross-attention weights of the newest position at every step.
  bool record_attention = false;
};

struct PositionalEmbeddingOptions {
  PositionalEmbeddingOptions(int64_t vocab, int64_t d_model, int64_t max_len)
      : vocab_(vocab), d_model_(d_model), max_len_(max_len) {}
  /// Token vocabulary size V.
  TORCH_ARG(int64_t, vocab);
  /// Embedding width D.
  TORCH_ARG(int64_t, d_model);
  /// Positions covered by the learned table.
  TORCH_ARG(int64_t, max_len);
  /// Learned position embeddings added to the tokens, or tokens only.
  TORCH_ARG(Positions, positions) = Positions::kLearned;
};

/// Token embedding plus learned position embedding (DLwP's PositionalEmbedding layer). Like
/// the book's Keras layer, the sum is not scaled by √D.
class PositionalEmbeddingImpl : public torch::nn::Module {
 public:
  explicit PositionalEmbeddingImpl(const PositionalEmbeddingOptions& options);
  /// ids [B,L] int64 at positions offset..offset+L-1 → [B,L,D]. Throws when a position lies
  /// beyond the table.
  torch::Tensor forward(const torch::Tensor& ids, int64_t offset = 0);

  PositionalEmbeddingOptions options;
  torch::nn::Embedding tokens{nullptr};
  torch::nn::Embedding positions{nullptr};  ///< null with Positions::kNone
};
TORCH_MODULE(PositionalEmbedding);

struct FeedForwardOptions {
  FeedForwardOptions(int64_t d_model, int64_t d_ff) : d_model_(d_model), d_ff_(d_ff) {}
  /// Input and output width D.
  TORCH_ARG(int64_t, d_model);
  /// Inner width.
  TORCH_ARG(int64_t, d_ff);
};

/// Position-wise feed-forward: linear2(relu(linear1(x))).
class FeedForwardImpl : public torch::nn::Module {
 public:
  explicit FeedForwardImpl(const FeedForwardOptions& options);
  /// [..., D] → [..., D]
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear linear1{nullptr}, linear2{nullptr};
};
TORCH_MODULE(FeedForward);

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

/// Source embedding and the stack of encoder blocks.
class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const ModelOptions& options);
  /// src [B,S] int64, src_keep [B,S] bool → memory [B,S,D]
  torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& src_keep);

  PositionalEmbedding embed{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm final_norm{nullptr};  ///< pre-norm only
};
TORCH_MODULE(Encoder);

/// Target embedding and the stack of decoder blocks.
class DecoderImpl : public torch::nn::Module {
 public:
  explicit DecoderImpl(const ModelOptions& options);
  /// Whole-sequence pass: tgt [B,T] int64 with tgt_keep [B,T] bool (undefined: no padding)
  /// over memory [B,S,D] → hidden [B,T,D]. When `cross_weights` is not null it receives one
  /// [B,H,T,S] tensor per layer.
  torch::Tensor forward(const torch::Tensor& tgt, const torch::Tensor& tgt_keep,
                        const torch::Tensor& memory, const torch::Tensor& src_keep,
                        std::vector<torch::Tensor>* cross_weights = nullptr);
  /// One cached step: tokens [B] at position state.step → hidden [B,D]; updates the caches
  /// (and state.cross_attention when recording). Does not advance state.step.
  torch::Tensor step(DecoderState& state, const torch::Tensor& tokens);

  PositionalEmbedding embed{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm final_norm{nullptr};  ///< pre-norm only
};
TORCH_MODULE(Decoder);

/// The translation model, built from ModelOptions (pad id 0 in source and target).
class Seq2SeqImpl : public torch::nn::Module {
 public:
  explicit Seq2SeqImpl(const ModelOptions& options);

  /// Teacher forcing: src [B,S], tgt_in [B,T] (int64, pad 0) → logits [B,T,V].
  torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& tgt_in);
  /// src [B,S] int64 (pad 0) → memory and source keep mask.
  EncoderOutput encode(const torch::Tensor& src);
  /// Decoder hidden states for tgt_in [B,T] (pad 0) → [B,T,D], before the vocabulary
  /// projection, so that callers can project only the positions they need.
  torch::Tensor decode_hidden(const EncoderOutput& encoded, const torch::Tensor& tgt_in);
  /// Vocabulary projection (after output dropout): hidden [..., D] → scores [..., V]: logits,
  /// or log-probabilities with the adaptive softmax (log_softmax leaves those unchanged).
  torch::Tensor project(const torch::Tensor& hidden);
  /// Training/evaluation terms at positions hidden [N,D] with targets [N] (after output
  /// dropout); the adaptive softmax runs its tails only where needed, except for `predicted`
  /// (`predict = false` leaves it undefined there).
  OutputTerms output_terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                           bool predict = true);
  /// Decoding state for `encoded`; with the cache, cross-attention keys/values are computed
  /// here once per layer.
  DecoderState start(const EncoderOutput& encoded, const DecodeOptions& options = {});
  /// Feeds last_tokens [B] at position state.step and returns the next-token logits [B,V].
  /// Cached and uncached states give the same logits.
  torch::Tensor decode_step(DecoderState& state, const torch::Tensor& last_tokens);

  const ModelOptions& options() const { return options_; }

  Encoder encoder{nullptr};
  Decoder decoder{nullptr};
  torch::nn::Linear out_proj{nullptr};  ///< untied output projection
  AdaptiveSoftmax adaptive{nullptr};    ///< adaptive softmax (model.adaptive_cutoffs)
  torch::Tensor out_bias;               ///< output bias when tied to the target embedding

 private:
  ModelOptions options_;
};
TORCH_MODULE(Seq2Seq);

/// Parameter count of a module (all parameters, trainable or not).
int64_t count_parameters(const torch::nn::Module& module);

}  // namespace atento::model
