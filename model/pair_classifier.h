#pragma once
// A sentence-pair classifier on the Transformer encoder (DLwP ch. 15; BERT's [CLS] reading):
// `[CLS] English [SEP] Spanish` goes through one Encoder, and the final state of the first
// position, which has attended over every real position, feeds a small head that says "is
// this pair a translation?" as one logit.
//
// One token table holds both languages: rows [0, src_vocab) are English ids, rows
// [src_vocab, src_vocab + tgt_vocab) are Spanish ids offset by src_vocab. The id ranges are
// disjoint, so which sentence a token belongs to is already part of its embedding (a segment
// embedding would add one constant vector per range, which these rows absorb).
// [CLS] and [SEP] are the Spanish start and end ids (every target tokenizer has them).
// Shape legend: B batch, L pair length, D d_model.

#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <vector>

#include "model/encoder.h"
#include "model/options.h"

namespace atento::model {

class Seq2SeqImpl;

struct PairClassifierOptions {
  /// English vocabulary size: English ids keep their value in the joint table.
  int64_t src_vocab = 8000;
  /// Spanish vocabulary size: Spanish id t is row src_vocab + t of the joint table.
  int64_t tgt_vocab = 8000;
  /// Joint-table id of the first token, whose final state is classified.
  int64_t cls_id = 8002;
  /// Joint-table id between the English and the Spanish sentence.
  int64_t sep_id = 8003;
  /// The encoder; encoder.vocab must be src_vocab + tgt_vocab, encoder.max_len covers the
  /// longest joined pair (src_len + tgt_len + 2).
  EncoderOptions encoder;
  /// Dropout on the first token's state and on the head's hidden layer.
  double head_dropout = 0.1;
};

/// Options for a classifier initialised from a translation model with `pretrained`'s
/// architecture: its vocabularies, blocks and Spanish start/end ids (`tgt_bos`, `tgt_eos`);
/// the position table covers `max_pair_len` (the pretrained rows are copied, the rest fresh).
PairClassifierOptions pair_classifier_options(const ModelOptions& pretrained, int64_t tgt_bos,
                                              int64_t tgt_eos, int64_t max_pair_len);

/// Throws std::invalid_argument "pair_classifier.<field>: …" for a field out of range.
void validate_options(const PairClassifierOptions& options);

/// `[CLS] src [SEP] tgt` in joint-table ids: src ids as they are, tgt ids offset by
/// src_vocab. The English side is cut first so that the pair fits `max_len` with at least
/// half of it for each side when both are long. Ids must be real tokens (no bos/eos).
std::vector<int64_t> join_pair(const PairClassifierOptions& options,
                               const std::vector<int64_t>& src, const std::vector<int64_t>& tgt,
                               int64_t max_len);

/// Joined pairs padded with kPadId into ids [B,L] int64; keep [B,L] bool is ids != kPadId.
struct PairBatch {
  torch::Tensor ids;
  torch::Tensor keep;
};
PairBatch pad_pairs(const std::vector<std::vector<int64_t>>& joined);

/// Mean binary cross-entropy of logits [B] against labels [B] (1 = translation).
torch::Tensor pair_loss(const torch::Tensor& logits, const torch::Tensor& labels);

/// The classifier: Encoder, then dense(D→D, tanh) → dense(D→1) on the first position.
class PairClassifierImpl : public torch::nn::Module {
 public:
  explicit PairClassifierImpl(const PairClassifierOptions& options);
  /// ids [B,L] int64, keep [B,L] bool, ids[:,0] = cls_id → the first token's final state
  /// [B,D], which depends on every kept position and on no other.
  torch::Tensor first_token(const torch::Tensor& ids, const torch::Tensor& keep);
  /// ids [B,L], keep [B,L] → logits [B] (sigmoid: probability that the pair is a translation).
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& keep);

  PairClassifierOptions options;
  Encoder encoder{nullptr};
  torch::nn::Dropout dropout{nullptr};
  torch::nn::Linear hidden{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(PairClassifier);

/// Copies a trained translation model into `classifier`: encoder blocks and norms, English
/// token rows from the encoder's embedding, Spanish rows from the decoder's, and the
/// encoder's position rows (positions beyond them keep their fresh initialisation). Throws
/// std::invalid_argument when the architectures differ.
void initialise_from_translation(PairClassifierImpl& classifier, const Seq2SeqImpl& pretrained);

}  // namespace atento::model
