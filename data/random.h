#pragma once
// The data pipeline's own PRNG: splits and batch orders must be identical on every platform
// and standard library, which std::mt19937 + std::shuffle/uniform_int_distribution do not
// promise (the distributions are implementation-defined).

#include <cstdint>
#include <utility>
#include <vector>

namespace atento::data {

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, full-period, good enough for shuffling.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform integer in [0, bound), bound > 0; rejection sampling keeps it unbiased.
  uint64_t below(uint64_t bound) {
    const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % bound);
    uint64_t x = next();
    while (x >= limit) x = next();
    return x % bound;
  }

 private:
  uint64_t state_;
};

/// Mixes several 64-bit values into one seed (e.g. the configured seed and the epoch).
inline uint64_t mix_seed(uint64_t a, uint64_t b) {
  SplitMix64 rng(a ^ (b * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull));
  return rng.next();
}

/// Fisher-Yates shuffle with SplitMix64.
template <typename T>
void shuffle_in_place(std::vector<T>& items, SplitMix64& rng) {
  for (size_t i = items.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(rng.below(i));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace atento::data
