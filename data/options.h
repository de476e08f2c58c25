#pragma once
// Options of the data pipeline: corpus reading, splitting, tokenization and batching.

#include <cstdint>
#include <string>

namespace atento::data {

struct CorpusOptions {
  /// Corpus TSV: English<TAB>Spanish[<TAB>anything], UTF-8.
  std::string corpus;
  /// Explicit split files; when all three are set the corpus is not split.
  std::string train_file, valid_file, test_file;
  /// Fractions of the shuffled corpus held out for validation and test (the book: 15% each).
  double valid_fraction = 0.15;
  double test_fraction = 0.15;
  /// Seed of the split shuffle.
  uint64_t seed = 1337;
  /// Make the first bad line an error instead of skipping it.
  bool strict = false;
  /// Longest side accepted, in bytes; longer lines are reported and skipped.
  int64_t max_chars = 1000;
  /// Language codes of the corpus' first (source) and second (target) columns: the model
  /// translates source_lang → target_lang (sentence segmentation follows source_lang's rules).
  std::string source_lang = "en";
  std::string target_lang = "es";
  /// Fine-tuning against forgetting: a corpus (TSV, e.g. the one train.init_from's model was
  /// trained on) from which pairs are mixed into the training split, so that they make up
  /// `replay_fraction` of it. Empty / 0: none.
  std::string replay_corpus;
  double replay_fraction = 0;
};

enum class TokenizerKind { kSentencePiece, kWords };

/// Smallest tokenizer.vocab_size: the four special ids (pad, unk, bos, eos) plus room for words.
inline constexpr int64_t kMinVocabSize = 8;
enum class SubwordModel { kUnigram, kBpe };

struct TokenizerOptions {
  /// "sentencepiece" (subwords, cased, punctuation kept) or "words" (the book's vectorisation).
  TokenizerKind kind = TokenizerKind::kSentencePiece;
  /// Vocabulary size per language (the book: 15,000 words).
  int64_t vocab_size = 8000;
  /// SentencePiece algorithm.
  SubwordModel subword_model = SubwordModel::kUnigram;
  /// One SentencePiece model for both languages instead of one each.
  bool shared = false;
  /// SentencePiece byte fallback: a character outside the vocabulary becomes its UTF-8 bytes
  /// (pieces <0x00>..<0xFF>) instead of [UNK], so it survives into the output.
  bool byte_fallback = false;
  /// Subword regularisation while training (SentencePiece only): every epoch samples a new
  /// segmentation of the training pairs. Unigram: the lattice's smoothing (smaller = more
  /// varied; 0.1 to 0.5 are usual); BPE: the probability of dropping a merge. 0 = off.
  /// Validation, test and translation always use the best segmentation.
  double sample_alpha = 0.0;
  /// SentencePiece character coverage.
  double character_coverage = 1.0;
  /// Let SentencePiece's trainer log its progress to stderr (quiet by default).
  bool verbose = false;
  /// Longest source sequence in tokens; longer inputs are cut (the book: 20).
  int64_t src_len = 20;
  /// Longest target sequence in tokens including [start]/[end] (the book: 21).
  int64_t tgt_len = 21;
};

}  // namespace atento::data

namespace atento::data {

struct BatchOptions {
  /// Sentences per batch; 0 = batch by token budget instead.
  int64_t batch_size = 0;
  /// Token budget per batch: max(source, target) padded length × sentences stays under it.
  int64_t batch_tokens = 4096;
  /// Sort into length buckets before batching so padding stays small.
  bool bucket_by_length = true;
};

}  // namespace atento::data
