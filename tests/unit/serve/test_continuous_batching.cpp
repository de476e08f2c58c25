// Tests for continuous batching in app/request_batcher: greedy jobs go to each worker's
// StepDecoder and beam jobs to the batch translator; a job joins a running batch without
// waiting for it to end, unless another worker is idle; the running batch stays within
// max_batch; a failing step fails the jobs in it only; stop() finishes the running batch.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "app/serve/request_batcher.h"

namespace atento {
namespace {

/// What the fake step decoders of one batcher saw.
struct StreamLog {
  std::atomic<size_t> most_active{0};
  std::atomic<int> steps{0};
  std::atomic<int> decoders{0};
  std::atomic<bool> fail_next{false};
};

/// A stand-in StepDecoder: a job whose text is N characters long ends after N steps with
/// "<text>/stream"; each step takes `step_time`.
class FakeStepDecoder : public StepDecoder {
 public:
  FakeStepDecoder(StreamLog& log, std::chrono::microseconds step_time)
      : log_(log), step_time_(step_time) {
    ++log_.decoders;
  }
  void join(const std::vector<TranslationJob>& jobs, const std::vector<uint64_t>& tags) override {
    for (size_t i = 0; i < jobs.size(); ++i) {
      EXPECT_EQ(jobs[i].beam, 1);
      running_.push_back({tags[i], jobs[i].text, 0});
    }
    size_t seen = log_.most_active.load();
    while (running_.size() > seen &&
           !log_.most_active.compare_exchange_weak(seen, running_.size())) {
    }
  }
  std::vector<std::pair<uint64_t, TranslationResult>> step() override {
    std::this_thread::sleep_for(step_time_);
    ++log_.steps;
    if (log_.fail_next.exchange(false)) throw std::runtime_error("step failed");
    std::vector<std::pair<uint64_t, TranslationResult>> ended;
    std::vector<Running> still;
    for (auto& job : running_) {
      if (++job.steps >= job.text.size()) {
        ended.emplace_back(job.tag, TranslationResult{job.text + "/stream"});
      } else {
        still.push_back(job);
      }
    }
    running_ = std::move(still);
    return ended;
  }
  size_t active() const override { return running_.size(); }

 private:
  struct Running {
    uint64_t tag;
    std::string text;
    size_t steps;
  };
  StreamLog& log_;
  std::chrono::microseconds step_time_;
  std::vector<Running> running_;
};

BatchTranslator beam_translator() {
  return [](const std::vector<TranslationJob>& jobs) {
    std::vector<TranslationResult> results;
    for (const auto& job : jobs) {
      EXPECT_GT(job.beam, 1) << "a greedy job reached the batch translator";
      results.push_back({job.text + "/batch"});
    }
    return results;
  };
}

StepDecoderFactory fake_streams(StreamLog& log, std::chrono::microseconds step_time) {
  return [&log, step_time] { return std::make_unique<FakeStepDecoder>(log, step_time); };
}

BatcherOptions stream_batcher_options(size_t max_batch, size_t workers = 1) {
  BatcherOptions options;
  options.max_batch = max_batch;
  options.max_wait = std::chrono::milliseconds(1);
  options.workers = workers;
  return options;
}

TEST(ContinuousBatchingTest, GreedyJobsStreamAndBeamJobsBatch) {
  StreamLog log;
  RequestBatcher batcher(beam_translator(), stream_batcher_options(4, 2),
                         fake_streams(log, std::chrono::microseconds(100)));
  std::vector<std::future<TranslationResult>> futures;
  std::vector<std::string> expected;
  for (int i = 0; i < 30; ++i) {
    const std::string text(1 + i % 7, static_cast<char>('a' + i % 26));
    const int64_t beam = i % 5 == 0 ? 4 : 1;
    for (auto& f : batcher.submit({{text, beam, 1}})) futures.push_back(std::move(f));
    expected.push_back(text + (beam == 1 ? "/stream" : "/batch"));
  }
  for (size_t i = 0; i < futures.size(); ++i) EXPECT_EQ(futures[i].get().at(0), expected[i]);
  EXPECT_EQ(log.decoders.load(), 2);  // one per worker
  EXPECT_LE(log.most_active.load(), 4u);
}

TEST(ContinuousBatchingTest, AJobJoinsARunningBatchAndEndsBeforeIt) {
  StreamLog log;
  RequestBatcher batcher(beam_translator(), stream_batcher_options(8),
                         fake_streams(log, std::chrono::milliseconds(2)));
  auto long_job = std::move(batcher.submit({{std::string(200, 'x'), 1, 1}}).front());
  while (log.steps.load() < 5) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto short_job = std::move(batcher.submit({{"ab", 1, 1}}).front());
  ASSERT_EQ(short_job.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(short_job.get().at(0), "ab/stream");
  EXPECT_EQ(long_job.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the short job waited for the long one to end";
  EXPECT_EQ(long_job.get().at(0), std::string(200, 'x') + "/stream");
  EXPECT_EQ(log.most_active.load(), 2u);
}

TEST(ContinuousBatchingTest, AnIdleWorkerStartsItsOwnBatchInsteadOfJoiningABusyOne) {
  StreamLog log;
  RequestBatcher batcher(beam_translator(), stream_batcher_options(8, 2),
                         fake_streams(log, std::chrono::milliseconds(2)));
  auto first = std::move(batcher.submit({{std::string(40, 'p'), 1, 1}}).front());
  while (log.steps.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto second = std::move(batcher.submit({{std::string(40, 'q'), 1, 1}}).front());
  EXPECT_EQ(first.get().at(0), std::string(40, 'p') + "/stream");
  EXPECT_EQ(second.get().at(0), std::string(40, 'q') + "/stream");
  EXPECT_EQ(log.most_active.load(), 1u) << "the second job joined the busy worker's batch";
}

TEST(ContinuousBatchingTest, ARunningBatchStaysWithinMaxBatch) {
  StreamLog log;
  RequestBatcher batcher(beam_translator(), stream_batcher_options(3),
                         fake_streams(log, std::chrono::microseconds(200)));
  std::vector<std::future<TranslationResult>> futures;
  for (int i = 0; i < 20; ++i) {
    for (auto& f : batcher.submit({{std::string(3 + i % 4, 'y'), 1, 1}})) {
      futures.push_back(std::move(f));
    }
  }
  for (auto& f : futures) EXPECT_EQ(f.get().at(0).substr(0, 3), "yyy");
  EXPECT_EQ(log.most_active.load(), 3u);
}

TEST(ContinuousBatchingTest, AFailingStepFailsTheRunningJobsAndTheWorkerGoesOn) {
  StreamLog log;
  RequestBatcher batcher(beam_translator(), stream_batcher_options(8),
                         fake_streams(log, std::chrono::microseconds(100)));
  log.fail_next = true;
  auto failed = std::move(batcher.submit({{"abc", 1, 1}}).front());
  EXPECT_THROW(failed.get(), std::runtime_error);
  auto next = std::move(batcher.submit({{"abc", 1, 1}}).front());
  EXPECT_EQ(next.get().at(0), "abc/stream");
  EXPECT_EQ(log.decoders.load(), 2);  // a new decoder after the failure
}

TEST(ContinuousBatchingTest, StopFinishesTheRunningBatch) {
  StreamLog log;
  std::vector<std::future<TranslationResult>> futures;
  {
    RequestBatcher batcher(beam_translator(), stream_batcher_options(4),
                           fake_streams(log, std::chrono::microseconds(500)));
    for (int i = 0; i < 10; ++i) {
      for (auto& f : batcher.submit({{std::string(5, 'z'), 1, 1}})) futures.push_back(std::move(f));
    }
    batcher.stop();
    EXPECT_THROW(batcher.submit({{"late", 1, 1}}), QueueFull);
  }
  for (auto& f : futures) EXPECT_EQ(f.get().at(0), "zzzzz/stream");
}

}  // namespace
}  // namespace atento
