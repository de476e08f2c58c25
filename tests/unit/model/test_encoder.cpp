// The encoder on its own: built from EncoderOptions, ids and a keep mask in, [B,S,D] out,
// padding invisible to real positions.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>
#include <string>

#include "model/encoder.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::pad_rows;

EncoderOptions small_encoder(Norm norm) {
  EncoderOptions options;
  options.vocab = 23;
  options.max_len = 16;
  options.layers = 2;
  options.block.d_model = 32;
  options.block.n_heads = 4;
  options.block.head_dim = 8;
  options.block.d_ff = 64;
  options.block.dropout = 0.1;
  options.block.norm = norm;
  return options;
}

Encoder eval_encoder(Norm norm) {
  torch::manual_seed(5);
  Encoder encoder(small_encoder(norm));
  encoder->eval();
  return encoder;
}

class EncoderNorms : public ::testing::TestWithParam<Norm> {};

TEST_P(EncoderNorms, MapsIdsToOneVectorPerPosition) {
  auto encoder = eval_encoder(GetParam());
  torch::NoGradGuard no_grad;
  auto ids = pad_rows({{4, 5, 6, 7, 8}, {9, 10}});
  auto out = encoder(ids, ids.ne(kPadId));
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2, 5, 32}));
  EXPECT_TRUE(out.isfinite().all().item<bool>());
}

TEST_P(EncoderNorms, PaddingNeverChangesRealPositions) {
  auto encoder = eval_encoder(GetParam());
  torch::NoGradGuard no_grad;
  auto ids = pad_rows({{4, 5, 6, 7}, {9, 10}});
  auto keep = ids.ne(kPadId);  // [B,S]
  auto out = encoder(ids, keep);
  // More padding columns, and arbitrary ids under the mask: real positions are unchanged.
  auto longer = pad_rows({{4, 5, 6, 7}, {9, 10}}, 9);
  auto longer_keep = longer.ne(kPadId);
  auto noisy = longer.masked_fill(longer_keep.logical_not(), 13);
  auto padded = encoder(noisy, longer_keep);
  EXPECT_TRUE(torch::allclose(padded.narrow(1, 0, 4)[0], out[0], 0.0, 1e-5));
  EXPECT_TRUE(torch::allclose(padded.narrow(1, 0, 2)[1], out[1].narrow(0, 0, 2), 0.0, 1e-5));
  // A sentence alone equals the same sentence inside a padded batch.
  auto alone = encoder(pad_rows({{9, 10}}), pad_rows({{9, 10}}).ne(kPadId));
  EXPECT_TRUE(torch::allclose(alone[0], out[1].narrow(0, 0, 2), 0.0, 1e-5));
  // The mask, not the id, decides: unmasking the padded column changes the real ones.
  auto unmasked = encoder(noisy, torch::ones_like(longer_keep));
  EXPECT_FALSE(torch::allclose(unmasked.narrow(1, 0, 2)[1], out[1].narrow(0, 0, 2), 0.0, 1e-3));
}

INSTANTIATE_TEST_SUITE_P(PostAndPreNorm, EncoderNorms, ::testing::Values(Norm::kPost, Norm::kPre));

TEST(ModelEncoder, RejectsAMaskThatDoesNotMatchTheIds) {
  auto encoder = eval_encoder(Norm::kPost);
  auto ids = pad_rows({{4, 5, 6}});
  EXPECT_THROW(encoder(ids, torch::ones({1, 2}, torch::kBool)), c10::Error);
  EXPECT_THROW(encoder(ids, torch::ones({1, 3}, torch::kLong)), c10::Error);
}

TEST(ModelEncoder, OptionsOfAModelAndTheirLimits) {
  auto model = testing::small_options(Norm::kPre);
  const auto options = encoder_options(model);
  EXPECT_EQ(options.vocab, model.src_vocab);
  EXPECT_EQ(options.layers, model.encoder_layers);
  EXPECT_EQ(options.block.d_model, model.d_model);
  EXPECT_EQ(options.block.norm, Norm::kPre);
  auto message = [](EncoderOptions bad) {
    try {
      Encoder{bad};
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto bad = small_encoder(Norm::kPost);
  bad.layers = 0;
  EXPECT_EQ(message(bad).rfind("encoder.layers: must be at least 1, got 0", 0), 0u);
  bad = small_encoder(Norm::kPost);
  bad.vocab = 3;
  EXPECT_EQ(message(bad).rfind("encoder.vocab:", 0), 0u);
  bad = small_encoder(Norm::kPost);
  bad.block.dropout = 1.0;
  EXPECT_EQ(message(bad).rfind("encoder.block.dropout:", 0), 0u);
}

}  // namespace
}  // namespace atento::model
