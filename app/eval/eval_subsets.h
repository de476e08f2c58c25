#pragma once
// Subsets of a test split that measure how a model does on text unlike its training data, and
// a measure of omissions. The spa-eng test split flatters a model: ~18% of its English sources
// occur in training too, and most of its sentences are short phrasebook lines. The subsets here
// keep the pairs that share no sentence with training and hold a word that training barely
// knows, or are longer than training's median sentence.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "data/corpus.h"

namespace atento {

/// What the training split says about other sentence pairs.
struct TrainingProfile {
  std::unordered_set<std::string> sources;  ///< English sides, verbatim
  std::unordered_set<std::string> targets;  ///< Spanish sides, verbatim
  /// How often each English word (lower-cased, punctuation stripped) occurs.
  std::unordered_map<std::string, int64_t> source_word_counts;
  int64_t median_source_words = 0;
  double target_per_source_word = 1.0;  ///< Spanish words per English word over the split
};

TrainingProfile profile_training(const std::vector<data::Pair>& train);

/// A word is rare when training holds it at most this many times (never included).
inline constexpr int64_t kRareWordCount = 2;

/// The subsets atento-eval reports besides the whole file.
enum class Subset {
  kUnseen,   ///< the English source never occurs in training
  kNewRare,  ///< neither side occurs in training, and the source has a rare word
  kNewLong,  ///< neither side occurs in training, and the source is longer than the median
};
inline constexpr Subset kSubsets[] = {Subset::kUnseen, Subset::kNewRare, Subset::kNewLong};

/// "unseen", "new_rare", "new_long": the keys of atento-eval's JSON.
const char* subset_name(Subset subset);

bool in_subset(const TrainingProfile& profile, const data::Pair& pair, Subset subset);

/// Words of `text` as the profile counts them (lower-cased, punctuation stripped; `spanish`
/// also strips ¿ and ¡).
std::vector<std::string> profile_words(const std::string& text, bool spanish = false);

/// An output with fewer words than this share of what its source predicts is "short": most
/// likely a dropped clause or sentence. Under 1% of spa-eng's reference translations are.
inline constexpr double kShortShare = 0.5;

/// Whether `translation` is short for `source` (kShortShare × source words × the training
/// split's Spanish words per English word).
bool is_short(const TrainingProfile& profile, const std::string& source,
              const std::string& translation);

/// The short translations, to read what the share counts: one line per short one, in the
/// order of `sources`, "source<TAB>translation<TAB>unseen|seen<TAB>reference<TAB>...", where
/// unseen means the source never occurs in training (tabs inside a text become spaces).
std::string short_output_lines(const TrainingProfile& profile,
                               const std::vector<std::string>& sources,
                               const std::vector<std::vector<std::string>>& references,
                               const std::vector<std::string>& translations);

}  // namespace atento
