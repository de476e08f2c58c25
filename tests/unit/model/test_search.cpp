// Tier 2: greedy and beam search: agreement between the paths (beam 1 == greedy, cached ==
// uncached, batch == one by one, the fixed-shape greedy form of CUDA graphs == greedy),
// ordering, length limits, and recovery of memorised pairs.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "model/eval_mode.h"
#include "model/search.h"
#include "model/static_greedy.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::kBos;
using testing::kEos;
using testing::pad_rows;

SearchOptions search_options(int64_t beam) {
  SearchOptions options;
  options.beam = beam;
  options.bos_id = kBos;
  options.eos_id = kEos;
  return options;
}

// A model that has memorised eight pairs, trained once for the whole suite.
struct Memorised {
  Seq2Seq model{nullptr};
  testing::Pairs pairs;
  torch::Tensor src;
};

Memorised& memorised() {
  static Memorised m = [] {
    torch::manual_seed(31);
    const ModelOptions options = testing::memorisation_options(/*encoder_layers=*/1, 16);
    Memorised result;
    result.model = Seq2Seq(options);
    result.pairs = testing::random_pairs(8, 20, 20, 2, 7);
    const auto batch = testing::teacher_batch(result.pairs);
    result.src = batch.src;
    EXPECT_EQ(testing::memorise(result.model, batch, 250, 3e-3), 1.0);
    return result;
  }();
  return m;
}

// An untrained model: rarely emits eos, so it exercises the length limits.
Seq2Seq random_model() {
  torch::manual_seed(32);
  auto options = testing::small_options();
  return Seq2Seq(options);
}

torch::Tensor random_source() {
  return pad_rows({{4, 5, 6, 7, 8, 9}, {10}, {12, 13, 14, 15}, {5, 6, 7, 8, 9, 10, 11, 12}});
}

void expect_same_tokens(const std::vector<std::vector<Hypothesis>>& a,
                        const std::vector<std::vector<Hypothesis>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].size(), b[i].size()) << "sentence " << i;
    for (size_t j = 0; j < a[i].size(); ++j) {
      EXPECT_EQ(a[i][j].tokens, b[i][j].tokens) << "sentence " << i << " hypothesis " << j;
      EXPECT_NEAR(a[i][j].score, b[i][j].score, 1e-4) << "sentence " << i;
    }
  }
}

TEST(ModelSearch, GreedyAndBeamRecoverMemorisedTargetsOfDifferentLengths) {
  auto& m = memorised();
  for (int64_t beam : {1, 4}) {
    auto result = translate_batch(m.model, m.src, search_options(beam));
    ASSERT_EQ(result.size(), m.pairs.tgt.size());
    for (size_t i = 0; i < result.size(); ++i) {
      ASSERT_EQ(result[i].size(), 1u);
      EXPECT_EQ(result[i][0].tokens, m.pairs.tgt[i]) << "beam " << beam << " sentence " << i;
      EXPECT_LE(result[i][0].score, 0.0);
    }
  }
}

// The same tokens; the scores within float rounding (greedy sums its log-probabilities from
// greedy_choice, beam search from log_softmax).
TEST(ModelSearch, BeamOfOneEqualsGreedy) {
  auto& m = memorised();
  auto random = random_model();
  for (auto* model : {&m.model, &random}) {
    const auto src = model == &random ? random_source() : m.src;
    const auto greedy = greedy_search(*model, src, search_options(1));
    const auto beam = beam_search(*model, src, search_options(1));
    ASSERT_EQ(greedy.size(), beam.size());
    for (size_t i = 0; i < greedy.size(); ++i) {
      ASSERT_EQ(greedy[i].size(), 1u);
      ASSERT_EQ(beam[i].size(), 1u);
      EXPECT_EQ(greedy[i][0].tokens, beam[i][0].tokens);
      EXPECT_NEAR(greedy[i][0].score, beam[i][0].score, 1e-5 * (1.0 + std::fabs(beam[i][0].score)));
    }
  }
}

TEST(ModelSearch, NBestHypothesesAreSortedByScore) {
  auto random = random_model();
  for (auto* model : {&memorised().model, &random}) {
    auto options = search_options(5);
    options.n_best = 5;
    const auto src = model == &random ? random_source() : memorised().src;
    for (const auto& hypotheses : translate_batch(*model, src, options)) {
      ASSERT_EQ(hypotheses.size(), 5u);
      for (size_t j = 1; j < hypotheses.size(); ++j) {
        EXPECT_GE(hypotheses[j - 1].score, hypotheses[j].score);
      }
    }
  }
}

TEST(ModelSearch, CachedAndUncachedSearchGiveIdenticalTokens) {
  auto random = random_model();
  for (auto* model : {&memorised().model, &random}) {
    const auto src = model == &random ? random_source() : memorised().src;
    for (int64_t beam : {1, 3}) {
      auto options = search_options(beam);
      options.n_best = beam;
      const auto cached = translate_batch(*model, src, options);
      options.use_cache = false;
      expect_same_tokens(translate_batch(*model, src, options), cached);
    }
  }
}

TEST(ModelSearch, ForceLenDecodesExactlyThatManyTokens) {
  auto& m = memorised();
  for (int64_t beam : {1, 4}) {
    auto options = search_options(beam);
    options.force_len = 11;
    for (const auto& hypotheses : translate_batch(m.model, m.src, options)) {
      ASSERT_EQ(hypotheses.size(), 1u);
      EXPECT_EQ(hypotheses[0].tokens.size(), 11u);
      for (int64_t token : hypotheses[0].tokens) {
        EXPECT_NE(token, kEos);
      }
    }
  }
}

TEST(ModelSearch, OutputLengthRespectsRatioAndMaxLen) {
  auto random = random_model();  // max_len 16
  const auto src = random_source();
  const std::vector<size_t> source_lengths{6, 1, 4, 8};
  for (int64_t beam : {1, 3}) {
    auto options = search_options(beam);
    options.max_len_ratio = 1.0;
    options.max_len_extra = 2;
    const auto result = translate_batch(random, src, options);
    for (size_t i = 0; i < result.size(); ++i) {
      EXPECT_LE(result[i][0].tokens.size(), std::min<size_t>(16, source_lengths[i] + 2));
    }
  }
}

TEST(ModelSearch, BatchedSentencesOfDifferentLengthsMatchOneByOne) {
  auto random = random_model();
  for (auto* model : {&memorised().model, &random}) {
    const auto src = model == &random ? random_source() : memorised().src;
    for (int64_t beam : {1, 4}) {
      auto options = search_options(beam);
      const auto batched = translate_batch(*model, src, options);
      for (int64_t i = 0; i < src.size(0); ++i) {
        auto row = src.narrow(0, i, 1);
        const int64_t length = row.ne(0).sum().item<int64_t>();
        const auto alone = translate_batch(*model, row.narrow(1, 0, length), options);
        EXPECT_EQ(alone[0][0].tokens, batched[i][0].tokens) << "beam " << beam << " row " << i;
        EXPECT_NEAR(alone[0][0].score, batched[i][0].score, 1e-4);
      }
    }
  }
}

TEST(ModelSearch, RecordedAttentionCoversEveryOutputTokenAndRealSourceWord) {
  auto& m = memorised();
  for (int64_t beam : {1, 3}) {
    auto options = search_options(beam);
    options.record_attention = true;
    const auto cached = translate_batch(m.model, m.src, options);
    options.use_cache = false;
    const auto uncached = translate_batch(m.model, m.src, options);
    for (size_t i = 0; i < cached.size(); ++i) {
      const auto& hypothesis = cached[i][0];
      ASSERT_EQ(hypothesis.attention.size(), 2u);                              // decoder layers
      const int64_t len = static_cast<int64_t>(hypothesis.tokens.size()) + 1;  // + eos
      const int64_t source = static_cast<int64_t>(m.pairs.src[i].size());
      for (size_t l = 0; l < 2; ++l) {
        const auto& weights = hypothesis.attention[l];
        EXPECT_EQ(weights.sizes(), (std::vector<int64_t>{4, len, source}));
        EXPECT_TRUE(torch::allclose(weights.sum(-1), torch::ones({4, len}), 0.0, 1e-5));
        EXPECT_TRUE(torch::allclose(weights, uncached[i][0].attention[l], 0.0, 1e-5));
      }
    }
  }
}

TEST(ModelSearch, AllPaddingSourceRowDecodesWithFiniteScores) {
  // An empty input line arrives as a row of padding: every key is masked, nothing may be NaN.
  auto random = random_model();
  const auto src = pad_rows({{4, 5, 6}, {}, {7}}, 3);
  for (int64_t beam : {1, 3}) {
    const auto result = translate_batch(random, src, search_options(beam));
    ASSERT_EQ(result.size(), 3u);
    for (const auto& hypotheses : result) {
      ASSERT_FALSE(hypotheses.empty());
      EXPECT_TRUE(std::isfinite(hypotheses[0].score));
      EXPECT_LE(hypotheses[0].tokens.size(), 16u);
    }
  }
}

TEST(ModelSearch, StaticGreedyGivesGreedySearchHypotheses) {
  auto random = random_model();  // runs to the length limits
  for (auto* model : {&memorised().model, &random}) {
    const auto src = model == &random ? random_source() : memorised().src;
    for (int64_t force_len : {0, 5}) {
      auto options = search_options(1);
      options.force_len = force_len;
      expect_same_tokens(static_greedy_search(*model, src, options),
                         greedy_search(*model, src, options));
    }
  }
  // An all-padding row, as an empty line arrives.
  const auto src = pad_rows({{4, 5, 6}, {}, {7}}, 3);
  expect_same_tokens(static_greedy_search(random, src, search_options(1)),
                     greedy_search(random, src, search_options(1)));
}

TEST(ModelSearch, StaticGreedyBuffersServeSmallerBatchesOneAfterAnother) {
  // A bucket's buffers (8 rows, 12 source columns) take batches of fewer rows and shorter
  // sources in turn, nothing of one left over into the next.
  auto& m = memorised();
  const auto options = search_options(1);
  const int64_t capacity = output_limit(m.model->options(), 12, options);
  EvalModeGuard eval_mode(*m.model);
  auto state = make_static_greedy(m.model, 8, 12, capacity, options, torch::kCPU);
  const auto first = m.src.narrow(0, 0, 5);
  const auto second = memorised().src.narrow(0, 5, 3);
  const auto alone = pad_rows({{9, 10, 11}});
  for (const auto& src : {first, second, alone, first}) {
    load_static_greedy(m.model, state, src);
    for (int64_t step = 0; step < state.capacity(); ++step) static_greedy_step(m.model, state);
    EXPECT_TRUE(static_greedy_done(state));
    expect_same_tokens(static_greedy_results(state, src.size(0)),
                       greedy_search(m.model, src, options));
  }
  EXPECT_THROW(load_static_greedy(m.model, state, torch::ones({9, 4}, torch::kLong)), c10::Error);
  EXPECT_THROW(load_static_greedy(m.model, state, torch::ones({2, 13}, torch::kLong)), c10::Error);
}

TEST(ModelSearch, StaticGreedyRefusesWhatItCannotDo) {
  auto random = random_model();  // max_len 16
  auto options = search_options(1);
  EXPECT_THROW(make_static_greedy(random, 4, 8, 17, options, torch::kCPU), c10::Error);
  // Buffers too short for a sentence's output limit.
  auto state = make_static_greedy(random, 4, 8, 2, options, torch::kCPU);
  EXPECT_THROW(load_static_greedy(random, state, random_source().narrow(1, 0, 8)), c10::Error);
  options.record_attention = true;
  EXPECT_THROW(make_static_greedy(random, 4, 8, 16, options, torch::kCPU), c10::Error);
  options = search_options(1);
  options.use_cache = false;
  EXPECT_THROW(make_static_greedy(random, 4, 8, 16, options, torch::kCPU), c10::Error);
}

TEST(ModelSearch, RestoresTrainingModeAndRejectsBadOptions) {
  auto random = random_model();
  random->train();
  translate_batch(random, random_source(), search_options(2));
  EXPECT_TRUE(random->is_training());
  EXPECT_TRUE(random->decoder->layers->ptr<DecoderLayerImpl>(0)->is_training());
  auto options = search_options(2);
  options.n_best = 3;
  EXPECT_THROW(translate_batch(random, random_source(), options), c10::Error);
  options = search_options(2);
  options.eos_id = -1;
  EXPECT_THROW(translate_batch(random, random_source(), options), c10::Error);
  options = search_options(2);
  options.bos_id = 0;
  EXPECT_THROW(translate_batch(random, random_source(), options), c10::Error);
  options = search_options(2);
  options.force_len = 17;
  EXPECT_THROW(translate_batch(random, random_source(), options), c10::Error);
}

}  // namespace
}  // namespace atento::model
