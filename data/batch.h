#pragma once
// Batching: padding, keep-masks, teacher-forcing shift, length buckets under a token budget.

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "data/example.h"
#include "data/options.h"

namespace atento::data {

/// A padded batch (pad id 0). Shapes: B sentences, S source length, T decoder length.
struct Batch {
  at::Tensor src;                ///< [B,S] int64
  at::Tensor src_keep;           ///< [B,S] bool, true = real token
  at::Tensor tgt_in;             ///< [B,T] int64, target without its last token ([bos] w1 … wn)
  at::Tensor tgt_out;            ///< [B,T] int64, target without its first token (w1 … wn [eos])
  at::Tensor tgt_keep;           ///< [B,T] bool, true = real position of tgt_out
  int64_t target_tokens = 0;     ///< number of true entries in tgt_keep
  std::vector<int64_t> indices;  ///< positions of these examples in the input vector
};

/// Pads the selected examples into one batch (pad to the longest in the batch). S and T are at
/// least 1: an empty source becomes an all-padding row. Throws std::invalid_argument for an
/// empty selection, an index out of range or a target shorter than [bos] [eos].
Batch collate(const std::vector<Example>& examples, const std::vector<int64_t>& indices);

/// `batch` padded to `rows` × `src_len` (source) and `rows` × `tgt_len` (target) with padding
/// rows and positions (id 0, keep false): a fixed shape for a batch of varying size (a CUDA
/// graph's buffers). target_tokens and indices are kept. Throws std::invalid_argument when
/// the batch is larger than the shape in any dimension.
Batch pad_batch(const Batch& batch, int64_t rows, int64_t src_len, int64_t tgt_len);

/// Rank `rank`'s part of a batch shared by `world` data-parallel ranks: a contiguous slice,
/// sizes differing by at most one (empty when the batch has fewer examples than ranks).
std::vector<int64_t> shard(const std::vector<int64_t>& indices, int64_t rank, int64_t world);

/// Target positions the selected examples contribute to the loss (Batch::target_tokens of
/// their collated batch), computed without collating.
int64_t target_tokens(const std::vector<Example>& examples, const std::vector<int64_t>& indices);

/// Groups example indices into batches: by `batch_size` sentences, or under the token
/// budget `batch_tokens` (padded max(S, T) × B). With bucketing, examples are sorted by
/// length within large seeded-shuffled windows, then the batch order is shuffled; with
/// `seed` and `epoch` equal the result is identical. `shuffle` false keeps input order
/// (evaluation; no bucketing either). An example longer than the budget gets a batch of its own.
std::vector<std::vector<int64_t>> make_batches(const std::vector<Example>& examples,
                                               const BatchOptions& options, uint64_t seed,
                                               int64_t epoch, bool shuffle);

}  // namespace atento::data
