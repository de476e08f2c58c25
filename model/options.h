#pragma once
// Architecture of the encoder-decoder Transformer. The checkpoint carries these values
// (config.json in the model directory), so translation needs no architecture flags.

#include <cstdint>
#include <string>
#include <vector>

namespace atento::model {

/// Token id of padding in source and target (the tokenizers reserve id 0 for it): the keep
/// masks the model builds when a caller has only ids mark every other id as real.
constexpr int64_t kPadId = 0;

/// Smallest vocabulary a model accepts: padding, unknown, start and end ids.
constexpr int64_t kMinVocab = 4;

/// How token positions enter the model (DLwP ch. 15: ~58% next-word accuracy without, ~67% with).
enum class Positions { kLearned, kNone };

/// Where layer normalisation sits in a block: after the residual sum (the book, Vaswani et al.)
/// or before each sublayer (pre-norm, more stable for deep stacks).
enum class Norm { kPost, kPre };

struct ModelOptions {
  /// Source (English) vocabulary size, taken from the tokenizer.
  int64_t src_vocab = 8000;
  /// Target (Spanish) vocabulary size, taken from the tokenizer.
  int64_t tgt_vocab = 8000;
  /// Width D of every token representation.
  int64_t d_model = 256;
  /// Attention heads H per attention layer.
  int64_t n_heads = 8;
  /// Width Dh of each head's queries/keys/values (the book: 256 = d_model; modern: D / H).
  int64_t head_dim = 32;
  /// Inner width of the position-wise feed-forward layer.
  int64_t d_ff = 1024;
  /// Number of encoder blocks.
  int64_t encoder_layers = 2;
  /// Number of decoder blocks.
  int64_t decoder_layers = 2;
  /// Dropout inside blocks (after attention and feed-forward, before the residual sum).
  double dropout = 0.1;
  /// Dropout on the decoder output before the vocabulary projection (the book: 0.5).
  double output_dropout = 0.0;
  /// Learned position embeddings, or none (the ablation).
  Positions positions = Positions::kLearned;
  /// Longest sequence (source or decoder input) the position tables cover.
  int64_t max_len = 64;
  /// Output projection shares the target embedding matrix (Press & Wolf 2017).
  bool tie_embeddings = true;
  /// The encoder reads the decoder's token embedding (three-way tying with tie_embeddings;
  /// Press & Wolf 2017): needs one vocabulary for both languages, so src_vocab == tgt_vocab.
  bool share_embeddings = false;
  /// Adaptive softmax cutoffs (Grave et al. 2017; model/adaptive_softmax.h), e.g. {2000, 6000}: ids
  /// below the first are scored in the head, each later range in a narrower tail cluster. Needs ids
  /// ranked by frequency (the `words` vocabulary). Empty: the full softmax.
  std::vector<int64_t> adaptive_cutoffs;
  /// Each adaptive tail cluster is `adaptive_div` times narrower than the one before.
  int64_t adaptive_div = 4;
  /// Post-norm (the book) or pre-norm blocks.
  Norm norm = Norm::kPost;
};

/// Throws std::invalid_argument naming the first field out of range, the message starting with
/// its key: "model.encoder_layers: must be at least 1, got 0". The limits of the model.* keys of
/// a configuration file.
void validate_options(const ModelOptions& options);

/// Limit checks shared by every options validator (throw std::invalid_argument "<key>: …").
/// value ≥ min, else "<key>: must be at least <min>, got <value>".
void require_at_least(const std::string& key, int64_t value, int64_t min);
/// A dropout rate in [0, 1), else "<key>: must be in [0, 1), got <value>".
void require_rate(const std::string& key, double value);

}  // namespace atento::model
