// Tests for app/serve/rate_limiter: N requests per client per minute, on an injected clock.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "app/serve/rate_limiter.h"
#include "tests/unit/serve/fake_clock.h"

namespace atento {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

using serve_test::FakeClock;

TEST(RateLimiter, AllowsNThenRefuses) {
  FakeClock t;
  RateLimiter limiter(3, 100, t.clock());
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_FALSE(limiter.allow("a"));
  EXPECT_FALSE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("b")) << "each client has its own limit";
}

TEST(RateLimiter, RefillsAtNPerMinute) {
  FakeClock t;
  RateLimiter limiter(6, 100, t.clock());  // one request every 10 s once the burst is spent
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(limiter.allow("a"));
  EXPECT_FALSE(limiter.allow("a"));
  EXPECT_DOUBLE_EQ(limiter.wait_seconds("a"), 10.0);
  t.now += seconds(9);
  EXPECT_FALSE(limiter.allow("a"));
  t.now += seconds(1);
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_FALSE(limiter.allow("a"));
  t.now += seconds(600);  // never more than N saved up
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(limiter.allow("a")) << i;
  EXPECT_FALSE(limiter.allow("a"));
}

TEST(RateLimiter, RefusedRequestsDoNotCount) {
  FakeClock t;
  RateLimiter limiter(1, 100, t.clock());
  EXPECT_TRUE(limiter.allow("a"));
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(limiter.allow("a"));
  t.now += seconds(60);
  EXPECT_TRUE(limiter.allow("a"));
}

TEST(RateLimiter, ZeroIsUnlimited) {
  RateLimiter limiter(0);
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(limiter.allow("a"));
  EXPECT_EQ(limiter.clients(), 0u) << "nothing is remembered without a limit";
  EXPECT_EQ(limiter.wait_seconds("a"), 0.0);
}

TEST(RateLimiter, ManyClientsStayBounded) {
  FakeClock t;
  RateLimiter limiter(2, 50, t.clock());
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(limiter.allow("10.0." + std::to_string(i)));
    t.now += milliseconds(1);
  }
  EXPECT_EQ(limiter.clients(), 50u);
}

TEST(RateLimiter, ForgetsTheClientSeenLongestAgo) {
  FakeClock t;
  RateLimiter limiter(1, 2, t.clock());
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("b"));
  EXPECT_FALSE(limiter.allow("a"));  // a is now the most recently seen
  EXPECT_TRUE(limiter.allow("c"));   // b is forgotten, not a
  EXPECT_FALSE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("b")) << "b was forgotten: a fresh bucket";
}

}  // namespace
}  // namespace atento
