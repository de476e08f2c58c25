// The batch job's greedy decoding (app/translate/greedy_workers.h): however many workers and
// rows, each source gets what greedy_search gives it alone, in input order; a pool fed window
// after window gives each window what it gives it alone, collected in any order; a worker's
// error reaches the caller; the threads are shared as atento-serve shares them.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <vector>

#include "app/common/precision.h"
#include "app/translate/greedy_workers.h"
#include "model/int8_linear.h"
#include "model/search.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

using model::testing::kBos;
using model::testing::kEos;

model::SearchOptions greedy_options() {
  model::SearchOptions options;
  options.beam = 1;
  options.n_best = 1;
  options.length_penalty = 1.0;
  options.bos_id = kBos;
  options.eos_id = kEos;
  return options;
}

TrainedModel untrained_model() {
  torch::manual_seed(47);
  TrainedModel trained;
  trained.config.translate.precision = Precision::kFp32;  // greedy_search below runs in fp32
  trained.model = model::Seq2Seq(model::testing::small_options(model::Norm::kPre));
  trained.model->eval();
  return trained;
}

std::vector<std::vector<int64_t>> random_sources(size_t count) {
  std::vector<std::vector<int64_t>> sources;
  for (size_t i = 0; i < count; ++i) {
    sources.push_back(model::testing::random_words(1 + static_cast<int64_t>(i * 5 % 11), 23));
  }
  return sources;
}

void expect_as_alone(TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
                     size_t rows, DecoderThreads threads) {
  const auto results = decode_greedy(trained, sources, greedy_options(), rows, threads);
  ASSERT_EQ(results.size(), sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto alone = model::greedy_search(trained.model, model::testing::pad_rows({sources[i]}),
                                            greedy_options());
    ASSERT_EQ(results[i].size(), 1u) << "source " << i;
    EXPECT_EQ(results[i][0].tokens, alone.at(0).at(0).tokens)
        << "source " << i << ", " << threads.workers << " workers of " << rows << " rows";
    EXPECT_NEAR(results[i][0].score, alone.at(0).at(0).score, 1e-4) << "source " << i;
  }
}

TEST(GreedyWorkers, EverySourceGetsWhatGreedySearchGivesItAloneInInputOrder) {
  auto trained = untrained_model();
  const auto sources = random_sources(40);
  expect_as_alone(trained, sources, 4, {3, 1});       // rows free up and are refilled many times
  expect_as_alone(trained, sources, 64, {2, 1});      // every source in the first batches
  expect_as_alone(trained, sources, 1, {1, 1});       // one sentence at a time
  expect_as_alone(trained, {sources[3]}, 8, {4, 1});  // one source: one worker
  EXPECT_TRUE(decode_greedy(trained, {}, greedy_options(), 8, {2, 1}).empty());
}

TEST(GreedyWorkers, APoolFedWindowAfterWindowGivesEachWhatItGivesItAlone) {
  auto trained = untrained_model();
  const auto sources = random_sources(30);
  const std::vector<std::vector<int64_t>> first(sources.begin(), sources.begin() + 17);
  const std::vector<std::vector<int64_t>> second(sources.begin() + 17, sources.end());
  const auto whole = decode_greedy(trained, sources, greedy_options(), 64, {1, 1});
  GreedyPool pool(trained, greedy_options(), 4, {2, 1});
  const size_t a = pool.submit(first);
  const size_t b = pool.submit(second);
  const size_t empty = pool.submit({});
  EXPECT_TRUE(pool.collect(empty).empty());
  const auto second_found = pool.collect(b);  // the later window first: any order
  const auto first_found = pool.collect(a);
  ASSERT_EQ(first_found.size(), first.size());
  ASSERT_EQ(second_found.size(), second.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto& found = i < first.size() ? first_found[i] : second_found[i - first.size()];
    ASSERT_EQ(found.size(), 1u) << "source " << i;
    EXPECT_EQ(found[0].tokens, whole[i][0].tokens) << "source " << i;
  }
  // and again after the queue ran dry: the workers waited for more
  const auto again = pool.collect(pool.submit({sources[5]}));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0][0].tokens, whole[5][0].tokens);
}

TEST(GreedyWorkers, APoolsWorkerErrorReachesEveryLaterCollect) {
  auto trained = untrained_model();
  auto bad = random_sources(6);
  bad[2] = {3, 999};  // beyond the source vocabulary: the embedding throws
  GreedyPool pool(trained, greedy_options(), 2, {2, 1});
  const size_t ticket = pool.submit(bad);
  EXPECT_THROW(pool.collect(ticket), c10::Error);
  EXPECT_THROW(pool.collect(pool.submit(random_sources(3))), c10::Error);
}

TEST(GreedyWorkers, WorkersDecodeInTheConfiguredPrecision) {
  if (!model::int8_supported()) GTEST_SKIP() << "no quantized engine in this LibTorch";
  auto trained = untrained_model();
  trained.config.translate.precision = Precision::kInt8;
  const auto sources = random_sources(12);
  const auto results = decode_greedy(trained, sources, greedy_options(), 4, {2, 1});
  bool any_differs_from_fp32 = false;
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto src = model::testing::pad_rows({sources[i]});
    const auto fp32 = model::greedy_search(trained.model, src, greedy_options());
    std::vector<std::vector<model::Hypothesis>> int8;
    {
      DecodingPrecisionGuard precision(Precision::kInt8, torch::Device(torch::kCPU));
      int8 = model::greedy_search(trained.model, src, greedy_options());
    }
    EXPECT_EQ(results[i][0].tokens, int8.at(0).at(0).tokens) << "source " << i;
    EXPECT_NEAR(results[i][0].score, int8.at(0).at(0).score, 1e-4) << "source " << i;
    any_differs_from_fp32 =
        any_differs_from_fp32 || std::abs(results[i][0].score - fp32.at(0).at(0).score) > 1e-6;
  }
  EXPECT_TRUE(any_differs_from_fp32) << "the workers decoded in fp32, not int8";
}

TEST(GreedyWorkers, AWorkersErrorReachesTheCallerAfterAllEnded) {
  auto trained = untrained_model();
  auto sources = random_sources(20);
  sources[7] = {3, 999};  // beyond the source vocabulary: the embedding throws
  EXPECT_THROW(decode_greedy(trained, sources, greedy_options(), 2, {2, 1}), c10::Error);
}

TEST(GreedyWorkers, ThreadsAreSharedAsTheServerSharesThem) {
  const torch::Device cpu(torch::kCPU), gpu(torch::kCUDA, 0);
  auto expect = [](DecoderThreads got, size_t workers, int64_t per_worker) {
    EXPECT_EQ(got.workers, workers);
    EXPECT_EQ(got.per_worker, per_worker);
  };
  expect(decoder_threads(4, 0, cpu), 4, 1);  // one single-threaded worker per thread
  expect(decoder_threads(4, 2, cpu), 2, 2);
  expect(decoder_threads(3, 5, cpu), 5, 1);
  expect(decoder_threads(4, 0, gpu), 1, 4);  // one worker on a GPU
}

TEST(GreedyWorkers, OnlyCachedGreedySearchWithoutAttentionOrForcedLengthIsStreamed) {
  EXPECT_TRUE(greedy_streamable(greedy_options()));
  auto options = greedy_options();
  options.beam = 4;
  EXPECT_FALSE(greedy_streamable(options));
  options = greedy_options();
  options.use_cache = false;
  EXPECT_FALSE(greedy_streamable(options));
  options = greedy_options();
  options.record_attention = true;
  EXPECT_FALSE(greedy_streamable(options));
  options = greedy_options();
  options.force_len = 5;
  EXPECT_FALSE(greedy_streamable(options));
}

}  // namespace
}  // namespace atento
