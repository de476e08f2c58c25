// The validation decision (new best or not, early-stopping counters) and the stop reasons.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "app/train/stop_reason.h"
#include "app/train/validation_decision.h"

namespace atento {
namespace {

TrainState validated(int64_t step, double best, int64_t best_step, int64_t since) {
  TrainState s;
  s.step = step;
  s.best_value = best;
  s.best_step = best_step;
  s.evals_since_best = since;
  s.last_eval_step = best_step;
  return s;
}

TEST(ValidationDecision, TheFirstValueIsAlwaysTheBest) {
  TrainState fresh;
  fresh.step = 30;
  for (auto metric : {BestMetric::kAccuracy, BestMetric::kLoss, BestMetric::kBleu}) {
    auto d = decide_validation(fresh, metric, 4.5);
    EXPECT_TRUE(d.better);
    EXPECT_EQ(d.state.best_value, 4.5);
    EXPECT_EQ(d.state.best_step, 30);
    EXPECT_EQ(d.state.evals_since_best, 0);
    EXPECT_EQ(d.state.last_eval_step, 30);
  }
}

TEST(ValidationDecision, AccuracyImprovesUpwards) {
  auto state = validated(60, 0.40, 30, 1);
  auto up = decide_validation(state, BestMetric::kAccuracy, 0.45);
  EXPECT_TRUE(up.better);
  EXPECT_EQ(up.state.best_value, 0.45);
  EXPECT_EQ(up.state.best_step, 60);
  EXPECT_EQ(up.state.evals_since_best, 0);
  for (double worse : {0.35, 0.40}) {  // a tie is no improvement
    auto d = decide_validation(state, BestMetric::kAccuracy, worse);
    EXPECT_FALSE(d.better) << worse;
    EXPECT_EQ(d.state.best_value, 0.40);
    EXPECT_EQ(d.state.best_step, 30);
    EXPECT_EQ(d.state.evals_since_best, 2);
    EXPECT_EQ(d.state.last_eval_step, 60);
  }
}

TEST(ValidationDecision, LossImprovesDownwards) {
  auto state = validated(90, 2.0, 60, 0);
  auto down = decide_validation(state, BestMetric::kLoss, 1.9);
  EXPECT_TRUE(down.better);
  EXPECT_EQ(down.state.best_value, 1.9);
  EXPECT_EQ(down.state.best_step, 90);
  auto up = decide_validation(state, BestMetric::kLoss, 2.1);
  EXPECT_FALSE(up.better);
  EXPECT_EQ(up.state.best_value, 2.0);
  EXPECT_EQ(up.state.evals_since_best, 1);
  EXPECT_EQ(up.state.last_eval_step, 90);
}

TEST(ValidationDecision, BleuImprovesUpwardsAndCountsTowardsPatience) {
  auto state = validated(120, 21.5, 90, 0);
  auto up = decide_validation(state, BestMetric::kBleu, 22.0);
  EXPECT_TRUE(up.better);
  EXPECT_EQ(up.state.best_value, 22.0);
  EXPECT_EQ(up.state.best_step, 120);
  EXPECT_EQ(up.state.evals_since_best, 0);
  for (double worse : {21.0, 21.5}) {  // a tie is no improvement
    auto d = decide_validation(state, BestMetric::kBleu, worse);
    EXPECT_FALSE(d.better) << worse;
    EXPECT_EQ(d.state.best_value, 21.5);
    EXPECT_EQ(d.state.best_step, 90);
    EXPECT_EQ(d.state.evals_since_best, 1);
    EXPECT_EQ(d.state.last_eval_step, 120);
  }
  // Patience reads evals_since_best whatever the metric.
  TrainOptions t;
  t.max_epochs = 0;
  t.patience = 2;
  auto once = decide_validation(state, BestMetric::kBleu, 20.0).state;
  EXPECT_EQ(stop_reason(t, once, 0.0), "");
  auto twice = decide_validation(once, BestMetric::kBleu, 21.0).state;
  EXPECT_EQ(stop_reason(t, twice, 0.0), "early_stopping");
}

TEST(ValidationDecision, TheJudgedFigureIsTheMetrics) {
  ValidationFigures figures;
  figures.loss = 2.5;
  figures.accuracy = 0.4;
  EXPECT_EQ(judged_figure(BestMetric::kLoss, figures), 2.5);
  EXPECT_EQ(judged_figure(BestMetric::kAccuracy, figures), 0.4);
  EXPECT_THROW(judged_figure(BestMetric::kBleu, figures), std::logic_error);  // none computed
  figures.bleu = 17.25;
  EXPECT_EQ(judged_figure(BestMetric::kBleu, figures), 17.25);
  EXPECT_EQ(judged_figure(BestMetric::kAccuracy, figures), 0.4);
}

TEST(ValidationDecision, TheOtherCountersAreLeftAlone) {
  auto state = validated(90, 2.0, 60, 0);
  state.epoch = 3;
  state.batch_in_epoch = 7;
  state.target_tokens = 1234;
  state.elapsed_s = 5.5;
  auto d = decide_validation(state, BestMetric::kLoss, 1.0);
  EXPECT_EQ(d.state.step, 90);
  EXPECT_EQ(d.state.epoch, 3);
  EXPECT_EQ(d.state.batch_in_epoch, 7);
  EXPECT_EQ(d.state.target_tokens, 1234);
  EXPECT_EQ(d.state.elapsed_s, 5.5);
}

TEST(ValidationDecision, IsBetterByMetric) {
  EXPECT_TRUE(is_better(BestMetric::kAccuracy, 0.5, NAN));
  EXPECT_TRUE(is_better(BestMetric::kLoss, 9.0, NAN));
  EXPECT_TRUE(is_better(BestMetric::kAccuracy, 0.6, 0.5));
  EXPECT_FALSE(is_better(BestMetric::kAccuracy, 0.4, 0.5));
  EXPECT_TRUE(is_better(BestMetric::kLoss, 0.4, 0.5));
  EXPECT_FALSE(is_better(BestMetric::kLoss, 0.6, 0.5));
  EXPECT_TRUE(is_better(BestMetric::kBleu, 3.0, NAN));
  EXPECT_TRUE(is_better(BestMetric::kBleu, 30.1, 30.0));
  EXPECT_FALSE(is_better(BestMetric::kBleu, 29.9, 30.0));
}

TrainOptions no_limits() {
  TrainOptions t;
  t.max_steps = 0;
  t.max_epochs = 0;
  t.time_budget_minutes = 0;
  t.patience = 0;
  return t;
}

TEST(StopReason, NoLimitMeansGoOn) {
  TrainState s;
  s.step = 1000000;
  s.epoch = 1000;
  s.evals_since_best = 1000;
  EXPECT_EQ(stop_reason(no_limits(), s, 1e9), "");
}

TEST(StopReason, EachLimitAtItsThreshold) {
  TrainState s;
  auto t = no_limits();
  t.max_steps = 60;
  s.step = 59;
  EXPECT_EQ(stop_reason(t, s, 0), "");
  s.step = 60;
  EXPECT_EQ(stop_reason(t, s, 0), "max_steps");

  t = no_limits();
  t.max_epochs = 3;
  s = TrainState{};
  s.epoch = 2;
  EXPECT_EQ(stop_reason(t, s, 0), "");
  s.epoch = 3;
  EXPECT_EQ(stop_reason(t, s, 0), "max_epochs");

  t = no_limits();
  t.time_budget_minutes = 2;
  s = TrainState{};
  EXPECT_EQ(stop_reason(t, s, 119.9), "");
  EXPECT_EQ(stop_reason(t, s, 120.0), "time_budget");

  t = no_limits();
  t.patience = 4;
  s.evals_since_best = 3;
  EXPECT_EQ(stop_reason(t, s, 0), "");
  s.evals_since_best = 4;
  EXPECT_EQ(stop_reason(t, s, 0), "early_stopping");
}

TEST(StopReason, StepsComeBeforeEpochsTimeAndPatience) {
  TrainOptions t;
  t.max_steps = 10;
  t.max_epochs = 1;
  t.time_budget_minutes = 1;
  t.patience = 1;
  TrainState s;
  s.step = 10;
  s.epoch = 1;
  s.evals_since_best = 1;
  EXPECT_EQ(stop_reason(t, s, 60), "max_steps");
  s.step = 9;
  EXPECT_EQ(stop_reason(t, s, 60), "max_epochs");
  s.epoch = 0;
  EXPECT_EQ(stop_reason(t, s, 60), "time_budget");
  EXPECT_EQ(stop_reason(t, s, 59), "early_stopping");
}

TEST(FractionDone, TheNearestLimitCountsAndUnknownIsNegative) {
  TrainState s;
  s.step = 25;
  s.epoch = 1;
  s.batch_in_epoch = 5;
  EXPECT_LT(fraction_done(no_limits(), s, 30, 10), 0.0);
  auto t = no_limits();
  t.max_steps = 100;
  EXPECT_DOUBLE_EQ(fraction_done(t, s, 30, 10), 0.25);
  t.max_epochs = 3;  // 1.5 of 3 epochs
  EXPECT_DOUBLE_EQ(fraction_done(t, s, 30, 10), 0.5);
  t.time_budget_minutes = 1;  // 30 s of 60
  EXPECT_DOUBLE_EQ(fraction_done(t, s, 30, 10), 0.5);
  EXPECT_DOUBLE_EQ(fraction_done(t, s, 600, 10), 1.0);  // never past the end
}

}  // namespace
}  // namespace atento
