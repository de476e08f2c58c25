#pragma once
// The explicit state of step-by-step decoding: per-layer key/value caches, the source mask and
// the prefix fed so far. The model itself stays immutable during generation.
// Shape legend: B batch (decoded rows), S source length, D d_model, H heads, Dh head dim.

#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace atento::model {

/// Per-layer cache of one decoder block. Self-attention keys/values live in buffers with room
/// to spare (capacity doubles when full), so a step writes one position instead of copying
/// the whole cache.
struct LayerCache {
  torch::Tensor self_k, self_v;  ///< [B,H,capacity,Dh]; positions [0, length) are filled
  int64_t length = 0;            ///< positions cached so far
  /// Oldest column attended: keys()/values() span [first, length). Stays 0 except in
  /// continuous batching, where rows start at different columns.
  int64_t first = 0;
  torch::Tensor cross_k, cross_v;  ///< [B,H,S,Dh], computed once from the encoder output
  /// Fixed shape (CUDA graphs, model/static_greedy.h): when defined, [1] int64 on the
  /// buffers' device, the position that append writes (T = 1) without growing or counting;
  /// keys()/values() are then the whole buffers, and the caller masks the columns not
  /// written yet.
  torch::Tensor write_position;
  /// Writes k, v [B,H,T,Dh] at positions length..length+T-1, growing the buffers if needed
  /// (or at write_position, which see).
  void append(const torch::Tensor& k, const torch::Tensor& v);
  /// Moves columns [column, length) to the front of the buffers (continuous batching reclaims
  /// the columns no row attends any more); length and first drop by `column`.
  void keep_from(int64_t column);
  /// Columns the buffers hold; 0 before the first append.
  int64_t capacity() const { return self_k.defined() ? self_k.size(2) : 0; }
  /// Cached keys [B,H,length-first,Dh] (a view of the buffer; all of it with write_position).
  torch::Tensor keys() const {
    return write_position.defined() ? self_k : self_k.narrow(2, first, length - first);
  }
  /// Cached values [B,H,length-first,Dh] (as keys()).
  torch::Tensor values() const {
    return write_position.defined() ? self_v : self_v.narrow(2, first, length - first);
  }
};

/// Explicit decoding state. A copy shares the cache buffers with the original, which
/// decode_step writes in place: branch with reorder, which gathers rows into new buffers.
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
  /// reorder() for a state no copy shares (the searches'), skipping what would not change:
  /// nothing at all for indices 0..B-1 (greedy steps where no sentence ended), and with
  /// `same_sources` (row j's new contents come from a row decoding the same source sentence as
  /// row j: beams reordered within their sentences) the per-source tensors, src_keep, memory
  /// and the cross-attention keys and values, which are the same in those rows.
  void reorder_own(const torch::Tensor& indices, bool same_sources);
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

}  // namespace atento::model
