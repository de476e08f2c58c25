// Tests for app/request_batcher: concurrent submitters each get their own results in order,
// batches stay within max_batch and never mix search settings, a full queue refuses work,
// a failing batch fails its futures only, stop() finishes what was queued, and several
// workers decode batches at the same time.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app/serve/request_batcher.h"

namespace atento {
namespace {

/// A stand-in translator: "<text>/<beam>" (n_best ranks: "#r" appended), recording batches.
struct RecordingTranslator {
  std::mutex mutex;
  std::vector<std::vector<TranslationJob>> batches;

  BatchTranslator function() {
    return [this](const std::vector<TranslationJob>& jobs) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        batches.push_back(jobs);
      }
      std::vector<TranslationResult> results;
      for (const auto& job : jobs) {
        TranslationResult ranks;
        for (int64_t r = 0; r < job.n_best; ++r) {
          ranks.push_back(job.text + "/" + std::to_string(job.beam) + "#" + std::to_string(r));
        }
        results.push_back(ranks);
      }
      return results;
    };
  }
};

std::vector<TranslationJob> jobs_of(const std::string& prefix, int n, int64_t beam = 1) {
  std::vector<TranslationJob> jobs;
  for (int i = 0; i < n; ++i) jobs.push_back({prefix + std::to_string(i), beam, 1});
  return jobs;
}

TEST(RequestBatcherTest, ConcurrentSubmittersGetTheirOwnResultsInOrder) {
  RecordingTranslator translator;
  BatcherOptions options;
  options.max_batch = 5;
  options.max_wait = std::chrono::milliseconds(2);
  RequestBatcher batcher(translator.function(), options);
  constexpr int kThreads = 8, kRequests = 20;
  std::atomic<int> wrong{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < kThreads; ++t) {
    clients.emplace_back([&, t] {
      for (int k = 0; k < kRequests; ++k) {
        std::string prefix = "t" + std::to_string(t) + "r" + std::to_string(k) + "s";
        int n = 1 + (t + k) % 4;
        auto futures = batcher.submit(jobs_of(prefix, n, 1 + t % 2));
        for (int i = 0; i < n; ++i) {
          auto result = futures[i].get();
          std::string want = prefix + std::to_string(i) + "/" + std::to_string(1 + t % 2) + "#0";
          if (result != TranslationResult{want}) ++wrong;
        }
      }
    });
  }
  for (auto& c : clients) c.join();
  EXPECT_EQ(wrong.load(), 0);
  size_t sentences = 0;
  for (const auto& batch : translator.batches) {
    ASSERT_FALSE(batch.empty());
    EXPECT_LE(batch.size(), options.max_batch);
    for (const auto& job : batch) EXPECT_EQ(job.beam, batch.front().beam) << "mixed search";
    sentences += batch.size();
  }
  size_t expected = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int k = 0; k < kRequests; ++k) expected += 1 + (t + k) % 4;
  EXPECT_EQ(sentences, expected);
  EXPECT_EQ(batcher.batches(), translator.batches.size());
  EXPECT_LE(batcher.largest_batch(), options.max_batch);
}

TEST(RequestBatcherTest, SentencesQueuedTogetherShareABatch) {
  RecordingTranslator translator;
  BatcherOptions options;
  options.max_batch = 4;
  options.max_wait = std::chrono::milliseconds(100);
  RequestBatcher batcher(translator.function(), options);
  auto futures = batcher.submit(jobs_of("s", 10));
  for (auto& f : futures) f.get();  // the last 2 leave at the deadline
  ASSERT_EQ(translator.batches.size(), 3u);
  EXPECT_EQ(translator.batches[0].size(), 4u);
  EXPECT_EQ(translator.batches[1].size(), 4u);
  EXPECT_EQ(translator.batches[2].size(), 2u);
  EXPECT_EQ(translator.batches[0][0].text, "s0");
  EXPECT_EQ(translator.batches[2][1].text, "s9");
}

TEST(RequestBatcherTest, NBestRanksComeBack) {
  RecordingTranslator translator;
  RequestBatcher batcher(translator.function(), BatcherOptions{});
  auto futures = batcher.submit({{"x", 3, 2}});
  EXPECT_EQ(futures[0].get(), (TranslationResult{"x/3#0", "x/3#1"}));
}

TEST(RequestBatcherTest, AFullQueueRefusesWholeRequests) {
  std::promise<void> started, release;
  auto released = release.get_future().share();
  std::atomic<bool> first{true};
  BatchTranslator blocking = [&](const std::vector<TranslationJob>& jobs) {
    if (first.exchange(false)) {
      started.set_value();
      released.wait();  // holds the worker so that the queue fills
    }
    return std::vector<TranslationResult>(jobs.size(), TranslationResult{"ok"});
  };
  BatcherOptions options;
  options.max_batch = 1;
  options.max_wait = std::chrono::microseconds(0);
  options.max_queued = 3;
  RequestBatcher batcher(blocking, options);
  auto held = batcher.submit(jobs_of("h", 1));
  started.get_future().wait();  // the worker took it: the queue is empty again
  auto two = batcher.submit(jobs_of("a", 2));
  EXPECT_THROW(batcher.submit(jobs_of("b", 2)), QueueFull);  // 2 + 2 > 3: none queued
  auto one = batcher.submit(jobs_of("c", 1));
  EXPECT_THROW(batcher.submit(jobs_of("d", 1)), QueueFull);
  release.set_value();
  EXPECT_EQ(held[0].get(), TranslationResult{"ok"});
  for (auto& f : two) EXPECT_EQ(f.get(), TranslationResult{"ok"});
  EXPECT_EQ(one[0].get(), TranslationResult{"ok"});
  EXPECT_EQ(batcher.batches(), 4u);
  // Served work frees the queue.
  EXPECT_EQ(batcher.submit(jobs_of("e", 3))[2].get(), TranslationResult{"ok"});
}

TEST(RequestBatcherTest, AFailingBatchFailsItsFuturesAndTheWorkerGoesOn) {
  BatchTranslator flaky = [](const std::vector<TranslationJob>& jobs) {
    if (jobs.front().text == "boom") throw std::runtime_error("decoder failed");
    return std::vector<TranslationResult>(jobs.size(), TranslationResult{"ok"});
  };
  BatcherOptions options;
  options.max_batch = 1;
  RequestBatcher batcher(flaky, options);
  auto bad = batcher.submit({{"boom", 1, 1}});
  EXPECT_THROW(bad[0].get(), std::runtime_error);
  EXPECT_EQ(batcher.submit({{"fine", 1, 1}})[0].get(), TranslationResult{"ok"});
  BatchTranslator short_answer = [](const std::vector<TranslationJob>&) {
    return std::vector<TranslationResult>{};
  };
  RequestBatcher wrong(short_answer, options);
  EXPECT_THROW(wrong.submit({{"x", 1, 1}})[0].get(), std::logic_error);
}

TEST(RequestBatcherTest, StopFinishesQueuedWorkThenRefuses) {
  RecordingTranslator translator;
  BatcherOptions options;
  options.max_batch = 2;
  options.max_wait = std::chrono::seconds(10);  // stop() must not wait for the deadline
  RequestBatcher batcher(translator.function(), options);
  auto futures = batcher.submit(jobs_of("q", 3));
  batcher.stop();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(futures[i].wait_for(std::chrono::seconds(0)), std::future_status::ready);
    EXPECT_EQ(futures[i].get(), TranslationResult{"q" + std::to_string(i) + "/1#0"});
  }
  EXPECT_THROW(batcher.submit(jobs_of("late", 1)), QueueFull);
}

TEST(RequestBatcherTest, TwoWorkersDecodeTwoBatchesAtOnce) {
  // Each batch waits (up to 10 s) until another batch is being decoded too: with one worker
  // the first batch would time out alone; with two, both meet.
  std::mutex mutex;
  std::condition_variable met;
  int in_flight = 0, most = 0;
  BatchTranslator meeting = [&](const std::vector<TranslationJob>& jobs) {
    std::unique_lock<std::mutex> lock(mutex);
    most = std::max(most, ++in_flight);
    met.notify_all();
    met.wait_for(lock, std::chrono::seconds(10), [&] { return most >= 2; });
    --in_flight;
    return std::vector<TranslationResult>(jobs.size(), TranslationResult{"ok"});
  };
  BatcherOptions options;
  options.max_batch = 2;
  options.max_wait = std::chrono::microseconds(0);
  options.workers = 2;
  RequestBatcher batcher(meeting, options);
  auto futures = batcher.submit(jobs_of("w", 4));
  for (auto& f : futures) EXPECT_EQ(f.get(), TranslationResult{"ok"});
  EXPECT_EQ(most, 2);
  EXPECT_EQ(batcher.batches(), 2u);
  EXPECT_EQ(batcher.largest_batch(), 2u);
}

TEST(RequestBatcherTest, ManyWorkersServeEverySentenceOnceAndStopCleanly) {
  RecordingTranslator translator;
  BatcherOptions options;
  options.max_batch = 3;
  options.max_wait = std::chrono::microseconds(200);
  options.workers = 4;
  RequestBatcher batcher(translator.function(), options);
  std::vector<std::future<TranslationResult>> futures;
  for (int r = 0; r < 50; ++r) {
    for (auto& f : batcher.submit(jobs_of("r" + std::to_string(r) + "s", 1 + r % 3))) {
      futures.push_back(std::move(f));
    }
  }
  batcher.stop();
  size_t sentences = 0;
  for (const auto& batch : translator.batches) {
    EXPECT_LE(batch.size(), options.max_batch);
    sentences += batch.size();
  }
  EXPECT_EQ(sentences, futures.size());
  for (auto& f : futures) {
    ASSERT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::ready);
    EXPECT_EQ(f.get().front().substr(0, 1), "r");
  }
}

}  // namespace
}  // namespace atento
