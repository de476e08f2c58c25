// Continuous batching (model/greedy_stream.h): sentences that join a running batch at any step,
// reuse freed slots, widen the source axis and outlive the cache's first columns each get what
// greedy_search gives them alone.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <map>
#include <vector>

#include "model/greedy_stream.h"
#include "model/search.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::kBos;
using testing::kEos;

SearchOptions stream_search_options() {
  SearchOptions options;
  options.beam = 1;
  options.length_penalty = 1.0;
  options.bos_id = kBos;
  options.eos_id = kEos;
  return options;
}

// What greedy_search gives `source` decoded on its own.
Hypothesis alone(Seq2Seq& model, const std::vector<int64_t>& source) {
  auto results = greedy_search(model, testing::pad_rows({source}), stream_search_options());
  return results.at(0).at(0);
}

// Adds sources[i] to the stream before step join_at[i]; steps until every sentence ended.
std::map<uint64_t, Hypothesis> stream_all(Seq2Seq& model,
                                          const std::vector<std::vector<int64_t>>& sources,
                                          const std::vector<int64_t>& join_at) {
  GreedyStream stream(model, stream_search_options());
  std::map<uint64_t, Hypothesis> results;
  int64_t last_join = 0;
  for (auto at : join_at) last_join = std::max(last_join, at);
  for (int64_t step = 0; step <= last_join || stream.active() > 0; ++step) {
    std::vector<std::vector<int64_t>> joining;
    std::vector<uint64_t> tags;
    for (size_t i = 0; i < sources.size(); ++i) {
      if (join_at[i] == step) {
        joining.push_back(sources[i]);
        tags.push_back(i);
      }
    }
    stream.add(joining, tags);
    for (auto& [tag, hypothesis] : stream.step()) {
      EXPECT_EQ(results.count(tag), 0u) << "sentence " << tag << " ended twice";
      results[tag] = hypothesis;
    }
    EXPECT_LT(step, 1000) << "the stream does not end";
    if (step >= 1000) break;
  }
  return results;
}

void expect_as_alone(Seq2Seq& model, const std::vector<std::vector<int64_t>>& sources,
                     const std::vector<int64_t>& join_at) {
  const auto results = stream_all(model, sources, join_at);
  ASSERT_EQ(results.size(), sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto expected = alone(model, sources[i]);
    const auto& got = results.at(i);
    EXPECT_EQ(got.tokens, expected.tokens) << "sentence " << i << " joined at step " << join_at[i];
    EXPECT_NEAR(got.score, expected.score, 1e-4) << "sentence " << i;
  }
}

Seq2Seq untrained_stream_model() {
  torch::manual_seed(41);
  Seq2Seq model(testing::small_options(Norm::kPre));
  model->eval();
  return model;
}

TEST(GreedyStream, SentencesJoiningAtAnyStepGetWhatGreedySearchGivesThemAlone) {
  auto model = untrained_stream_model();  // rarely emits eos: rows end at their length limits
  std::vector<std::vector<int64_t>> sources;
  std::vector<int64_t> join_at;
  for (int64_t i = 0; i < 12; ++i) {
    sources.push_back(testing::random_words(1 + (i * 5) % 9, 23));
    join_at.push_back((i * 3) % 11);  // several per step, some after others have ended
  }
  expect_as_alone(model, sources, join_at);
}

TEST(GreedyStream, ALongerSourceJoiningLaterWidensTheBatch) {
  auto model = untrained_stream_model();
  expect_as_alone(model, {{4, 5}, {6}, {7, 8, 9, 10, 11, 12, 13, 14, 15}}, {0, 0, 2});
}

TEST(GreedyStream, ALongRunningStreamReusesItsCacheColumns) {
  auto model = untrained_stream_model();
  // A new sentence every step for 150 steps: the cache's oldest columns are reclaimed many
  // times (rows live at most max_len = 16 steps), and the batch grows and shrinks.
  std::vector<std::vector<int64_t>> sources;
  std::vector<int64_t> join_at;
  for (int64_t i = 0; i < 150; ++i) {
    sources.push_back(testing::random_words(1 + (i * 7) % 10, 23));
    join_at.push_back(i < 100 ? i : 100 + 3 * (i - 100));
  }
  expect_as_alone(model, sources, join_at);
}

TEST(GreedyStream, MemorisedSentencesEndAtEosWhereverTheyJoin) {
  torch::manual_seed(43);
  Seq2Seq model(testing::memorisation_options(/*encoder_layers=*/1, 16));
  const auto pairs = testing::random_pairs(8, 20, 20, 2, 7);
  ASSERT_EQ(testing::memorise(model, testing::teacher_batch(pairs), 250, 3e-3), 1.0);
  model->eval();
  const auto results = stream_all(model, pairs.src, {0, 0, 1, 3, 3, 4, 9, 12});
  ASSERT_EQ(results.size(), pairs.src.size());
  for (size_t i = 0; i < pairs.src.size(); ++i) {
    EXPECT_EQ(results.at(i).tokens, pairs.tgt[i]) << "pair " << i;
  }
}

TEST(GreedyStream, AnEmptyStreamStepsToNothingAndRejectsEmptySources) {
  auto model = untrained_stream_model();
  GreedyStream stream(model, stream_search_options());
  EXPECT_TRUE(stream.step().empty());
  EXPECT_EQ(stream.active(), 0u);
  EXPECT_THROW(stream.add({{}}, {0}), c10::Error);
  EXPECT_THROW(stream.add({{4}}, {}), c10::Error);
  auto options = stream_search_options();
  options.force_len = 3;
  EXPECT_THROW(GreedyStream(model, options), c10::Error);
}

}  // namespace
}  // namespace atento::model
