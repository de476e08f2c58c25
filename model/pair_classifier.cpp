#include "model/pair_classifier.h"

#include <torch/nn/functional/loss.h>
#include <torch/nn/init.h>
#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/seq2seq.h"

namespace atento::model {

PairClassifierOptions pair_classifier_options(const ModelOptions& pretrained, int64_t tgt_bos,
                                              int64_t tgt_eos, int64_t max_pair_len) {
  PairClassifierOptions options;
  options.src_vocab = pretrained.src_vocab;
  options.tgt_vocab = pretrained.tgt_vocab;
  options.cls_id = pretrained.src_vocab + tgt_bos;
  options.sep_id = pretrained.src_vocab + tgt_eos;
  options.encoder = encoder_options(pretrained);
  options.encoder.vocab = pretrained.src_vocab + pretrained.tgt_vocab;
  options.encoder.max_len = max_pair_len;
  options.head_dropout = pretrained.dropout;
  return options;
}

void validate_options(const PairClassifierOptions& options) {
  require_at_least("pair_classifier.src_vocab", options.src_vocab, kMinVocab);
  require_at_least("pair_classifier.tgt_vocab", options.tgt_vocab, kMinVocab);
  const int64_t joint = options.src_vocab + options.tgt_vocab;
  if (options.encoder.vocab != joint) {
    throw std::invalid_argument(
        "pair_classifier.encoder.vocab: must be src_vocab + tgt_vocab = " + std::to_string(joint) +
        ", got " + std::to_string(options.encoder.vocab));
  }
  const std::pair<const char*, int64_t> special[] = {{"cls_id", options.cls_id},
                                                     {"sep_id", options.sep_id}};
  for (const auto& [key, id] : special) {
    if (id <= kPadId || id >= joint) {
      throw std::invalid_argument(std::string("pair_classifier.") + key + ": must be in [1, " +
                                  std::to_string(joint) + "), got " + std::to_string(id));
    }
  }
  require_at_least("pair_classifier.encoder.max_len", options.encoder.max_len, 3);
  require_rate("pair_classifier.head_dropout", options.head_dropout);
  validate_options(options.encoder, "encoder");
}

std::vector<int64_t> join_pair(const PairClassifierOptions& options,
                               const std::vector<int64_t>& src, const std::vector<int64_t>& tgt,
                               int64_t max_len) {
  const int64_t room = std::max<int64_t>(max_len - 2, 0);  // [CLS] and [SEP]
  int64_t n_src = static_cast<int64_t>(src.size());
  int64_t n_tgt = static_cast<int64_t>(tgt.size());
  if (n_src + n_tgt > room) {
    // Each side keeps at least half the room (or all of itself when shorter).
    const int64_t half = room / 2;
    n_tgt = std::min(n_tgt, std::max(half, room - std::min(n_src, room - half)));
    n_src = std::min(n_src, room - n_tgt);
  }
  std::vector<int64_t> joined;
  joined.reserve(static_cast<size_t>(n_src + n_tgt + 2));
  joined.push_back(options.cls_id);
  joined.insert(joined.end(), src.begin(), src.begin() + n_src);
  joined.push_back(options.sep_id);
  for (int64_t i = 0; i < n_tgt; ++i)
    joined.push_back(tgt[static_cast<size_t>(i)] + options.src_vocab);
  return joined;
}

PairBatch pad_pairs(const std::vector<std::vector<int64_t>>& joined) {
  size_t length = 1;
  for (const auto& row : joined) length = std::max(length, row.size());
  std::vector<int64_t> flat(joined.size() * length, kPadId);
  for (size_t i = 0; i < joined.size(); ++i) {
    std::copy(joined[i].begin(), joined[i].end(), flat.begin() + static_cast<long>(i * length));
  }
  auto ids = torch::tensor(flat, torch::kLong)
                 .view({static_cast<int64_t>(joined.size()), static_cast<int64_t>(length)});
  return {ids, ids.ne(kPadId)};  // [B,L], [B,L]
}

torch::Tensor pair_loss(const torch::Tensor& logits, const torch::Tensor& labels) {
  return torch::binary_cross_entropy_with_logits(logits, labels.to(logits.scalar_type()));
}

PairClassifierImpl::PairClassifierImpl(const PairClassifierOptions& options_) : options(options_) {
  validate_options(options);
  const int64_t d = options.encoder.block.d_model;
  encoder = register_module("encoder", Encoder(options.encoder));
  dropout = register_module("dropout", torch::nn::Dropout(options.head_dropout));
  hidden = register_module("hidden", torch::nn::Linear(d, d));
  out = register_module("out", torch::nn::Linear(d, 1));
}

torch::Tensor PairClassifierImpl::first_token(const torch::Tensor& ids, const torch::Tensor& keep) {
  auto states = encoder(ids, keep);  // [B,L] → [B,L,D]
  return states.select(1, 0);        // [B,L,D] → [B,D]
}

torch::Tensor PairClassifierImpl::forward(const torch::Tensor& ids, const torch::Tensor& keep) {
  auto h = dropout(first_token(ids, keep));  // [B,D]
  h = dropout(torch::tanh(hidden(h)));       // [B,D] → [B,D]
  return out(h).squeeze(-1);                 // [B,D] → [B,1] → [B]
}

namespace {

void copy_rows(torch::Tensor& to, int64_t at, const torch::Tensor& from, const std::string& what) {
  const int64_t rows = std::min(from.size(0), to.size(0) - at);
  if (from.size(1) != to.size(1) || rows < 0) {
    throw std::invalid_argument("initialise_from_translation: " + what + " is " +
                                std::to_string(from.size(1)) + " wide, the classifier " +
                                std::to_string(to.size(1)));
  }
  to.narrow(0, at, rows).copy_(from.narrow(0, 0, rows));
}

}  // namespace

void initialise_from_translation(PairClassifierImpl& classifier, const Seq2SeqImpl& pretrained) {
  torch::NoGradGuard no_grad;
  auto source = pretrained.encoder->named_parameters();
  for (auto& item : classifier.encoder->named_parameters()) {
    const std::string& name = item.key();
    torch::Tensor to = item.value();
    if (name == "embed.tokens.weight") {
      copy_rows(to, 0, pretrained.encoder->embed->tokens->weight, "the English embedding");
      copy_rows(to, classifier.options.src_vocab, pretrained.decoder->embed->tokens->weight,
                "the Spanish embedding");
      continue;
    }
    const auto* from = source.find(name);
    if (from == nullptr) {
      throw std::invalid_argument("initialise_from_translation: the translation encoder has no " +
                                  name + " (another architecture)");
    }
    if (name == "embed.positions.weight") {
      copy_rows(to, 0, *from, "the position table");
      continue;
    }
    if (from->sizes() != to.sizes()) {
      throw std::invalid_argument("initialise_from_translation: " + name + " differs in shape");
    }
    to.copy_(*from);
  }
}

}  // namespace atento::model
