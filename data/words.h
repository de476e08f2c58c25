#pragma once
// The book's word-level vectorizer (Keras TextVectorization as used in "Deep Learning with
// Python", 2nd ed., ch. 11): standardise, split on whitespace, look words up in a
// frequency-ordered vocabulary.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "data/tokenizer.h"

namespace atento::data {

/// Id 0: the padding/mask token "" (Keras' mask token).
inline constexpr const char* kWordsPad = "";
/// Id 1: out-of-vocabulary words.
inline constexpr const char* kWordsUnk = "[UNK]";
/// Target-side sentence markers, the book's "[start] … [end]".
inline constexpr const char* kWordsStart = "[start]";
inline constexpr const char* kWordsEnd = "[end]";

/// The largest vocabulary file read (a 15,000-word vocabulary holds about 150 KB).
inline constexpr std::uint64_t kMaxVocabularyFileBytes = 64 << 20;

/// Builds a vocabulary from `texts` as Keras' adapt() does: "" (id 0), "[UNK]" (id 1), then the
/// words of book_standardize(text, target) by descending count, ties broken by descending
/// byte order (Keras sorts with np.lexsort((tokens, counts))[::-1]), `vocab_size` entries at
/// most. The target side also holds "[start]" and "[end]" (ids 2 and 3): Keras counts them
/// once per sentence, which puts them there on any real corpus; here they are reserved so
/// that a pathological corpus cannot push them out.
std::vector<std::string> build_word_vocabulary(const std::vector<std::string>& texts, bool target,
                                               int64_t vocab_size);

/// A word vocabulary as a Tokenizer. Source side: bos_id()/eos_id() are -1 (the book's source
/// sequences carry no markers). Target side: the ids of "[start]" and "[end]".
class WordsTokenizer : public Tokenizer {
 public:
  /// `words[0]` must be "" and `words[1]` "[UNK]"; a target vocabulary must hold "[start]" and
  /// "[end]"; words must be unique and free of whitespace. Throws std::invalid_argument.
  WordsTokenizer(std::vector<std::string> words, bool target);

  /// Reads a vocabulary file (one word per line in id order, the first line empty); throws
  /// std::runtime_error naming the file (and line) when it is missing or malformed.
  static std::shared_ptr<const WordsTokenizer> load(const std::string& path, bool target);
  /// Writes the vocabulary file (atomically).
  void save(const std::string& path) const;

  std::vector<int64_t> encode(const std::string& text) const override;
  /// Drops pad, "[start]" and "[end]", joins the words with single spaces.
  std::string decode(const std::vector<int64_t>& ids) const override;
  std::string piece(int64_t id) const override;
  int64_t vocab_size() const override { return static_cast<int64_t>(words_.size()); }
  int64_t bos_id() const override { return bos_; }
  int64_t eos_id() const override { return eos_; }
  bool target() const { return target_; }
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::vector<std::string> words_;
  std::unordered_map<std::string, int64_t> ids_;
  bool target_;
  int64_t bos_ = -1;
  int64_t eos_ = -1;
};

}  // namespace atento::data
