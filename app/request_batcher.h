#pragma once
// The batching queue of atento-serve: HTTP threads submit sentences and wait on futures; one
// worker thread (the only one that touches the model) takes what has arrived together, up to
// a bounded batch after a bounded wait, and decodes it as one batch.

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
/// job, in order. Called on the worker thread only.
using BatchTranslator =
    std::function<std::vector<TranslationResult>(const std::vector<TranslationJob>&)>;

struct BatcherOptions {
  /// Most sentences decoded together.
  size_t max_batch = 32;
  /// Longest time the oldest queued sentence waits for others to join its batch.
  std::chrono::microseconds max_wait{2000};
  /// Most sentences queued and not yet taken by the worker; more are refused (QueueFull).
  size_t max_queued = 1024;
};

/// submit() when the queue cannot take the request's sentences (or the batcher is stopping).
class QueueFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RequestBatcher {
 public:
  /// Starts the worker thread.
  RequestBatcher(BatchTranslator translate, BatcherOptions options);
  /// stop(), then joins the worker.
  ~RequestBatcher();
  RequestBatcher(const RequestBatcher&) = delete;
  RequestBatcher& operator=(const RequestBatcher&) = delete;

  /// Queues every job of one request (all or none); one future per job, in order. A batch
  /// that throws sets that exception in each of its futures. Throws QueueFull.
  std::vector<std::future<TranslationResult>> submit(std::vector<TranslationJob> jobs);

  /// Refuses new work, finishes what is queued, and returns when the worker has ended.
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
  std::thread worker_;
};

}  // namespace atento
