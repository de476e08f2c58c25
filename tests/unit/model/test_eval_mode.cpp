// EvalModeGuard: eval mode without gradients inside, the previous mode back on every exit.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>

#include "model/eval_mode.h"

namespace atento::model {
namespace {

torch::nn::Sequential small_module() {
  return torch::nn::Sequential(torch::nn::Linear(3, 3), torch::nn::Dropout(0.5));
}

TEST(ModelEvalMode, EvalWithoutGradientsInsideThenTrainingAgain) {
  auto module = small_module();
  module->train();
  {
    EvalModeGuard guard(*module);
    EXPECT_FALSE(module->is_training());
    EXPECT_FALSE((*module)[1]->is_training());
    EXPECT_FALSE(torch::GradMode::is_enabled());
    EXPECT_FALSE(module->forward(torch::ones({2, 3})).requires_grad());
  }
  EXPECT_TRUE(module->is_training());
  EXPECT_TRUE((*module)[1]->is_training());
  EXPECT_TRUE(torch::GradMode::is_enabled());
}

TEST(ModelEvalMode, RestoresTrainingModeAfterAnException) {
  auto module = small_module();
  module->train();
  EXPECT_THROW(
      {
        EvalModeGuard guard(*module);
        throw std::runtime_error("failure inside evaluation");
      },
      std::runtime_error);
  EXPECT_TRUE(module->is_training());
  EXPECT_TRUE((*module)[0]->is_training());
  EXPECT_TRUE(torch::GradMode::is_enabled());
}

TEST(ModelEvalMode, LeavesAModelInEvalModeInEvalMode) {
  auto module = small_module();
  module->eval();
  { EvalModeGuard guard(*module); }
  EXPECT_FALSE(module->is_training());
}

TEST(ModelEvalMode, AModelInEvalModeIsOnlyRead) {
  // atento-serve's workers decode with one model at once: the guard must not write its flags.
  // A child left in training mode shows that eval() was not called again.
  auto module = small_module();
  module->eval();
  (*module)[1]->train();
  {
    EvalModeGuard guard(*module);
    EXPECT_TRUE((*module)[1]->is_training());
    EXPECT_FALSE(torch::GradMode::is_enabled());
  }
  EXPECT_FALSE(module->is_training());
  EXPECT_TRUE((*module)[1]->is_training());
}

}  // namespace
}  // namespace atento::model
