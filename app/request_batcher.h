#pragma once
// The batching queue of atento-serve: HTTP threads submit sentences and wait on futures; worker
// threads (the only ones that touch the model) each take what has arrived together, up to a
// bounded batch after a bounded wait, and decode it as one batch. Several workers decode
// different batches at once.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
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

struct BatcherOptions {
  /// Most sentences decoded together.
  size_t max_batch = 32;
  /// Longest time the oldest queued sentence waits for others to join its batch.
  std::chrono::microseconds max_wait{2000};
  /// Most sentences queued and not yet taken by a worker; more are refused (QueueFull).
  size_t max_queued = 1024;
  /// Worker threads, each decoding its own batch.
  size_t workers = 1;
};

/// submit() when the queue cannot take the request's sentences (or the batcher is stopping).
class QueueFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RequestBatcher {
 public:
  /// Starts the worker threads.
  RequestBatcher(BatchTranslator translate, BatcherOptions options);
  /// stop(), then joins the workers.
  ~RequestBatcher();
  RequestBatcher(const RequestBatcher&) = delete;
  RequestBatcher& operator=(const RequestBatcher&) = delete;

  /// Queues every job of one request (all or none); one future per job, in order. A batch
  /// that throws sets that exception in each of its futures. Throws QueueFull.
  std::vector<std::future<TranslationResult>> submit(std::vector<TranslationJob> jobs);

  /// Refuses new work, finishes what is queued, and returns when every worker has ended.
  void stop();

  /// Batches decoded so far, and the largest one.
  size_t batches() const;
  size_t largest_batch() const;

 private:
  struct Pending {
    TranslationJob job;
    std::promise<TranslationResult> promise;
    std::chrono::steady_clock::time_point queued;
  };

  void work();
  /// Waits for work; moves the next batch out of the queue (empty when stopping and drained).
  std::vector<Pending> next_batch(std::unique_lock<std::mutex>& lock);
  /// Queued jobs that share the first job's search settings.
  size_t matching_front() const;

  BatchTranslator translate_;
  BatcherOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  size_t batches_ = 0;
  size_t largest_batch_ = 0;
  std::vector<std::thread> workers_;
};

}  // namespace atento
