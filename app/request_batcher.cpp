#include "app/request_batcher.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace atento {

namespace {

bool same_search(const TranslationJob& a, const TranslationJob& b) {
  return a.beam == b.beam && a.n_best == b.n_best;
}

}  // namespace

RequestBatcher::RequestBatcher(BatchTranslator translate, BatcherOptions options)
    : translate_(std::move(translate)), options_(options) {
  options_.max_batch = std::max<size_t>(1, options_.max_batch);
  options_.workers = std::max<size_t>(1, options_.workers);
  for (size_t i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { work(); });
}

RequestBatcher::~RequestBatcher() { stop(); }

std::vector<std::future<TranslationResult>> RequestBatcher::submit(
    std::vector<TranslationJob> jobs) {
  std::vector<std::future<TranslationResult>> futures;
  futures.reserve(jobs.size());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw QueueFull("the server is shutting down");
    if (queue_.size() + jobs.size() > options_.max_queued) {
      throw QueueFull("the server is busy: " + std::to_string(queue_.size()) +
                      " sentences are queued (limit " + std::to_string(options_.max_queued) +
                      "); try again shortly");
    }
    auto now = std::chrono::steady_clock::now();
    for (auto& job : jobs) {
      queue_.push_back(Pending{std::move(job), {}, now});
      futures.push_back(queue_.back().promise.get_future());
    }
  }
  wake_.notify_all();  // a waiting worker may now have a full batch
  return futures;
}

void RequestBatcher::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

size_t RequestBatcher::batches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return batches_;
}

size_t RequestBatcher::largest_batch() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return largest_batch_;
}

size_t RequestBatcher::matching_front() const {
  size_t n = 0;
  for (const auto& p : queue_) n += same_search(p.job, queue_.front().job) ? 1 : 0;
  return n;
}

std::vector<RequestBatcher::Pending> RequestBatcher::next_batch(
    std::unique_lock<std::mutex>& lock) {
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return {};  // stopping, nothing left
    // The oldest sentence waits at most max_wait (from its arrival) for others to join it.
    const auto deadline = queue_.front().queued + options_.max_wait;
    const bool full = wake_.wait_until(lock, deadline, [&] {
      return stopping_ || queue_.empty() || matching_front() >= options_.max_batch;
    });
    if (queue_.empty()) continue;  // another worker took it
    // A newer sentence at the front (another worker took the older ones) gets its own wait.
    if (full || std::chrono::steady_clock::now() >= queue_.front().queued + options_.max_wait) {
      break;
    }
  }
  std::vector<Pending> batch;
  const TranslationJob first = queue_.front().job;
  for (auto it = queue_.begin(); it != queue_.end() && batch.size() < options_.max_batch;) {
    if (same_search(it->job, first)) {
      batch.push_back(std::move(*it));
      it = queue_.erase(it);
    } else {
      ++it;
    }
  }
  ++batches_;
  largest_batch_ = std::max(largest_batch_, batch.size());
  return batch;
}

void RequestBatcher::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    auto batch = next_batch(lock);
    if (batch.empty()) return;
    lock.unlock();
    std::vector<TranslationJob> jobs;
    jobs.reserve(batch.size());
    for (auto& p : batch) jobs.push_back(std::move(p.job));
    try {
      auto results = translate_(jobs);
      if (results.size() != batch.size()) {
        throw std::logic_error("the translator returned " + std::to_string(results.size()) +
                               " results for " + std::to_string(batch.size()) + " sentences");
      }
      for (size_t i = 0; i < batch.size(); ++i) batch[i].promise.set_value(std::move(results[i]));
    } catch (...) {
      auto error = std::current_exception();
      for (auto& p : batch) {
        try {
          p.promise.set_exception(error);
        } catch (const std::future_error&) {  // already satisfied before the throw
        }
      }
    }
    lock.lock();
  }
}

}  // namespace atento
