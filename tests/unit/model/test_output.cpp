// The output layers behind one interface (terms agree with scores; the argmax capability), and
// the adaptive softmax is an exact, normalised distribution whose cheap
// training path (tails only where the target lies) agrees with the full log-probabilities,
// and the full-softmax terms reproduce torch's label-smoothed cross-entropy.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#include "model/adaptive_softmax.h"
#include "model/full_softmax.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

constexpr int64_t kDim = 16;
constexpr int64_t kVocab = 40;

AdaptiveSoftmax make_layer() {
  torch::manual_seed(3);
  return AdaptiveSoftmax(kDim, kVocab, std::vector<int64_t>{10, 25}, 2);
}

// Targets covering the head, both clusters and every boundary id.
torch::Tensor boundary_targets() {
  return torch::tensor({0, 1, 9, 10, 11, 24, 25, 26, 39, 5, 30, 17}, torch::kLong);
}

TEST(ModelOutput, AdaptiveLogProbsAreNormalisedOverTheWholeVocabulary) {
  auto layer = make_layer();
  auto hidden = torch::randn({7, kDim});
  auto logp = adaptive_log_probs(*layer, hidden);  // [7,V]
  ASSERT_EQ(logp.sizes(), (std::vector<int64_t>{7, kVocab}));
  EXPECT_TRUE(torch::allclose(logp.logsumexp(-1), torch::zeros({7}), 0.0, 1e-5));
}

TEST(ModelOutput, AdaptiveLayerShapesFollowCutoffsAndDiv) {
  auto layer = make_layer();
  EXPECT_EQ(layer->clusters(), 2);
  EXPECT_EQ(layer->head->weight.sizes(), (std::vector<int64_t>{10 + 2, kDim}));
  EXPECT_EQ(layer->tail_in[0]->weight.sizes(), (std::vector<int64_t>{8, kDim}));
  EXPECT_EQ(layer->tail_out[0]->weight.sizes(), (std::vector<int64_t>{15, 8}));
  EXPECT_EQ(layer->tail_in[1]->weight.sizes(), (std::vector<int64_t>{4, kDim}));
  EXPECT_EQ(layer->tail_out[1]->weight.sizes(), (std::vector<int64_t>{15, 4}));
}

TEST(ModelOutput, AdaptiveTrainingTermsAgreeWithTheFullDistribution) {
  auto layer = make_layer();
  auto targets = boundary_targets();
  auto hidden = torch::randn({targets.size(0), kDim});
  auto terms = adaptive_softmax_terms(*layer, hidden, targets);
  auto logp = adaptive_log_probs(*layer, hidden);  // [N,V]
  auto expected_nll = -logp.gather(1, targets.unsqueeze(1)).squeeze(1);
  EXPECT_TRUE(torch::allclose(terms.nll, expected_nll, 1e-5, 1e-5));
  EXPECT_TRUE(torch::equal(terms.predicted, logp.argmax(-1)));

  // The same gradients reach every parameter through either path.
  terms.nll.sum().backward();
  std::vector<torch::Tensor> cheap;
  for (const auto& p : layer->parameters()) cheap.push_back(p.grad().clone());
  layer->zero_grad();
  expected_nll.sum().backward();
  auto parameters = layer->parameters();
  for (size_t i = 0; i < parameters.size(); ++i) {
    EXPECT_TRUE(torch::allclose(cheap[i], parameters[i].grad(), 1e-4, 1e-6)) << "parameter " << i;
  }
}

TEST(ModelOutput, AdaptiveSmoothingAveragesTheHeadAndTheTargetsTail) {
  auto layer = make_layer();
  auto hidden = torch::randn({3, kDim});
  auto targets = torch::tensor({4, 12, 30}, torch::kLong);  // head, cluster 0, cluster 1
  auto terms = adaptive_softmax_terms(*layer, hidden, targets, /*predict=*/false);
  EXPECT_FALSE(terms.predicted.defined());
  torch::NoGradGuard no_grad;
  auto head = torch::log_softmax(torch::linear(hidden, layer->head->weight, layer->head->bias), -1);
  auto tail = [&](int64_t i) {
    auto narrow = torch::linear(hidden, layer->tail_in[i]->weight);
    return torch::log_softmax(
        torch::linear(narrow, layer->tail_out[i]->weight, layer->tail_out[i]->bias), -1);
  };
  auto expected = -head.mean(-1);
  expected[1] -= tail(0)[1].mean();
  expected[2] -= tail(1)[2].mean();
  EXPECT_TRUE(torch::allclose(terms.smoothing, expected, 1e-5, 1e-5));
}

TEST(ModelOutput, AdaptiveTermsHandleClustersWithoutTargets) {
  auto layer = make_layer();
  auto targets = torch::tensor({0, 3, 9}, torch::kLong);  // head only
  auto hidden = torch::randn({3, kDim}, torch::requires_grad());
  auto terms = adaptive_softmax_terms(*layer, hidden, targets);
  terms.nll.sum().backward();
  EXPECT_TRUE(torch::isfinite(hidden.grad()).all().item<bool>());
  EXPECT_FALSE(layer->tail_out[0]->weight.grad().defined());
}

TEST(ModelOutput, FullSoftmaxTermsReproduceLabelSmoothedCrossEntropy) {
  torch::manual_seed(5);
  auto logits = torch::randn({6, 11});
  auto targets = torch::tensor({0, 3, 10, 7, 7, 1}, torch::kLong);
  auto terms = full_softmax_terms(logits, targets);
  const double eps = 0.1;
  auto ours = ((1 - eps) * terms.nll + eps * terms.smoothing).mean();
  auto torch_ce = torch::nn::functional::cross_entropy(
      logits, targets, torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(eps));
  EXPECT_NEAR(ours.item<double>(), torch_ce.item<double>(), 1e-6);
  EXPECT_TRUE(torch::equal(terms.predicted, logits.argmax(-1)));
}

TEST(ModelOutput, BadCutoffsAreRejectedWithTheirPosition) {
  auto message = [](std::vector<int64_t> cutoffs, int64_t div = 4) {
    try {
      AdaptiveSoftmax(kDim, kVocab, cutoffs, div);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message({10, 10}).find("at position 1"), std::string::npos);
  EXPECT_NE(message({10, 40}).find("within (0, 40)"), std::string::npos);
  EXPECT_NE(message({0}).find("at position 0"), std::string::npos);
  EXPECT_NE(message({}).find("at least one cutoff"), std::string::npos);
  EXPECT_NE(message({10}, 0).find("div"), std::string::npos);
}

// Each layer's terms agree with log_softmax of its scores; `smoothing` too for a full softmax
// (the adaptive one smooths per softmax instead).
void expect_terms_agree_with_scores(OutputLayerImpl& layer, bool full_smoothing) {
  auto targets = boundary_targets();
  auto hidden = torch::randn({targets.size(0), kDim});
  auto logp = torch::log_softmax(layer.scores(hidden), -1);  // [N,V]
  ASSERT_EQ(logp.sizes(), (std::vector<int64_t>{targets.size(0), kVocab}));
  auto terms = layer.terms(hidden, targets, /*predict=*/true);
  EXPECT_TRUE(
      torch::allclose(terms.nll, -logp.gather(1, targets.unsqueeze(1)).squeeze(1), 1e-5, 1e-5));
  EXPECT_TRUE(torch::equal(terms.predicted, logp.argmax(-1)));
  if (full_smoothing) {
    EXPECT_TRUE(torch::allclose(terms.smoothing, -logp.mean(-1), 1e-5, 1e-5));
  }
}

TEST(ModelOutput, EveryOutputLayerTermsAgreeWithItsScores) {
  torch::manual_seed(4);
  FullSoftmax full(kDim, kVocab);
  TiedSoftmax tied(torch::nn::Embedding(kVocab, kDim));
  tied->bias.data().normal_();
  auto adaptive = make_layer();
  expect_terms_agree_with_scores(*full, true);
  expect_terms_agree_with_scores(*tied, true);
  expect_terms_agree_with_scores(*adaptive, false);
  EXPECT_TRUE(full->argmax_is_cheap());
  EXPECT_TRUE(tied->argmax_is_cheap());
  EXPECT_FALSE(adaptive->argmax_is_cheap());
}

TEST(ModelOutput, TiedLayerScoresThroughTheEmbeddingItDoesNotOwn) {
  torch::manual_seed(4);
  torch::nn::Embedding embedding(kVocab, kDim);
  TiedSoftmax tied(embedding);
  EXPECT_EQ(tied->parameters().size(), 1u);  // its bias; the embedding belongs to its owner
  auto hidden = torch::randn({3, 2, kDim});
  auto scores = tied->scores(hidden);  // [3,2,V]
  EXPECT_TRUE(torch::allclose(scores, torch::matmul(hidden, embedding->weight.t()), 0.0, 1e-5));
  torch::NoGradGuard no_grad;
  embedding->weight.mul_(2.0);
  EXPECT_TRUE(torch::allclose(tied->scores(hidden), 2.0 * scores, 0.0, 1e-5));
}

TEST(ModelOutput, EachModelOutputLayerKeepsItsCheckpointNames) {
  auto options = testing::small_options();
  options.tie_embeddings = true;
  Seq2Seq tied(options);
  EXPECT_NE(tied->named_parameters().find("out_bias"), nullptr);
  EXPECT_EQ(tied->named_parameters().find("out_proj.weight"), nullptr);
  EXPECT_TRUE(tied->output().argmax_is_cheap());
  options.tie_embeddings = false;
  Seq2Seq untied(options);
  EXPECT_NE(untied->named_parameters().find("out_proj.weight"), nullptr);
  EXPECT_NE(untied->named_parameters().find("out_proj.bias"), nullptr);
  EXPECT_TRUE(untied->output().argmax_is_cheap());
  options.adaptive_cutoffs = {9, 20};
  Seq2Seq adaptive(options);
  EXPECT_NE(adaptive->named_parameters().find("adaptive.head.weight"), nullptr);
  EXPECT_NE(adaptive->named_parameters().find("adaptive.tail_out1.bias"), nullptr);
  EXPECT_FALSE(adaptive->output().argmax_is_cheap());
  // Tying shares the embedding: one matrix fewer than untied, plus nothing counted twice.
  EXPECT_EQ(count_parameters(*untied) - count_parameters(*tied),
            options.d_model * options.tgt_vocab);
}

TEST(ModelOutput, AdaptiveModelDecodesStepByStepLikeForward) {
  auto options = testing::small_options(Norm::kPre);
  options.adaptive_cutoffs = {9, 20};
  torch::manual_seed(8);
  Seq2Seq model(options);
  model->eval();
  torch::NoGradGuard no_grad;
  auto src = testing::pad_rows({{4, 5, 6, 7}, {10, 11}});
  auto tgt = testing::pad_rows({{1, 5, 26, 7, 12}, {1, 11, 3, 28, 14}});
  auto scores = model(src, tgt);  // [B,T,V] log-probabilities
  EXPECT_TRUE(torch::allclose(scores.logsumexp(-1), torch::zeros({2, 5}), 0.0, 1e-5));
  auto state = model->start(model->encode(src));
  for (int64_t t = 0; t < tgt.size(1); ++t) {
    auto step = model->decode_step(state, tgt.select(1, t));  // [B,V]
    EXPECT_TRUE(torch::allclose(step, scores.select(1, t), 0.0, 1e-5)) << "step " << t;
  }
}

TEST(ModelOutput, AdaptiveSoftmaxCannotBeTied) {
  auto options = testing::small_options();
  options.adaptive_cutoffs = {9};
  options.tie_embeddings = true;
  EXPECT_THROW(Seq2Seq{options}, std::invalid_argument);
}

}  // namespace
}  // namespace atento::model
