#pragma once
// Greedy decoding with continuous batching (iteration-level scheduling, Yu et al. 2022, Orca):
// sentences join the running batch at any step and leave it when they end, so the batch stays
// full and a sentence waits for its own length, not for the longest sentence decoded beside it.
// Rows sit at different positions: each row reads its own position embedding and attends only
// the cache columns written since it joined (a per-row mask). Each sentence gets what
// greedy_search gives it (up to the rounding of sums over a different padding).
// Shape legend: B rows (slots), S source length, K attended cache columns, V vocab.

#include <torch/types.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "model/decoder_state.h"
#include "model/search.h"
#include "model/seq2seq.h"

namespace atento::model {

class GreedyStream {
 public:
  /// `options` as for greedy_search (beam and n_best ignored); record_attention and force_len
  /// are not supported. The model must stay alive and unchanged while the stream is used.
  GreedyStream(Seq2Seq model, const SearchOptions& options);

  /// Encodes `sources` (token ids without padding, at least one each) and adds them to the
  /// batch; the next step() feeds them the start token. `tags` name them in step()'s results.
  void add(const std::vector<std::vector<int64_t>>& sources, const std::vector<uint64_t>& tags);

  /// Decodes one token of every sentence in the batch; returns those that ended (eos or their
  /// length limit) with their hypothesis, in slot order.
  std::vector<std::pair<uint64_t, Hypothesis>> step();

  /// Sentences in the batch.
  size_t active() const { return active_; }

 private:
  // One slot of the batch.
  struct Row {
    bool used = false;
    uint64_t tag = 0;
    int64_t start = 0;   ///< cache column of the row's first (start) token
    int64_t limit = 0;   ///< most output tokens, eos included
    int64_t last = 0;    ///< token fed at the next step
    float log_prob = 0;  ///< summed, in float like greedy_search
    std::vector<int64_t> tokens;
  };

  /// New rows' cross-attention keys/values and source mask, padded to a common width.
  void place(DecoderState joined, const std::vector<int64_t>& slots);
  /// Widens the source axis of every row to `width` columns (padding masked).
  void widen_sources(int64_t width);
  /// Free slots for `count` new rows, growing the batch where needed.
  std::vector<int64_t> take_slots(size_t count);
  /// The oldest column any row attends.
  int64_t oldest_start() const;
  /// Decoder input of one step: tokens, positions, and the per-row mask over the columns.
  void prepare_step(torch::Tensor& tokens, torch::Tensor& positions, torch::Tensor& self_keep);
  /// Drops the columns no row attends when the cache buffers are full.
  void reclaim_columns(int64_t first);
  /// Keeps only the used rows once half the batch is free (or empties it).
  void shrink();

  Seq2Seq model_;
  SearchOptions options_;
  torch::Device device_;
  torch::Tensor forbidden_;         ///< token ids never emitted
  std::vector<LayerCache> caches_;  ///< per decoder layer, [B,...]
  torch::Tensor src_keep_;          ///< [B,S] bool
  std::vector<Row> rows_;
  size_t active_ = 0;
  int64_t column_ = 0;  ///< cache column the next step writes
};

}  // namespace atento::model
