// SIGINT/SIGTERM become a flag while a StopSignals lives; the previous handlers come back.
#include <gtest/gtest.h>

#include <csignal>

#include "app/common/stop_signals.h"

namespace atento {
namespace {

extern "C" void ignore_signal(int) {}

TEST(StopSignals, RecordsTheSignalReceived) {
  {
    StopSignals signals;
    EXPECT_EQ(signals.received(), 0);
    std::raise(SIGINT);
    EXPECT_EQ(signals.received(), SIGINT);
  }
  {
    StopSignals signals;  // a new instance starts clear
    EXPECT_EQ(signals.received(), 0);
    std::raise(SIGTERM);
    EXPECT_EQ(signals.received(), SIGTERM);
  }
}

TEST(StopSignals, RestoresThePreviousHandlers) {
  auto old_int = std::signal(SIGINT, ignore_signal);
  auto old_term = std::signal(SIGTERM, ignore_signal);
  { StopSignals signals; }
  EXPECT_EQ(std::signal(SIGINT, old_int), &ignore_signal);
  EXPECT_EQ(std::signal(SIGTERM, old_term), &ignore_signal);
}

}  // namespace
}  // namespace atento
