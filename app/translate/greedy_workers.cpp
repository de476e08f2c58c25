#include "app/translate/greedy_workers.h"

#include <algorithm>
#include <atomic>
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

namespace {

// The sources the workers share, handed out in `order` a few at a time.
struct SharedSources {
  const std::vector<std::vector<int64_t>>& sources;
  std::vector<size_t> order;
  std::atomic<size_t> next{0};
  std::vector<std::vector<model::Hypothesis>>& results;

  // Up to `count` sources not yet taken: their indices in `sources`.
  std::vector<uint64_t> take(size_t count) {
    std::vector<uint64_t> taken;
    if (count == 0) return taken;
    const size_t begin = next.fetch_add(count);
    for (size_t i = begin; i < std::min(begin + count, order.size()); ++i) {
      taken.push_back(order[i]);
    }
    return taken;
  }
};

// One worker: keeps its stream at `rows` sentences while sources remain.
void run_worker(TrainedModel& trained, const model::SearchOptions& search, size_t rows,
                int64_t threads, SharedSources& shared) {
  set_threads(threads);  // OpenMP's thread count belongs to this thread
  DecodingPrecisionGuard precision(trained.config.translate.precision, trained.device);
  model::GreedyStream stream(trained.model, search);
  while (true) {
    const auto tags = shared.take(rows - std::min(rows, stream.active()));
    if (!tags.empty()) {
      std::vector<std::vector<int64_t>> joining;
      for (uint64_t tag : tags) joining.push_back(shared.sources[tag]);
      stream.add(joining, tags);
    }
    if (stream.active() == 0) return;
    for (auto& [tag, hypothesis] : stream.step()) {
      shared.results[tag].push_back(std::move(hypothesis));  // each tag has one writer
    }
  }
}

}  // namespace

std::vector<std::vector<model::Hypothesis>> decode_greedy(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, size_t rows, DecoderThreads threads) {
  std::vector<std::vector<model::Hypothesis>> results(sources.size());
  SharedSources shared{sources, std::vector<size_t>(sources.size()), {}, results};
  std::iota(shared.order.begin(), shared.order.end(), 0);
  std::stable_sort(shared.order.begin(), shared.order.end(),
                   [&](size_t a, size_t b) { return sources[a].size() > sources[b].size(); });
  // A few sources (a line from a pipe) are shared evenly: two half batches decode faster than
  // one whole, and one source needs one worker.
  const size_t workers = std::max<size_t>(1, std::min(threads.workers, sources.size()));
  rows = std::max<size_t>(1, std::min(rows, (sources.size() + workers - 1) / workers));
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> pool;
  for (size_t w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        run_worker(trained, search, rows, threads.per_worker, shared);
      } catch (...) {
        errors[w] = std::current_exception();
        shared.next = sources.size();  // the others stop taking sources
      }
    });
  }
  for (auto& worker : pool) worker.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return results;
}

}  // namespace atento
