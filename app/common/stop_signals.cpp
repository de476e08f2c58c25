#include "app/common/stop_signals.h"

#include <atomic>
#include <csignal>

namespace atento {
namespace {

std::atomic<int> g_stop_signal{0};

extern "C" void on_stop_signal(int signal) { g_stop_signal.store(signal); }

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal.store(0);
  previous_int_ = std::signal(SIGINT, on_stop_signal);
  previous_term_ = std::signal(SIGTERM, on_stop_signal);
}

StopSignals::~StopSignals() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

int StopSignals::received() const { return g_stop_signal.load(); }

}  // namespace atento
