#pragma once
// Synthetic negatives for a "is this pair a translation?" classifier, as Bicleaner-AI makes
// them from clean parallel data: each noisy pair is built from clean ones by one kind of
// damage that web-crawled corpora show. Seeded with the data pipeline's own PRNG, so the same
// clean pairs and seed give byte-identical output on every platform.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/corpus.h"
#include "data/random.h"

namespace atento::data {

/// How a negative pair was made (kClean: a positive, the pair as it is).
enum class NoiseKind {
  kClean,
  kMisaligned,    ///< the Spanish of a random other pair
  kNeighbour,     ///< the Spanish of the pair closest in Spanish length (a near-miss alignment)
  kTruncated,     ///< one side cut to its first 30-70% of words
  kDeletion,      ///< about a third of one side's words deleted, anywhere
  kUntranslated,  ///< the English copied to the Spanish side
  kSwapped,       ///< the two sides exchanged (wrong language on both sides)
};

/// Every negative kind, in a fixed order.
const std::vector<NoiseKind>& negative_kinds();

/// "clean", "misaligned", "neighbour", "truncated", "deletion", "untranslated", "swapped".
std::string noise_kind_name(NoiseKind kind);
/// The kind named `name`, or nothing.
std::optional<NoiseKind> parse_noise_kind(const std::string& name);

/// One classifier example.
struct LabelledPair {
  Pair pair;
  bool positive = true;
  NoiseKind kind = NoiseKind::kClean;
};

struct PairNoiseOptions {
  /// Share of negatives in the output, in [0, 1): n clean pairs give n positives and
  /// round(n · f / (1 − f)) negatives (0.5: as many negatives as positives).
  double noise_fraction = 0.5;
  /// Kinds of negatives, used in turn so that each gets the same share.
  std::vector<NoiseKind> kinds = negative_kinds();
  /// Seed of every random choice (use different seeds for train, valid and test).
  uint64_t seed = 1;
};

/// The clean pairs as positives plus the negatives, shuffled. Throws std::invalid_argument
/// for a fraction out of range, no kinds, or fewer than two clean pairs with negatives asked.
std::vector<LabelledPair> make_noisy_pairs(const std::vector<Pair>& clean,
                                           const PairNoiseOptions& options);

// The kinds one at a time (`i` indexes `clean`); each returns the damaged pair, or nothing
// when pair i cannot be damaged that way (a one-word side cannot lose words; every other
// Spanish side is identical).
std::optional<Pair> misaligned(const std::vector<Pair>& clean, size_t i, SplitMix64& rng);
/// `by_length`: indices of `clean` sorted by the Spanish side's length in words; the pair
/// damaged is clean[by_length[rank]], given the Spanish of the nearest pair in that order
/// whose Spanish differs.
std::optional<Pair> neighbour(const std::vector<Pair>& clean, const std::vector<size_t>& by_length,
                              size_t rank, SplitMix64& rng);
std::optional<Pair> truncated(const Pair& pair, SplitMix64& rng);
std::optional<Pair> with_deletions(const Pair& pair, SplitMix64& rng);
std::optional<Pair> untranslated(const Pair& pair);
std::optional<Pair> swapped(const Pair& pair);

/// Whitespace-separated words of `text`.
std::vector<std::string> split_words(const std::string& text);

}  // namespace atento::data

namespace atento::data {

/// Writes `label<TAB>noise_type<TAB>English<TAB>Spanish` lines (label 1 = translation),
/// atomically.
void write_labelled_pairs(const std::string& path, const std::vector<LabelledPair>& pairs);

/// Reads write_labelled_pairs' format; throws std::runtime_error naming the file and line of
/// the first malformed line.
std::vector<LabelledPair> read_labelled_pairs(const std::string& path);

}  // namespace atento::data
