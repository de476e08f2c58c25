#include "app/serve/request_batcher.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace atento {

namespace {

bool same_search(const TranslationJob& a, const TranslationJob& b) {
  return a.beam == b.beam && a.n_best == b.n_best;
}

bool streamable(const TranslationJob& job) { return job.beam == 1 && job.n_best == 1; }

}  // namespace

RequestBatcher::RequestBatcher(BatchTranslator translate, BatcherOptions options,
                               StepDecoderFactory make_step_decoder)
    : translate_(std::move(translate)),
      options_(options),
      make_step_decoder_(std::move(make_step_decoder)) {
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

size_t RequestBatcher::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
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
  return batch;
}

void RequestBatcher::count_batch(size_t size) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++batches_;
    largest_batch_ = std::max(largest_batch_, size);
  }
  if (options_.on_batch) options_.on_batch(size);
}

void RequestBatcher::decode_batch(std::vector<Pending> batch) {
  count_batch(batch.size());
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
}

std::vector<RequestBatcher::Pending> RequestBatcher::take_streamable(size_t room) {
  std::vector<Pending> taken;
  // A worker waiting for work starts its own batch: two half batches decode faster than one
  // whole (every worker has its own threads).
  if (idle_ > 0) return taken;
  // From the front only: a queued beam job stops the joining, so the stream drains and the
  // beam job is decoded next, in arrival order.
  while (taken.size() < room && !queue_.empty() && streamable(queue_.front().job)) {
    taken.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  return taken;
}

void RequestBatcher::stream_step(Stream& stream, std::vector<Pending> joining) {
  try {
    if (!joining.empty()) {
      std::vector<TranslationJob> jobs;
      std::vector<uint64_t> tags;
      for (auto& p : joining) {
        tags.push_back(stream.next_tag);
        stream.running.emplace(stream.next_tag++, std::move(p.promise));
        jobs.push_back(std::move(p.job));
      }
      stream.decoder->join(jobs, tags);
    }
    count_batch(stream.decoder->active());
    for (auto& [tag, result] : stream.decoder->step()) {
      auto it = stream.running.find(tag);
      if (it == stream.running.end())
        throw std::logic_error("the step decoder ended an unknown job");
      it->second.set_value(std::move(result));
      stream.running.erase(it);
    }
  } catch (...) {
    auto error = std::current_exception();
    for (auto& [tag, promise] : stream.running) {
      try {
        promise.set_exception(error);
      } catch (const std::future_error&) {  // already satisfied before the throw
      }
    }
    stream.running.clear();
    stream.decoder = make_decoder();
  }
}

std::unique_ptr<StepDecoder> RequestBatcher::make_decoder() const {
  if (!make_step_decoder_) return nullptr;
  try {
    return make_step_decoder_();
  } catch (...) {  // no continuous batching on this worker: whole batches still work
    return nullptr;
  }
}

void RequestBatcher::work() {
  Stream stream;
  stream.decoder = make_decoder();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stream.decoder && !stream.running.empty()) {
      // A running stream never waits: whoever has arrived joins before the next step.
      auto joining =
          take_streamable(options_.max_batch - std::min(options_.max_batch, stream.running.size()));
      lock.unlock();
      stream_step(stream, std::move(joining));
      lock.lock();
      continue;
    }
    ++idle_;
    auto batch = next_batch(lock);
    --idle_;
    if (batch.empty()) return;
    lock.unlock();
    if (stream.decoder && streamable(batch.front().job)) {
      stream_step(stream, std::move(batch));
    } else {
      decode_batch(std::move(batch));
    }
    lock.lock();
  }
}

}  // namespace atento
