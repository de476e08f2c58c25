#pragma once
// Greedy decoding in fixed shapes, for CUDA graphs (translate.cuda_graphs). The small models
// are launch-bound on a GPU: a decoding step is some hundred short kernels. Here rows never
// leave the batch (a row that has ended decodes padding, its result ignored), the
// self-attention caches have a fixed capacity and are written at a position held on the
// device and masked beyond it, and each step writes its tokens, scores and ends into device
// buffers. A step therefore reads nothing on the host and has the same shapes every time: it
// can be captured once per batch shape and replayed (app/translate/greedy_graphs.h). On the
// CPU the same steps run eagerly, which is what the tests compare with greedy_search.
// Shape legend: R rows, S source length, C capacity (output steps), H heads, Dh head dim.

#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "model/decoder_state.h"
#include "model/search.h"
#include "model/seq2seq.h"

namespace atento::model {

/// The device buffers of fixed-shape greedy decoding.
struct StaticGreedy {
  /// Per decoder layer: self_k/self_v [R,H,C,Dh] written at `step` (write_position),
  /// cross_k/cross_v [R,H,S,Dh]; allocated by the first load.
  std::vector<LayerCache> layers;
  torch::Tensor cross_keep;  ///< [R,1,1,S] bool: real source tokens
  torch::Tensor columns;     ///< [C] int64: 0..C-1, for the self-attention mask
  torch::Tensor step;        ///< [1] int64: the position decoded next
  torch::Tensor last;        ///< [R] int64: the tokens fed next
  torch::Tensor limit;       ///< [R] int64: most output steps per row (eos included)
  torch::Tensor done;        ///< [R] bool: ended (eos or limit), or a row without a sentence
  torch::Tensor tokens;      ///< [R,C] int64: each step's token, padding once a row ended
  torch::Tensor generated;   ///< [R] int64: steps a row took, eos included
  torch::Tensor scores;      ///< [R] float: summed log-probabilities of those steps
  torch::Tensor forbidden;   ///< [F] int64: token ids never emitted (forbidden_tokens)
  SearchOptions options;

  int64_t rows() const { return last.size(0); }
  int64_t src_len() const { return cross_keep.size(3); }
  int64_t capacity() const { return columns.size(0); }
};

/// Buffers on `device` for up to `rows` sentences of up to `src_len` source tokens, decoded
/// for at most `capacity` steps (1..max_len). Throws c10::Error for options greedy_search
/// refuses, and for record_attention or use_cache off (not in this form).
StaticGreedy make_static_greedy(const Seq2Seq& model, int64_t rows, int64_t src_len,
                                int64_t capacity, const SearchOptions& options,
                                const torch::Device& device);

/// Encodes src [B,S] (B ≤ rows, S ≤ src_len; int64, padding kPadId) into the buffers and
/// starts them over: rows from B on are done from the start. Eager, reads the device; never
/// part of a graph. Throws c10::Error when src does not fit or a sentence's output limit
/// exceeds the capacity.
void load_static_greedy(Seq2Seq& model, StaticGreedy& state, const torch::Tensor& src);

/// One greedy step on the buffers, in place: no host reads of device values, no shapes that
/// change. The caller runs at most capacity() steps after a load.
void static_greedy_step(Seq2Seq& model, StaticGreedy& state);

/// Whether every row has ended (reads the device).
bool static_greedy_done(const StaticGreedy& state);

/// The hypotheses of the first `sentences` rows, as greedy_search gives them (one each).
std::vector<std::vector<Hypothesis>> static_greedy_results(const StaticGreedy& state,
                                                           int64_t sentences);

/// greedy_search in the fixed form, eagerly: buffers sized to src [B,S], steps until every
/// row has ended. Same hypotheses as greedy_search, scores within rounding.
std::vector<std::vector<Hypothesis>> static_greedy_search(Seq2Seq& model, const torch::Tensor& src,
                                                          const SearchOptions& options);

}  // namespace atento::model
