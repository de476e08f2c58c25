#include "model/options.h"

#include <sstream>
#include <stdexcept>

namespace atento::model {
namespace {

template <typename Value>
[[noreturn]] void reject(const std::string& key, const std::string& rule, const Value& value) {
  std::ostringstream message;
  message << key << ": " << rule << ", got " << value;
  throw std::invalid_argument(message.str());
}

void validate_cutoffs(const ModelOptions& options) {
  const auto& cutoffs = options.adaptive_cutoffs;
  for (size_t i = 0; i < cutoffs.size(); ++i) {
    if (cutoffs[i] <= 0 || cutoffs[i] >= options.tgt_vocab ||
        (i > 0 && cutoffs[i] <= cutoffs[i - 1])) {
      reject("model.adaptive_cutoffs",
             "must increase strictly and lie in (0, model.tgt_vocab = " +
                 std::to_string(options.tgt_vocab) + ")",
             cutoffs[i]);
    }
  }
  if (!cutoffs.empty() && options.tie_embeddings) {
    throw std::invalid_argument(
        "model.tie_embeddings: must be false with model.adaptive_cutoffs (the adaptive softmax "
        "has its own weights)");
  }
  require_at_least("model.adaptive_div", options.adaptive_div, 1);
}

}  // namespace

void require_at_least(const std::string& key, int64_t value, int64_t min) {
  if (value < min) reject(key, "must be at least " + std::to_string(min), value);
}

void require_rate(const std::string& key, double value) {
  if (!(value >= 0.0 && value < 1.0)) reject(key, "must be in [0, 1)", value);
}

void validate_options(const ModelOptions& options) {
  require_at_least("model.src_vocab", options.src_vocab, kMinVocab);
  require_at_least("model.tgt_vocab", options.tgt_vocab, kMinVocab);
  require_at_least("model.d_model", options.d_model, 1);
  require_at_least("model.n_heads", options.n_heads, 1);
  require_at_least("model.head_dim", options.head_dim, 1);
  require_at_least("model.d_ff", options.d_ff, 1);
  require_at_least("model.encoder_layers", options.encoder_layers, 1);
  require_at_least("model.decoder_layers", options.decoder_layers, 1);
  require_rate("model.dropout", options.dropout);
  require_rate("model.output_dropout", options.output_dropout);
  require_at_least("model.max_len", options.max_len, 1);
  validate_cutoffs(options);
  if (options.share_embeddings && options.src_vocab != options.tgt_vocab) {
    reject("model.share_embeddings",
           "needs model.src_vocab == model.tgt_vocab (" + std::to_string(options.tgt_vocab) + ")",
           options.src_vocab);
  }
}

}  // namespace atento::model
