#pragma once
// Which words translate which: p(Spanish word | English word), learned from the training pairs
// by IBM Model 1 (Brown, Della Pietra, Della Pietra and Mercer 1993, "The Mathematics of
// Statistical Machine Translation"), the lexical model under every statistical word aligner.
// A Spanish word may also come from no English word at all (Model 1's empty word: "que",
// "se", the "a" before a person). atento-train writes it into the model directory beside the
// tokenizers; app/translate/word_alignment.h weighs the model's cross attention with it, where
// attention alone spreads over the neighbours of the words it links.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/corpus.h"

namespace atento::data {

/// The lexicon's file in a model directory.
inline constexpr const char* kWordLexiconFile = "lexicon.tsv";

/// The largest lexicon file read (the spa-eng corpus gives about 2 MB).
inline constexpr std::uint64_t kMaxWordLexiconBytes = 256 << 20;

/// The form a word is looked up by: lower-cased, its punctuation left out, as
/// book_standardize reads it (`target`: the Spanish side, ¿ and ¡ left out too). "" for a word
/// of punctuation only, which the lexicon does not hold.
std::string lexicon_word(std::string_view word, bool target);

class WordLexicon {
 public:
  /// IBM Model 1 trained on `pairs` (their words as lexicon_word reads them): `iterations`
  /// rounds of expectation-maximisation from uniform probabilities. Only the first pairs whose
  /// word-pair counts add up to about 16 million are read (all of spa-eng's training split),
  /// which bounds time and memory on larger corpora. Keeps the probabilities of at least
  /// kMinProbability.
  static WordLexicon train(const std::vector<Pair>& pairs, int iterations = 5);

  /// Reads a file that save() wrote; throws std::runtime_error "<path>:<line>: <reason>" for
  /// a malformed line, and naming the file when it cannot be read.
  static WordLexicon load(const std::string& path);
  /// Writes `English<TAB>Spanish<TAB>probability` lines (the empty word as an empty English
  /// field), sorted, atomically.
  void save(const std::string& path) const;

  /// p(target | source), both words as lexicon_word returns them; `source` "" is the empty
  /// word. 0 for a pair the lexicon does not hold.
  float probability(const std::string& source, const std::string& target) const;
  /// The number of (source, target) pairs held.
  size_t size() const;

  /// Probabilities under this are left out of a trained lexicon.
  static constexpr float kMinProbability = 0.01f;

 private:
  /// Adds p(target | source) (replacing an earlier one); entries_ is sorted afterwards.
  void add(const std::string& source, const std::string& target, float p);
  void sort_entries();

  // Compact, as every program that loads a model holds it: words numbered once, and the
  // probabilities in one sorted array keyed by (source number << 32 | target number).
  std::unordered_map<std::string, uint32_t> source_ids_, target_ids_;
  std::vector<std::pair<uint64_t, float>> entries_;
};

}  // namespace atento::data
