#pragma once
// Tokenizers: one interface, two implementations (SentencePiece subwords; the book's
// word-level vectorizer). Special ids are fixed: pad 0, unk 1; bos/eos as each reports.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/corpus.h"
#include "data/options.h"

namespace atento::data {

/// One language's tokenizer.
class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  /// Text → ids, no bos/eos, no truncation; typographic quotes read as their ASCII
  /// (data/punctuation.h).
  virtual std::vector<int64_t> encode(const std::string& text) const = 0;
  /// Text → ids in a sampled segmentation (subword regularisation, `alpha` > 0 as
  /// tokenizer.sample_alpha documents); a tokenizer with one segmentation per text encodes.
  virtual std::vector<int64_t> sample(const std::string& text, double /*alpha*/) const {
    return encode(text);
  }
  /// Ids → text; special ids (pad, bos, eos) are dropped.
  virtual std::string decode(const std::vector<int64_t>& ids) const = 0;
  /// Surface form of one id (for attention maps and debugging).
  virtual std::string piece(int64_t id) const = 0;
  virtual int64_t vocab_size() const = 0;
  int64_t pad_id() const { return 0; }
  int64_t unk_id() const { return 1; }
  /// Id that starts a target sequence; -1 when the tokenizer has none (the words source side).
  virtual int64_t bos_id() const = 0;
  /// Id that ends a target sequence; -1 when the tokenizer has none (the words source side).
  virtual int64_t eos_id() const = 0;
};

/// The source and target tokenizers of one model, with the sequence rules of the recipe.
/// Files in a model directory: `spm.en.model` + `spm.es.model`, or `spm.shared.model` (then
/// src() and tgt() are the same object), or `vocab.en.txt` + `vocab.es.txt` (words).
class Vocabularies {
 public:
  Vocabularies(std::shared_ptr<const Tokenizer> src, std::shared_ptr<const Tokenizer> tgt,
               TokenizerOptions options);
  const Tokenizer& src() const { return *src_; }
  const Tokenizer& tgt() const { return *tgt_; }
  const TokenizerOptions& options() const { return options_; }
  /// Source ids, cut to options.src_len. `truncated` (optional) reports a cut.
  std::vector<int64_t> encode_source(const std::string& text, bool* truncated = nullptr) const;
  /// [bos] target ids [eos], cut to options.tgt_len (the book cuts "[start] … [end]" to 21,
  /// which can drop [end]; kept for parity).
  std::vector<int64_t> encode_target(const std::string& text) const;
  /// encode_source and encode_target over a sampled segmentation (Tokenizer::sample).
  std::vector<int64_t> sample_source(const std::string& text, double alpha) const;
  std::vector<int64_t> sample_target(const std::string& text, double alpha) const;
  /// Target ids (with or without bos/eos) → Spanish text; ids beyond the target vocabulary
  /// (a model sized for more words than its corpus held) read as [UNK].
  std::string decode_target(const std::vector<int64_t>& ids) const;

 private:
  std::vector<int64_t> cut_source(std::vector<int64_t> ids, bool* truncated) const;
  std::vector<int64_t> frame_target(const std::vector<int64_t>& body) const;

  std::shared_ptr<const Tokenizer> src_, tgt_;
  TokenizerOptions options_;
};

/// Trains the tokenizers on the training pairs only and writes their files into `dir`.
Vocabularies train_vocabularies(const std::vector<Pair>& train, const TokenizerOptions& options,
                                const std::string& dir);

/// Loads the tokenizers that train_vocabularies wrote into `dir`; throws naming the missing
/// or unreadable file.
Vocabularies load_vocabularies(const std::string& dir, const TokenizerOptions& options);

/// The files train_vocabularies writes into `dir` for `options` (and load_vocabularies reads).
std::vector<std::string> tokenizer_files(const std::string& dir, const TokenizerOptions& options);

/// True when `dir` holds tokenizer files for `options`.
bool vocabularies_exist(const std::string& dir, const TokenizerOptions& options);

/// The book's standardisation: lower-case (ASCII, Latin-1 accented capitals such as Á Ñ Ü,
/// Latin Extended-A, Greek, Cyrillic), strip ASCII punctuation (Python's string.punctuation,
/// the apostrophe included, and typographic quotes as their ASCII (data/punctuation.h); `target`
/// also strips ¿ ¡ but keeps [ ]), split on ASCII whitespace. Example: ("¿Dónde está Tom?",
/// true) → {"dónde", "está", "tom"}.
std::vector<std::string> book_standardize(const std::string& text, bool target);

}  // namespace atento::data
