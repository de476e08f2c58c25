// validate_options: every model field out of range is rejected with a message that starts
// with its configuration key; the model constructor applies the same limits.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/options.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

std::string rejection(const ModelOptions& options) {
  try {
    validate_options(options);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ModelOptions, AcceptsTheTestModels) {
  EXPECT_NO_THROW(validate_options(testing::small_options()));
  EXPECT_NO_THROW(validate_options(ModelOptions{}));
}

TEST(ModelOptions, RejectsEachBadFieldNamingItsKey) {
  using Edit = std::function<void(ModelOptions&)>;
  const std::vector<std::pair<std::string, Edit>> cases = {
      {"model.src_vocab: must be at least 4, got 3", [](ModelOptions& o) { o.src_vocab = 3; }},
      {"model.tgt_vocab: must be at least 4, got 0", [](ModelOptions& o) { o.tgt_vocab = 0; }},
      {"model.d_model: must be at least 1, got 0", [](ModelOptions& o) { o.d_model = 0; }},
      {"model.n_heads: must be at least 1, got -1", [](ModelOptions& o) { o.n_heads = -1; }},
      {"model.head_dim: must be at least 1, got 0", [](ModelOptions& o) { o.head_dim = 0; }},
      {"model.d_ff: must be at least 1, got 0", [](ModelOptions& o) { o.d_ff = 0; }},
      {"model.encoder_layers: must be at least 1, got 0",
       [](ModelOptions& o) { o.encoder_layers = 0; }},
      {"model.decoder_layers: must be at least 1, got 0",
       [](ModelOptions& o) { o.decoder_layers = 0; }},
      {"model.dropout: must be in [0, 1)", [](ModelOptions& o) { o.dropout = 1.0; }},
      {"model.dropout: must be in [0, 1)", [](ModelOptions& o) { o.dropout = -0.1; }},
      {"model.output_dropout: must be in [0, 1)", [](ModelOptions& o) { o.output_dropout = 1.5; }},
      {"model.max_len: must be at least 1, got 0", [](ModelOptions& o) { o.max_len = 0; }},
      {"model.adaptive_cutoffs:", [](ModelOptions& o) { o.adaptive_cutoffs = {0}; }},
      {"model.adaptive_cutoffs:",
       [](ModelOptions& o) {
         o.adaptive_cutoffs = {10, 10};
       }},
      {"model.adaptive_cutoffs:",
       [](ModelOptions& o) {
         o.adaptive_cutoffs = {10, 29};
       }},
      {"model.tie_embeddings:",
       [](ModelOptions& o) {
         o.adaptive_cutoffs = {10};
         o.tie_embeddings = true;
       }},
      {"model.adaptive_div: must be at least 1, got 0",
       [](ModelOptions& o) {
         o.adaptive_cutoffs = {10};
         o.adaptive_div = 0;
       }},
  };
  for (const auto& [expected, edit] : cases) {
    auto options = testing::small_options();  // tgt_vocab 29, untied
    edit(options);
    const auto message = rejection(options);
    EXPECT_EQ(message.rfind(expected, 0), 0u)
        << "expected \"" << expected << "\", got \"" << message << "\"";
  }
}

TEST(ModelOptions, TheModelAppliesTheSameLimits) {
  auto options = testing::small_options();
  options.encoder_layers = 0;
  try {
    Seq2Seq model(options);
    FAIL() << "a model without encoder blocks was built";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "model.encoder_layers: must be at least 1, got 0");
  }
}

}  // namespace
}  // namespace atento::model
