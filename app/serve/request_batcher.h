#pragma once
// The batching queue of atento-serve: HTTP threads submit sentences and wait on futures; worker
// threads (the only ones that touch the model) each take what has arrived together, up to a
// bounded batch after a bounded wait, and decode it as one batch. Several workers decode
// different batches at once. With a StepDecoder, greedy sentences are decoded with continuous
// batching instead: they join a worker's running batch between two decoding steps and leave
// it as soon as they end.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace atento {

/// One sentence to translate, with the search settings it asks for. Sentences of one batch
/// always share beam and n_best.
struct TranslationJob {
  std::string text;
  int64_t beam = 1;
  int64_t n_best = 1;
};

/// The n_best translations of one job, best first.
using TranslationResult = std::vector<std::string>;

/// Translates one batch (every job with the same beam and n_best); returns one result per
/// job, in order. Called on the worker threads only, by several at once when there are.
using BatchTranslator =
    std::function<std::vector<TranslationResult>(const std::vector<TranslationJob>&)>;

/// Continuous batching on one worker, for jobs with beam 1 and n_best 1: jobs join the running
/// batch between steps and leave it when they end. Used by one worker thread only.
class StepDecoder {
 public:
  virtual ~StepDecoder() = default;
  /// Adds `jobs` to the running batch, known by `tags` from then on.
  virtual void join(const std::vector<TranslationJob>& jobs, const std::vector<uint64_t>& tags) = 0;
  /// Decodes one step of every job in the batch; returns the jobs that ended, with results.
  virtual std::vector<std::pair<uint64_t, TranslationResult>> step() = 0;
  /// Jobs in the running batch.
  virtual size_t active() const = 0;
};

/// Makes each worker's StepDecoder, on that worker's thread.
using StepDecoderFactory = std::function<std::unique_ptr<StepDecoder>()>;

struct BatcherOptions {
  /// Most sentences decoded together.
  size_t max_batch = 32;
  /// Longest time the oldest queued sentence waits for others to join its batch.
  std::chrono::microseconds max_wait{2000};
  /// Most sentences queued and not yet taken by a worker; more are refused (QueueFull).
  size_t max_queued = 1024;
  /// Worker threads, each decoding its own batch.
  size_t workers = 1;
  /// Called (on a worker, without the lock) with the size of every batch or step decoded, e.g.
  /// for the metrics' histogram; may be empty.
  std::function<void(size_t)> on_batch;
};

/// submit() when the queue cannot take the request's sentences (or the batcher is stopping).
class QueueFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RequestBatcher {
 public:
  /// Starts the worker threads. With `make_step_decoder`, jobs of beam 1 and n_best 1 are
  /// decoded by continuous batching, at most max_batch at once per worker.
  RequestBatcher(BatchTranslator translate, BatcherOptions options,
                 StepDecoderFactory make_step_decoder = nullptr);
  /// stop(), then joins the workers.
  ~RequestBatcher();
  RequestBatcher(const RequestBatcher&) = delete;
  RequestBatcher& operator=(const RequestBatcher&) = delete;

  /// Queues every job of one request (all or none); one future per job, in order. A batch
  /// that throws sets that exception in each of its futures. Throws QueueFull.
  std::vector<std::future<TranslationResult>> submit(std::vector<TranslationJob> jobs);

  /// Refuses new work, finishes what is queued, and returns when every worker has ended.
  void stop();

  /// Batches decoded so far (with continuous batching: decoding steps), and the largest one.
  size_t batches() const;
  size_t largest_batch() const;
  /// Sentences queued and not yet taken by a worker.
  size_t queued() const;

 private:
  struct Pending {
    TranslationJob job;
    std::promise<TranslationResult> promise;
    std::chrono::steady_clock::time_point queued;
  };

  // A worker's continuous batch: its decoder and the promises of the jobs in it.
  struct Stream {
    std::unique_ptr<StepDecoder> decoder;
    std::map<uint64_t, std::promise<TranslationResult>> running;
    uint64_t next_tag = 0;
  };

  void work();
  /// Waits for work; moves the next batch out of the queue (empty when stopping and drained).
  std::vector<Pending> next_batch(std::unique_lock<std::mutex>& lock);
  /// Decodes one batch as a whole and fulfils its promises.
  void decode_batch(std::vector<Pending> batch);
  /// Queued jobs at the front that a StepDecoder takes, at most `room`; none while another
  /// worker waits for work.
  std::vector<Pending> take_streamable(size_t room);
  /// Adds `joining` to the stream, decodes one step and fulfils the promises of the jobs that
  /// ended; on an exception, fails every job in the stream and starts a new decoder.
  void stream_step(Stream& stream, std::vector<Pending> joining);
  /// A new StepDecoder; none without a factory or when it throws.
  std::unique_ptr<StepDecoder> make_decoder() const;
  /// Counts one decoded batch (or step) of `size` sentences.
  void count_batch(size_t size);
  /// Queued jobs that share the first job's search settings.
  size_t matching_front() const;

  BatchTranslator translate_;
  BatcherOptions options_;
  StepDecoderFactory make_step_decoder_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  size_t batches_ = 0;
  size_t largest_batch_ = 0;
  /// Workers waiting for work (in next_batch).
  size_t idle_ = 0;
  std::vector<std::thread> workers_;
};

}  // namespace atento
