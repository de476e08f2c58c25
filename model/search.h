#pragma once
// Translation search over a Seq2Seq model: greedy and batched beam search with length
// normalisation (Wu et al. 2016, §7, simplified to score / len^alpha). The search lives apart
// from the model and drives it only through encode/start/decode_step/DecoderState::reorder.
// Shape legend: B batch, S source length, K beam, V vocab, L decoder layers, H heads.

#include <torch/types.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "model/seq2seq.h"

namespace atento::model {

struct SearchOptions {
  /// Beam width K; 1 = greedy.
  int64_t beam = 4;
  /// Length normalisation alpha: a hypothesis scores log P / len^alpha (0 = raw log-prob).
  double length_penalty = 0.6;
  /// Hypotheses returned per sentence, 1..beam.
  int64_t n_best = 1;
  /// Output tokens (eos included) per sentence are at most
  /// min(model max_len, floor(max_len_ratio * source length + max_len_extra)).
  double max_len_ratio = 1.5;
  /// See max_len_ratio.
  int64_t max_len_extra = 5;
  /// Decode with the KV cache; otherwise recompute the decoder over the prefix at each step.
  bool use_cache = true;
  /// Fill Hypothesis::attention with the cross-attention weights.
  bool record_attention = false;
  /// Start token fed first; required (-1 = unset).
  int64_t bos_id = -1;
  /// End token; required (-1 = unset).
  int64_t eos_id = -1;
  /// If > 0: ignore eos and decode exactly this many tokens (benchmarks).
  int64_t force_len = 0;
};

struct Hypothesis {
  /// Output tokens without bos/eos.
  std::vector<int64_t> tokens;
  /// Length-normalised log-probability: sum of log P / len^alpha, len counting eos.
  double score = 0.0;
  /// When recorded: one [H,len,S] tensor per decoder layer (CPU), row i = cross attention of
  /// the step that produced output token i (len counts eos), S = real source length.
  std::vector<torch::Tensor> attention;
};

/// Throws c10::Error unless src is [B,S] int64 and the options are in range (bos and eos
/// target tokens other than padding, 1 <= n_best <= beam, force_len within max_len).
void check_search_options(const ModelOptions& arch, const torch::Tensor& src,
                          const SearchOptions& options);

/// Most output tokens (eos included) for a source of `src_len` real tokens:
/// options.force_len when set, else min(max_len, floor(max_len_ratio · src_len) +
/// max_len_extra), at least 1.
int64_t output_limit(const ModelOptions& arch, int64_t src_len, const SearchOptions& options);

/// Token ids a search never emits: padding, the start token (unless it is also the end
/// token), and the end token when force_len is set.
std::vector<int64_t> forbidden_tokens(const SearchOptions& options);

/// The log-probability a forbidden token is given: never chosen.
inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// `ids` as an int64 tensor [N] on `device`.
torch::Tensor ids_on(const std::vector<int64_t>& ids, const torch::Device& device);

/// A hypothesis' score: log_prob / generated^length_penalty (generated counts eos).
double normalised_score(double log_prob, int64_t generated, double length_penalty);

/// Translates src [B,S] (int64, pad 0): for each sentence, min(n_best, …) hypotheses sorted by
/// score, best first. Greedy when options.beam == 1, beam search otherwise. Runs without
/// gradients in eval mode and restores the model's previous mode.
std::vector<std::vector<Hypothesis>> translate_batch(Seq2Seq& model, const torch::Tensor& src,
                                                     const SearchOptions& options);

/// Greedy search (argmax each step); finished sentences leave the batch. options.beam and
/// options.n_best are ignored (one hypothesis per sentence).
std::vector<std::vector<Hypothesis>> greedy_search(Seq2Seq& model, const torch::Tensor& src,
                                                   const SearchOptions& options);

/// Batched beam search over B·K rows: top-2K candidates over K·V per sentence, eos candidates
/// among the best K finish (normalised then), a sentence stops with K finished hypotheses or
/// at its length limit. With options.beam == 1 it returns exactly what greedy_search returns.
std::vector<std::vector<Hypothesis>> beam_search(Seq2Seq& model, const torch::Tensor& src,
                                                 const SearchOptions& options);

}  // namespace atento::model
