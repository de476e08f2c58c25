// Tier 1: attention math and masks against hand-computed values and an einsum reference.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "model/attention.h"

namespace atento::model {
namespace {

const auto kDouble = torch::TensorOptions().dtype(torch::kDouble);

// softmax(q·kᵀ/√d) · v written with einsum, masked keys at -inf (rows need a kept key).
torch::Tensor reference_attention(const torch::Tensor& q, const torch::Tensor& k,
                                  const torch::Tensor& v, const torch::Tensor& keep) {
  auto scores = torch::einsum("btd,bsd->bts", {q, k}) / std::sqrt(double(q.size(-1)));
  scores = scores.masked_fill(keep.logical_not(), -std::numeric_limits<double>::infinity());
  return torch::einsum("bts,bsd->btd", {torch::softmax(scores, -1), v});
}

TEST(ModelAttention, MatchesHandComputedExample) {
  // One query q = (1, 0) over keys k1 = (1, 0), k2 = (0, 1), values v1 = (1, 2), v2 = (3, 4).
  // scores = (q·k1, q·k2)/√2 = (0.70710678, 0); exp → (2.02811498, 1); sum 3.02811498
  // weights = (0.66976155, 0.33023845)
  // output = 0.66976155·(1, 2) + 0.33023845·(3, 4) = (1.66047690, 2.66047690)
  auto q = torch::tensor({1.0, 0.0}, kDouble).view({1, 1, 2});
  auto k = torch::tensor({1.0, 0.0, 0.0, 1.0}, kDouble).view({1, 2, 2});
  auto v = torch::tensor({1.0, 2.0, 3.0, 4.0}, kDouble).view({1, 2, 2});
  auto result = dot_product_attention_with_weights(q, k, v, torch::Tensor());
  EXPECT_NEAR(result.weights[0][0][0].item<double>(), 0.66976155, 1e-8);
  EXPECT_NEAR(result.weights[0][0][1].item<double>(), 0.33023845, 1e-8);
  EXPECT_NEAR(result.output[0][0][0].item<double>(), 1.66047690, 1e-8);
  EXPECT_NEAR(result.output[0][0][1].item<double>(), 2.66047690, 1e-8);

  // Masking k2 leaves all weight on k1: output = v1 = (1, 2).
  auto keep = torch::tensor({true, false}).view({1, 1, 2});
  auto masked = dot_product_attention(q, k, v, keep);
  EXPECT_DOUBLE_EQ(masked[0][0][0].item<double>(), 1.0);
  EXPECT_DOUBLE_EQ(masked[0][0][1].item<double>(), 2.0);
}

TEST(ModelAttention, EqualsEinsumReferenceInDoublePrecision) {
  torch::manual_seed(1);
  const int64_t B = 3, T = 5, S = 7, Dh = 6;
  auto q = torch::randn({B, T, Dh}, kDouble);
  auto k = torch::randn({B, S, Dh}, kDouble);
  auto v = torch::randn({B, S, Dh}, kDouble);
  auto keep = torch::rand({B, T, S}, kDouble).gt(0.4);
  keep.select(2, 0).fill_(true);  // every row keeps at least one key
  auto expected = reference_attention(q, k, v, keep);
  EXPECT_TRUE(torch::allclose(dot_product_attention(q, k, v, keep), expected, 0.0, 1e-6));
  auto all = torch::ones({B, T, S}, torch::kBool);
  EXPECT_TRUE(torch::allclose(dot_product_attention(q, k, v, torch::Tensor()),
                              reference_attention(q, k, v, all), 0.0, 1e-6));
}

TEST(ModelAttention, FourDimensionalHeadsEqualPerHeadReference) {
  torch::manual_seed(2);
  const int64_t B = 2, H = 3, T = 4, S = 5, Dh = 8;
  auto q = torch::randn({B, H, T, Dh}, kDouble);
  auto k = torch::randn({B, H, S, Dh}, kDouble);
  auto v = torch::randn({B, H, S, Dh}, kDouble);
  auto keep = torch::tensor({true, true, true, false, false, true, true, true, true, true})
                  .view({B, 1, 1, S});              // [B,1,1,S] key padding
  auto out = dot_product_attention(q, k, v, keep);  // [B,H,T,Dh]
  // [B,H,...] → [B·H,...] and the mask repeated per head, [B,1,1,S] → [B·H,T,S]
  auto expected = reference_attention(q.reshape({B * H, T, Dh}), k.reshape({B * H, S, Dh}),
                                      v.reshape({B * H, S, Dh}),
                                      keep.expand({B, H, T, S}).reshape({B * H, T, S}));
  EXPECT_TRUE(torch::allclose(out.reshape({B * H, T, Dh}), expected, 0.0, 1e-6));
}

TEST(ModelAttention, SingleQueryDecodingPathEqualsReference) {
  // One query per row takes the multiply-and-sum path used by cached decoding.
  torch::manual_seed(5);
  const int64_t B = 2, H = 3, S = 6, Dh = 8;
  auto q = torch::randn({B, H, 1, Dh}, kDouble);
  auto k = torch::randn({B, H, S, Dh}, kDouble);
  auto v = torch::randn({B, H, S, Dh}, kDouble);
  auto keep = torch::rand({B, 1, 1, S}).gt(0.3);
  keep.select(3, 0).fill_(true);
  auto result = dot_product_attention_with_weights(q, k, v, keep);
  EXPECT_EQ(result.output.sizes(), (std::vector<int64_t>{B, H, 1, Dh}));
  EXPECT_EQ(result.weights.sizes(), (std::vector<int64_t>{B, H, 1, S}));
  // [B,H,1,...] → [B·H,1,...], the mask repeated per head: [B,1,1,S] → [B·H,1,S]
  auto expected = reference_attention(q.reshape({B * H, 1, Dh}), k.reshape({B * H, S, Dh}),
                                      v.reshape({B * H, S, Dh}),
                                      keep.expand({B, H, 1, S}).reshape({B * H, 1, S}));
  EXPECT_TRUE(torch::allclose(result.output.reshape({B * H, 1, Dh}), expected, 0.0, 1e-6));
}

TEST(ModelAttention, MaskedKeysGetExactlyZeroWeightAndKeptWeightsSumToOne) {
  torch::manual_seed(3);
  auto q = torch::randn({2, 4, 8}) * 10;  // large scores: masking must still be exact
  auto k = torch::randn({2, 6, 8}) * 10;
  auto v = torch::randn({2, 6, 8});
  auto keep = torch::rand({2, 4, 6}).gt(0.5);
  keep[0][1].fill_(false);  // a query with no key at all
  keep[1][2].fill_(false);
  keep[0][0][3] = true;
  auto result = dot_product_attention_with_weights(q, k, v, keep);
  EXPECT_EQ(result.weights.masked_select(keep.logical_not()).abs().max().item<float>(), 0.0f);
  auto sums = result.weights.sum(-1);  // [2,4]
  auto has_key = keep.any(-1);         // [2,4]
  EXPECT_TRUE(torch::allclose(sums.masked_select(has_key),
                              torch::ones({has_key.sum().item<int64_t>()}), 0.0, 1e-6));
  EXPECT_TRUE(torch::isfinite(result.output).all().item<bool>());
  EXPECT_EQ(result.output[0][1].abs().max().item<float>(), 0.0f);
  EXPECT_EQ(result.output[1][2].abs().max().item<float>(), 0.0f);
}

TEST(ModelAttention, FullyMaskedRowsHaveFiniteZeroGradients) {
  auto q = torch::randn({1, 2, 4}, torch::requires_grad());
  auto k = torch::randn({1, 3, 4}, torch::requires_grad());
  auto v = torch::randn({1, 3, 4}, torch::requires_grad());
  auto keep = torch::tensor({true, true, false, false, false, false}).view({1, 2, 3});
  dot_product_attention(q, k, v, keep).sum().backward();
  EXPECT_TRUE(torch::isfinite(q.grad()).all().item<bool>());
  EXPECT_TRUE(torch::isfinite(k.grad()).all().item<bool>());
  EXPECT_EQ(q.grad()[0][1].abs().max().item<float>(), 0.0f);
  EXPECT_EQ(v.grad()[0][2].abs().max().item<float>(), 0.0f);  // the masked value gets nothing
}

TEST(ModelAttention, PaddingMaskKeepsRealTokens) {
  auto ids = torch::tensor({5, 7, 0, 0, 3, 0}, torch::kLong).view({2, 3});
  auto expected = torch::tensor({true, true, false, false, true, false}).view({2, 3});
  EXPECT_TRUE(torch::equal(padding_mask(ids), expected));
  EXPECT_TRUE(torch::equal(padding_mask(ids, 5), ids.ne(5)));
}

TEST(ModelAttention, CausalMaskIsLowerTriangular) {
  auto mask = causal_mask(3, torch::kCPU);
  auto expected =
      torch::tensor({true, false, false, true, true, false, true, true, true}).view({3, 3});
  EXPECT_EQ(mask.scalar_type(), torch::kBool);
  EXPECT_TRUE(torch::equal(mask, expected));
}

TEST(ModelAttention, MultiHeadParametersAreNamedAndCountedLikeKeras) {
  // The book: 8 heads × key_dim 256 over d_model 256: four projections of 256·2048 + bias.
  MultiHeadAttention attention(MultiHeadAttentionOptions(256, 8, 256));
  int64_t total = 0;
  for (const auto& p : attention->parameters()) {
    total += p.numel();
  }
  EXPECT_EQ(total, 3 * (256 * 2048 + 2048) + (2048 * 256 + 256));
  const auto named = attention->named_parameters();
  for (const char* name : {"q_proj.weight", "q_proj.bias", "k_proj.weight", "k_proj.bias",
                           "v_proj.weight", "v_proj.bias", "out_proj.weight", "out_proj.bias"}) {
    EXPECT_NE(named.find(name), nullptr) << name;
  }
}

TEST(ModelAttention, IncrementalProjectionWithCacheEqualsFullCausalAttention) {
  torch::manual_seed(4);
  MultiHeadAttention attention(MultiHeadAttentionOptions(16, 2, 8));
  torch::NoGradGuard no_grad;
  auto x = torch::randn({3, 5, 16});  // [B,T,D]
  auto full = attention(x, x, causal_mask(5, torch::kCPU));
  torch::Tensor k_cache, v_cache;
  for (int64_t t = 0; t < 5; ++t) {
    auto x_t = x.narrow(1, t, 1);  // [B,1,D]
    auto [k, v] = attention->project_key_value(x_t);
    k_cache = t == 0 ? k : torch::cat({k_cache, k}, 2);  // [B,H,t+1,Dh]
    v_cache = t == 0 ? v : torch::cat({v_cache, v}, 2);
    auto step = attention->attend(attention->project_query(x_t), k_cache, v_cache, {});
    EXPECT_TRUE(torch::allclose(step.squeeze(1), full.select(1, t), 0.0, 1e-5)) << "t=" << t;
  }
}

}  // namespace
}  // namespace atento::model
