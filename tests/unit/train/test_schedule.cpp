// Learning-rate schedules: warm-up, inverse square root, and the linear decay to 0 at max_steps
// or at the end of the time budget. (The config error for a linear schedule with neither is in
// test_app_config.cpp.)
#include <gtest/gtest.h>

#include "app/common/config.h"
#include "app/train/schedule.h"

namespace atento {
namespace {

TrainOptions options(LrSchedule schedule, int64_t warmup, int64_t max_steps) {
  TrainOptions t;
  t.lr = 0.002;
  t.schedule = schedule;
  t.warmup_steps = warmup;
  t.max_steps = max_steps;
  return t;
}

TEST(Schedule, WarmUpIsLinearForEverySchedule) {
  for (auto kind : {LrSchedule::kConstant, LrSchedule::kInverseSqrt, LrSchedule::kLinear}) {
    auto t = options(kind, 100, 1000);
    EXPECT_DOUBLE_EQ(learning_rate(t, 0, 0.0), 0.002 * 1 / 100);
    EXPECT_DOUBLE_EQ(learning_rate(t, 49, 0.0), 0.002 * 50 / 100);
    EXPECT_DOUBLE_EQ(learning_rate(t, 99, 0.0), 0.002);  // the peak, where warm-up ends
  }
}

TEST(Schedule, InverseSqrtHalvesAtFourTimesTheWarmUp) {
  auto t = options(LrSchedule::kInverseSqrt, 100, 0);
  EXPECT_DOUBLE_EQ(learning_rate(t, 399, 0.0), 0.001);
  EXPECT_DOUBLE_EQ(learning_rate(options(LrSchedule::kConstant, 100, 0), 399, 0.0), 0.002);
}

TEST(Schedule, LinearFallsInAStraightLineToZeroAtMaxSteps) {
  auto t = options(LrSchedule::kLinear, 100, 1100);
  // 1,001 steps from the peak (step 99) to 0 (step 1100): halfway is step 599.5.
  EXPECT_NEAR(learning_rate(t, 599, 0.0), 0.002 * 501 / 1001, 1e-15);
  EXPECT_NEAR(learning_rate(t, 600, 0.0), 0.002 * 500 / 1001, 1e-15);
  EXPECT_GT(learning_rate(t, 1099, 0.0), 0.0);  // the last step still learns
  EXPECT_EQ(learning_rate(t, 1100, 0.0), 0.0);
  EXPECT_EQ(learning_rate(t, 5000, 0.0), 0.0);  // never negative past the end
  double previous = learning_rate(t, 99, 0.0);
  for (int64_t step = 100; step <= 1100; ++step) {
    double lr = learning_rate(t, step, 0.0);
    ASSERT_LT(lr, previous) << step;
    // equal steps down: the difference is constant
    ASSERT_NEAR(previous - lr, 0.002 / 1001, 1e-15) << step;
    previous = lr;
  }
}

TEST(Schedule, LinearWithoutWarmUpStartsAtThePeak) {
  auto t = options(LrSchedule::kLinear, 0, 10);
  EXPECT_DOUBLE_EQ(learning_rate(t, 0, 0.0), 0.002);
  EXPECT_DOUBLE_EQ(learning_rate(t, 5, 0.0), 0.002 * 5 / 10);
  EXPECT_EQ(learning_rate(t, 10, 0.0), 0.0);
}

TEST(Schedule, LinearUnderATimeBudgetFollowsTheClock) {
  auto t = options(LrSchedule::kLinear, 100, 0);
  t.time_budget_minutes = 10;  // 600 s
  // Past the warm-up the step does not matter, only the share of the budget spent.
  EXPECT_DOUBLE_EQ(learning_rate(t, 500, 0.0), 0.002);
  EXPECT_DOUBLE_EQ(learning_rate(t, 500, 150.0), 0.002 * 0.75);
  EXPECT_DOUBLE_EQ(learning_rate(t, 9000, 150.0), 0.002 * 0.75);
  EXPECT_DOUBLE_EQ(learning_rate(t, 500, 450.0), 0.002 * 0.25);
  EXPECT_EQ(learning_rate(t, 500, 600.0), 0.0);
  EXPECT_EQ(learning_rate(t, 500, 700.0), 0.0);  // never negative past the end
  // The warm-up ramps as usual while it stays under the clock's line, and is capped by it.
  EXPECT_DOUBLE_EQ(learning_rate(t, 49, 10.0), 0.002 * 50 / 100);
  EXPECT_DOUBLE_EQ(learning_rate(t, 98, 300.0), 0.002 * 0.5);
}

TEST(Schedule, LinearWithStepsAndATimeBudgetTakesTheLowerLine) {
  auto t = options(LrSchedule::kLinear, 0, 1000);
  t.time_budget_minutes = 10;
  EXPECT_DOUBLE_EQ(learning_rate(t, 499, 60.0), 0.002 * 501 / 1000);  // steps lead
  EXPECT_DOUBLE_EQ(learning_rate(t, 99, 300.0), 0.002 * 0.5);         // the clock leads
}

TEST(Schedule, LinearWithFewerStepsThanTheWarmUpFollowsTheClockOnly) {
  auto t = options(LrSchedule::kLinear, 100, 20);  // the run ends inside the warm-up
  t.time_budget_minutes = 10;
  EXPECT_DOUBLE_EQ(learning_rate(t, 19, 0.0), 0.002 * 20 / 100);
  EXPECT_DOUBLE_EQ(learning_rate(t, 200, 300.0), 0.002 * 0.5);
}

TEST(Schedule, OtherSchedulesIgnoreTheClock) {
  auto t = options(LrSchedule::kInverseSqrt, 100, 0);
  t.time_budget_minutes = 10;
  EXPECT_DOUBLE_EQ(learning_rate(t, 399, 500.0), 0.001);
  t.schedule = LrSchedule::kConstant;
  EXPECT_DOUBLE_EQ(learning_rate(t, 399, 500.0), 0.002);
}

}  // namespace
}  // namespace atento
