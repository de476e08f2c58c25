// Weight averaging (model/moving_average.h): the decay schedule and the moving-average update.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "model/moving_average.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::small_options;

TEST(WeightAverage, DecayRisesFromTheFirstStepsToTheConfiguredValue) {
  EXPECT_DOUBLE_EQ(average_decay(0.999, 1), 2.0 / 11.0);
  EXPECT_DOUBLE_EQ(average_decay(0.999, 90), 91.0 / 100.0);
  EXPECT_DOUBLE_EQ(average_decay(0.999, 100000), 0.999);
  EXPECT_DOUBLE_EQ(average_decay(0.5, 3), 4.0 / 13.0);
  EXPECT_DOUBLE_EQ(average_decay(0.5, 30), 0.5);
}

TEST(WeightAverage, UpdateMovesEachParameterTowardsTheModel) {
  torch::manual_seed(1);
  Seq2Seq model(small_options());
  torch::manual_seed(2);
  Seq2Seq average(small_options());
  auto before = average->parameters();
  std::vector<torch::Tensor> expected;
  auto weights = model->parameters();
  for (size_t i = 0; i < before.size(); ++i) {
    expected.push_back(0.9 * before[i].detach().clone() + 0.1 * weights[i].detach());
  }
  update_average(*average, *model, 0.9);
  auto after = average->parameters();
  ASSERT_EQ(after.size(), expected.size());
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(torch::allclose(after[i], expected[i], 1e-6, 1e-7)) << "parameter " << i;
  }
  // The model itself is untouched and no graph is recorded through the average.
  for (const auto& p : after) EXPECT_FALSE(p.grad_fn());
}

TEST(WeightAverage, DecayZeroAndCopyGiveTheModelExactly) {
  torch::manual_seed(1);
  Seq2Seq model(small_options());
  torch::manual_seed(2);
  Seq2Seq a(small_options()), b(small_options());
  update_average(*a, *model, 0.0);
  copy_weights(*b, *model);
  auto pa = a->parameters(), pb = b->parameters(), pm = model->parameters();
  for (size_t i = 0; i < pm.size(); ++i) {
    EXPECT_TRUE(torch::equal(pa[i], pm[i])) << "parameter " << i;
    EXPECT_TRUE(torch::equal(pb[i], pm[i])) << "parameter " << i;
  }
}

TEST(WeightAverage, AveragingAConstantModelLeavesItUnchanged) {
  torch::manual_seed(1);
  Seq2Seq model(small_options());
  Seq2Seq average(small_options());
  copy_weights(*average, *model);
  for (int64_t step = 1; step <= 5; ++step) {
    update_average(*average, *model, average_decay(0.99, step));
  }
  auto pa = average->parameters(), pm = model->parameters();
  for (size_t i = 0; i < pm.size(); ++i) {
    EXPECT_TRUE(torch::allclose(pa[i], pm[i], 0.0, 1e-6)) << "parameter " << i;
  }
}

TEST(WeightAverage, DifferentArchitecturesAreRefused) {
  auto options = small_options();
  Seq2Seq model(options);
  options.decoder_layers = 1;
  Seq2Seq other(options);
  EXPECT_THROW(update_average(*other, *model, 0.5), c10::Error);
  EXPECT_THROW(copy_weights(*other, *model), c10::Error);
}

}  // namespace
}  // namespace atento::model
