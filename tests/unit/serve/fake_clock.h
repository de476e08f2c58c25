#pragma once
// A steady clock that tests move by hand, for the server's time-based parts (rate limiter,
// translated files).
#include <chrono>
#include <functional>

namespace atento::serve_test {

struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  std::function<std::chrono::steady_clock::time_point()> clock() {
    return [this] { return now; };
  }
};

}  // namespace atento::serve_test
