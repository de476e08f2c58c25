// How new layers fill their parameters: training's random initialisation is the random stream
// of a plain LibTorch layer followed by the Glorot / normal draw, and under SkipInitialisation
// (a model about to be loaded) the same names and shapes with nothing drawn, so that loading
// its weights gives the model the loaded one computes.
#include <gtest/gtest.h>
#include <torch/nn/init.h>
#include <torch/torch.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/checkpoint.h"
#include "model/initialisation.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

std::map<std::string, std::vector<int64_t>> shapes(const torch::nn::Module& module) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const auto& [name, tensor] : named_state(module)) out[name] = tensor.sizes().vec();
  return out;
}

TEST(ModelInitialisation, GlorotLinearDrawsAsALinearLayerThenXavier) {
  torch::manual_seed(7);
  torch::nn::Linear expected(torch::nn::LinearOptions(12, 5));
  torch::nn::init::xavier_uniform_(expected->weight);
  const auto next_expected = torch::rand({3});
  torch::manual_seed(7);
  const auto linear = glorot_linear(12, 5);
  EXPECT_TRUE(torch::equal(linear->weight, expected->weight));
  EXPECT_TRUE(torch::equal(linear->bias, torch::zeros({5})));
  EXPECT_TRUE(torch::equal(torch::rand({3}), next_expected));  // the same stream position
  EXPECT_FALSE(glorot_linear(12, 5, /*bias=*/false)->bias.defined());
}

TEST(ModelInitialisation, NormalEmbeddingDrawsAsAnEmbeddingThenNormal) {
  torch::manual_seed(3);
  torch::nn::Embedding expected(torch::nn::EmbeddingOptions(9, 4));
  torch::nn::init::normal_(expected->weight, 0.0, 0.5);
  torch::manual_seed(3);
  EXPECT_TRUE(torch::equal(normal_embedding(9, 4, 0.5)->weight, expected->weight));
}

TEST(ModelInitialisation, SkippedLayersHaveTheirShapesAndDrawNothing) {
  torch::manual_seed(11);
  const auto untouched = torch::rand({4});
  torch::manual_seed(11);
  {
    const SkipInitialisation skip;
    auto linear = glorot_linear(6, 3);
    EXPECT_EQ(linear->weight.sizes().vec(), (std::vector<int64_t>{3, 6}));
    EXPECT_EQ(linear->bias.sizes().vec(), (std::vector<int64_t>{3}));
    EXPECT_EQ(linear->options.in_features(), 6);
    EXPECT_EQ(linear->options.out_features(), 3);
    EXPECT_TRUE(linear->weight.requires_grad());
    EXPECT_EQ(linear(torch::ones({2, 6})).sizes().vec(), (std::vector<int64_t>{2, 3}));
    auto embedding = normal_embedding(7, 5, 1.0);
    EXPECT_EQ(embedding->weight.sizes().vec(), (std::vector<int64_t>{7, 5}));
    EXPECT_EQ(embedding->options.num_embeddings(), 7);
    EXPECT_EQ(embedding(torch::tensor({0, 6})).sizes().vec(), (std::vector<int64_t>{2, 5}));
  }
  EXPECT_TRUE(torch::equal(torch::rand({4}), untouched));
}

TEST(ModelInitialisation, SkippingEndsWithItsScopeAndNests) {
  EXPECT_FALSE(initialisation_skipped());
  {
    const SkipInitialisation outer;
    {
      const SkipInitialisation inner;
      EXPECT_TRUE(initialisation_skipped());
    }
    EXPECT_TRUE(initialisation_skipped());
  }
  EXPECT_FALSE(initialisation_skipped());
}

// Every output layer (untied, tied, adaptive) and both position schemes: a model built under
// SkipInitialisation has the trained model's parameter names and shapes, and once its weights
// are assigned computes what the trained model does.
TEST(ModelInitialisation, ASkippedModelLoadsIntoTheSameModel) {
  auto untied = testing::small_options();
  auto tied = untied;
  tied.tie_embeddings = true;
  tied.src_vocab = tied.tgt_vocab;
  auto adaptive = untied;
  adaptive.adaptive_cutoffs = {10, 20};
  auto no_positions = untied;
  no_positions.positions = Positions::kNone;
  for (const auto& options : {untied, tied, adaptive, no_positions}) {
    torch::manual_seed(5);
    Seq2Seq trained(options);
    trained->eval();
    Seq2Seq built = [&] {
      const SkipInitialisation skip;
      return Seq2Seq(options);
    }();
    ASSERT_EQ(shapes(*built), shapes(*trained));
    NamedTensors stored;
    for (const auto& [name, tensor] : named_state(*trained)) stored[name] = tensor.clone();
    assign_weights(*built, std::move(stored), "trained");
    built->eval();
    const auto src = testing::pad_rows({{3, 4, 5, 6}, {7, 8}});
    const auto tgt = testing::pad_rows({{1, 9, 10}, {1, 11}});
    torch::NoGradGuard no_grad;
    EXPECT_TRUE(torch::equal(built->forward(src, tgt), trained->forward(src, tgt)));
  }
}

}  // namespace
}  // namespace atento::model
