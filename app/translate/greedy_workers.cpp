#include "app/translate/greedy_workers.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>
#include <utility>

#include "app/common/precision.h"
#include "app/common/runtime.h"
#include "model/greedy_stream.h"

namespace atento {

DecoderThreads decoder_threads(int64_t threads, size_t workers, const torch::Device& device) {
  const int64_t total = resolve_threads(threads);
  DecoderThreads t;
  if (workers > 0) {
    t.workers = workers;
  } else {
    t.workers = device.is_cpu() ? static_cast<size_t>(total) : 1;
  }
  t.per_worker = std::max<int64_t>(1, total / static_cast<int64_t>(t.workers));
  return t;
}

bool greedy_streamable(const model::SearchOptions& search) {
  return search.beam == 1 && search.use_cache && !search.record_attention && search.force_len == 0;
}

GreedyPool::GreedyPool(TrainedModel& trained, const model::SearchOptions& search, size_t rows,
                       DecoderThreads threads)
    : trained_(trained),
      search_(search),
      rows_(std::max<size_t>(1, rows)),
      workers_(std::max<size_t>(1, threads.workers)) {
  for (size_t w = 0; w < workers_; ++w) {
    threads_.emplace_back([this, per_worker = threads.per_worker] {
      try {
        work(per_worker);
      } catch (...) {
        fail(std::current_exception());
      }
    });
  }
}

GreedyPool::~GreedyPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (auto& thread : threads_) thread.join();
}

size_t GreedyPool::submit(const std::vector<std::vector<int64_t>>& sources) {
  std::vector<size_t> order(sources.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return sources[a].size() > sources[b].size(); });
  size_t ticket = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ticket = next_ticket_++;
    Batch& batch = batches_[ticket];
    batch.sources = sources;
    batch.results.resize(sources.size());
    batch.left = sources.size();
    for (size_t index : order) queue_.push_back(Tag{ticket} << 32 | index);
  }
  queued_.notify_all();
  return ticket;
}

std::vector<std::vector<model::Hypothesis>> GreedyPool::collect(size_t ticket) {
  std::unique_lock<std::mutex> lock(mutex_);
  decoded_.wait(lock, [&] { return error_ || batches_.at(ticket).left == 0; });
  if (error_) std::rethrow_exception(error_);
  auto results = std::move(batches_.at(ticket).results);
  batches_.erase(ticket);
  return results;
}

void GreedyPool::fail(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = error;
    stopping_ = true;
  }
  queued_.notify_all();
  decoded_.notify_all();
}

std::vector<GreedyPool::Tag> GreedyPool::take(size_t free_rows) {
  // A short queue (a few lines from a pipe) is shared evenly: two half batches decode faster
  // than one whole, and one source needs one worker.
  const size_t share = std::max<size_t>(1, (queue_.size() + workers_ - 1) / workers_);
  std::vector<Tag> taken;
  while (taken.size() < std::min(free_rows, share) && !queue_.empty()) {
    taken.push_back(queue_.front());
    queue_.pop_front();
  }
  return taken;
}

// One worker: keeps its stream at rows_ sentences while sources are queued, and waits for more
// when it has none.
void GreedyPool::work(int64_t intra_op_threads) {
  set_threads(intra_op_threads);  // OpenMP's thread count belongs to this thread
  DecodingPrecisionGuard precision(trained_.config.translate.precision, trained_.device);
  model::GreedyStream stream(trained_.model, search_);
  while (true) {
    std::vector<std::vector<int64_t>> joining;
    std::vector<uint64_t> tags;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stream.active() == 0) queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      tags = take(rows_ - std::min(rows_, stream.active()));
      for (Tag tag : tags) joining.push_back(batches_.at(tag >> 32).sources[tag & 0xFFFFFFFFu]);
    }
    if (!tags.empty()) stream.add(joining, tags);
    if (stream.active() == 0) continue;
    auto finished = stream.step();
    if (finished.empty()) continue;
    bool batch_done = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& [tag, hypothesis] : finished) {
        Batch& batch = batches_.at(tag >> 32);
        batch.results[tag & 0xFFFFFFFFu].push_back(std::move(hypothesis));
        batch_done = --batch.left == 0 || batch_done;
      }
    }
    if (batch_done) decoded_.notify_all();
  }
}

std::vector<std::vector<model::Hypothesis>> decode_greedy(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, size_t rows, DecoderThreads threads) {
  if (sources.empty()) return {};
  // A few sources are shared evenly: two half batches decode faster than one whole.
  threads.workers = std::max<size_t>(1, std::min(threads.workers, sources.size()));
  rows = std::min(rows, (sources.size() + threads.workers - 1) / threads.workers);
  GreedyPool pool(trained, search, rows, threads);
  return pool.collect(pool.submit(sources));
}

}  // namespace atento
