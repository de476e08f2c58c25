#pragma once
// Greedy decoding on CPU cores the way atento-serve does it, for atento-serve and the batch job
// of atento-translate alike: one single-threaded worker per decoder thread, each keeping its
// own continuous batch (model::GreedyStream) full: sentences join between decoding steps and
// leave as soon as they end. The small products of a decoding step gain little from a second
// intra-op thread (its threads wait for each other between them), while a second batch decoded
// beside the first gains almost twice; and no row waits for the longest sentence of its batch.

#include <torch/types.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
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

/// Greedy workers that outlive a batch of sources: atento-translate hands them one window of
/// lines after another, and the workers run from one window into the next without waiting for
/// the slowest sentence of the first, while the caller reads, encodes and writes beside them.
/// `threads.workers` worker threads of `threads.per_worker` intra-op threads, each keeping at
/// most `rows` sentences in its running batch, take queued sources in order; decodes under
/// translate.precision.
class GreedyPool {
 public:
  GreedyPool(TrainedModel& trained, const model::SearchOptions& search, size_t rows,
             DecoderThreads threads);
  /// Stops the workers (what is still queued is dropped) and joins them.
  ~GreedyPool();
  GreedyPool(const GreedyPool&) = delete;
  GreedyPool& operator=(const GreedyPool&) = delete;

  /// Queues `sources` (token ids, at least one each) longest first behind what is queued;
  /// returns the batch's ticket for collect().
  size_t submit(const std::vector<std::vector<int64_t>>& sources);

  /// Waits until every source of batch `ticket` is decoded and returns its hypotheses (input
  /// order, one each); the pool then forgets the batch. Rethrows a worker's exception (after
  /// which the pool decodes nothing more).
  std::vector<std::vector<model::Hypothesis>> collect(size_t ticket);

 private:
  struct Batch {
    std::vector<std::vector<int64_t>> sources;
    std::vector<std::vector<model::Hypothesis>> results;
    size_t left = 0;  ///< sources not yet decoded
  };
  /// A queued source: its batch and its index there (a GreedyStream tag: ticket << 32 | index).
  using Tag = uint64_t;

  void work(int64_t intra_op_threads);
  /// Under the lock: up to `free_rows` queued sources for a worker, a short queue shared evenly.
  std::vector<Tag> take(size_t free_rows);
  void fail(std::exception_ptr error);

  TrainedModel& trained_;
  const model::SearchOptions search_;
  const size_t rows_;
  const size_t workers_;
  std::mutex mutex_;
  std::condition_variable queued_;   ///< a source was queued, or the pool stops
  std::condition_variable decoded_;  ///< a batch was finished, or a worker failed
  std::deque<Tag> queue_;
  std::map<size_t, Batch> batches_;  ///< by ticket; nodes stay put while others come and go
  size_t next_ticket_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
};

/// The greedy hypothesis of each of `sources` (token ids, at least one each; in input order,
/// one hypothesis per source), decoded by `threads.workers` worker threads of
/// `threads.per_worker` intra-op threads, each with at most `rows` sentences in its running
/// batch (a GreedyPool for one batch). Workers take the sources longest first as rows free up,
/// so that they end together. Decodes under translate.precision; an exception on a worker is
/// rethrown here once all ended.
std::vector<std::vector<model::Hypothesis>> decode_greedy(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, size_t rows, DecoderThreads threads);

}  // namespace atento
