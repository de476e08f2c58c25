#pragma once
// Greedy decoding on CPU cores the way atento-serve does it, for atento-serve and the batch job
// of atento-translate alike: one single-threaded worker per decoder thread, each keeping its
// own continuous batch (model::GreedyStream) full: sentences join between decoding steps and
// leave as soon as they end. The small products of a decoding step gain little from a second
// intra-op thread (its threads wait for each other between them), while a second batch decoded
// beside the first gains almost twice; and no row waits for the longest sentence of its batch.

#include <torch/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/model_dir/model_dir.h"
#include "model/search.h"

namespace atento {

/// How the decoder threads are spent: `workers` batches decoded at once, each on `per_worker`
/// intra-op threads.
struct DecoderThreads {
  size_t workers = 1;
  int64_t per_worker = 1;
};

/// `threads` decoder threads in all (as translate.threads: 0 = every core) as `workers` workers
/// (0: on a CPU one single-threaded worker per thread, on a GPU one worker).
DecoderThreads decoder_threads(int64_t threads, size_t workers, const torch::Device& device);

/// Whether decode_greedy() decodes what `search` asks for: greedy, with the KV cache, without
/// recorded attention or a forced length.
bool greedy_streamable(const model::SearchOptions& search);

/// The greedy hypothesis of each of `sources` (token ids, at least one each; in input order,
/// one hypothesis per source), decoded by `threads.workers` worker threads of
/// `threads.per_worker` intra-op threads, each with at most `rows` sentences in its running
/// batch. Workers take the sources longest first as rows free up, so that they end together.
/// Decodes under translate.precision; an exception on a worker is rethrown here once all ended.
std::vector<std::vector<model::Hypothesis>> decode_greedy(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, size_t rows, DecoderThreads threads);

}  // namespace atento
