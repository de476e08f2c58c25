// The one-query-at-a-time attention against the tensor form in double precision, and its
// results independent of padding and of the rows beside a query.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "model/attention.h"
#include "model/single_query_attention.h"

namespace atento::model {
namespace {

// softmax(q·kᵀ/√Dh) · v in double precision by matmul, masked keys exactly 0 and a query with
// no kept key a zero row (the contract of dot_product_attention).
AttentionResult reference(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                          const torch::Tensor& keep) {
  auto qd = q.to(torch::kDouble), kd = k.to(torch::kDouble), vd = v.to(torch::kDouble);
  auto scores = torch::matmul(qd, kd.transpose(-2, -1)) / std::sqrt(double(q.size(-1)));
  auto kept = keep.defined() ? keep.expand_as(scores) : torch::ones_like(scores).to(torch::kBool);
  auto weights = torch::softmax(scores.masked_fill(kept.logical_not(), -1e300), -1)
                     .mul(kept.any(-1, /*keepdim=*/true));
  return {torch::matmul(weights, vd), weights};
}

void expect_close(const AttentionResult& got, const AttentionResult& want) {
  EXPECT_EQ(got.output.sizes(), want.output.sizes());
  EXPECT_EQ(got.weights.sizes(), want.weights.sizes());
  EXPECT_TRUE(torch::allclose(got.output.to(torch::kDouble), want.output, 1e-5, 1e-5))
      << (got.output.to(torch::kDouble) - want.output).abs().max();
  EXPECT_TRUE(torch::allclose(got.weights.to(torch::kDouble), want.weights, 1e-5, 1e-6))
      << (got.weights.to(torch::kDouble) - want.weights).abs().max();
}

TEST(ModelSingleQueryAttention, EqualsTheTensorFormWithPaddingMasks) {
  torch::manual_seed(3);
  const int64_t B = 5, H = 4, S = 11, Dh = 64;
  auto q = torch::randn({B, H, 1, Dh});
  auto k = torch::randn({B, H, S, Dh});
  auto v = torch::randn({B, H, S, Dh});
  auto keep = torch::rand({B, 1, 1, S}).gt(0.3);  // padding mask, broadcast over heads
  keep.select(3, 0).fill_(true);
  ASSERT_TRUE(single_query_attention_applies(q, k, v, keep));
  expect_close(single_query_attention(q, k, v, keep), reference(q, k, v, keep));
  expect_close(dot_product_attention_with_weights(q, k, v, keep), reference(q, k, v, keep));
  expect_close(single_query_attention(q, k, v, torch::Tensor()),
               reference(q, k, v, torch::Tensor()));
}

TEST(ModelSingleQueryAttention, OddWidthsAndStridedHeads) {
  torch::manual_seed(4);
  const int64_t B = 3, H = 2, S = 7, Dh = 13, Dv = 37;  // tails of the vector loops
  // Keys and values as split_heads makes them: [B,S,H,D] viewed as [B,H,S,D].
  auto k = torch::randn({B, S, H, Dh}).transpose(1, 2);
  auto v = torch::randn({B, S, H, Dv}).transpose(1, 2);
  auto q = torch::randn({B, 1, H, Dh}).transpose(1, 2);
  auto keep = torch::rand({B, H, 1, S}).gt(0.5);
  keep.select(3, 2).fill_(true);
  ASSERT_FALSE(k.is_contiguous());
  ASSERT_TRUE(single_query_attention_applies(q, k, v, keep));
  expect_close(single_query_attention(q, k, v, keep), reference(q, k, v, keep));
  auto row_keep = torch::ones({S}, torch::kBool);  // a mask of rank 1 broadcasts too
  row_keep[4] = false;
  expect_close(single_query_attention(q, k, v, row_keep), reference(q, k, v, row_keep));
}

TEST(ModelSingleQueryAttention, ReadsBfloat16KeysAndValuesAsTheyAre) {
  torch::manual_seed(8);
  const int64_t B = 4, H = 2, S = 9, Dh = 64, Dv = 37;
  auto q = torch::randn({B, H, 1, Dh}).to(torch::kBFloat16);
  auto k = torch::randn({B, S, H, Dh}).to(torch::kBFloat16).transpose(1, 2);
  auto v = torch::randn({B, S, H, Dv}).to(torch::kBFloat16).transpose(1, 2);
  auto keep = torch::rand({B, 1, 1, S}).gt(0.3);
  keep.select(3, 0).fill_(true);
  ASSERT_TRUE(single_query_attention_applies(q, k, v, keep));
  auto got = single_query_attention(q, k, v, keep);
  EXPECT_EQ(got.output.scalar_type(), torch::kBFloat16);
  EXPECT_EQ(got.weights.scalar_type(), torch::kBFloat16);
  // The same bfloat16 values in double precision; the result is rounded to bfloat16 once.
  auto want = reference(q, k, v, keep);
  EXPECT_TRUE(torch::allclose(got.output.to(torch::kDouble), want.output, 1e-2, 1e-2));
  EXPECT_TRUE(torch::allclose(got.weights.to(torch::kDouble), want.weights, 1e-2, 1e-3));
  EXPECT_FALSE(single_query_attention_applies(q, k.to(torch::kFloat), v, keep));  // mixed
}

TEST(ModelSingleQueryAttention, MaskedKeysGetZeroAndAPairWithNoKeyAZeroRow) {
  torch::manual_seed(5);
  auto q = torch::randn({2, 1, 1, 8}), k = torch::randn({2, 1, 3, 8}) * 50;
  auto v = torch::randn({2, 1, 3, 8});
  auto keep = torch::tensor({true, false, true, false, false, false}).view({2, 1, 1, 3});
  auto result = single_query_attention(q, k, v, keep);
  EXPECT_EQ(result.weights[0][0][0][1].item<float>(), 0.0f);
  EXPECT_NEAR(result.weights[0].sum().item<float>(), 1.0f, 1e-6);
  EXPECT_TRUE(result.weights[1].eq(0).all().item<bool>());
  EXPECT_TRUE(result.output[1].eq(0).all().item<bool>());
  EXPECT_FALSE(result.output.isnan().any().item<bool>());
}

TEST(ModelSingleQueryAttention, APairDependsOnItselfAlone) {
  torch::manual_seed(6);
  const int64_t B = 6, H = 4, S = 9, Dh = 32;
  auto q = torch::randn({B, H, 1, Dh}), k = torch::randn({B, H, S, Dh});
  auto v = torch::randn({B, H, S, Dh});
  auto keep = torch::rand({B, 1, 1, S}).gt(0.2);
  auto all = single_query_attention(q, k, v, keep);
  auto sl = [](const torch::Tensor& x) { return x.narrow(0, 4, 1); };
  auto alone = single_query_attention(sl(q), sl(k), sl(v), sl(keep));
  EXPECT_TRUE(torch::equal(sl(all.output), alone.output));  // bit for bit
  EXPECT_TRUE(torch::equal(sl(all.weights), alone.weights));
}

TEST(ModelSingleQueryAttention, ManyQueriesWithPaddingAndCausalMasks) {
  torch::manual_seed(9);
  const int64_t B = 3, H = 4, T = 6, S = 10, Dh = 64;
  auto q = torch::randn({B, H, T, Dh}), k = torch::randn({B, H, S, Dh});
  auto v = torch::randn({B, H, S, Dh});
  auto keep = torch::rand({B, 1, 1, S}).gt(0.3);  // an encoder's padding mask
  keep.select(3, 0).fill_(true);
  ASSERT_TRUE(single_query_attention_applies(q, k, v, keep));
  expect_close(single_query_attention(q, k, v, keep), reference(q, k, v, keep));
  expect_close(dot_product_attention_with_weights(q, k, v, keep), reference(q, k, v, keep));
  // A decoder's causal mask [T,T] with its own queries as keys, and a query with no key left.
  auto self = torch::randn({B, H, T, Dh});
  auto causal = torch::ones({T, T}, torch::kBool).tril();
  causal[0][0] = false;
  expect_close(single_query_attention(q, self, self, causal), reference(q, self, self, causal));
  auto bf16 = single_query_attention(q.to(torch::kBFloat16), k.to(torch::kBFloat16),
                                     v.to(torch::kBFloat16), keep);
  EXPECT_EQ(bf16.output.sizes(), (std::vector<int64_t>{B, H, T, Dh}));
  EXPECT_TRUE(torch::allclose(bf16.output.to(torch::kFloat),
                              reference(q, k, v, keep).output.to(torch::kFloat), 0.05, 0.05));
}

// What matmul did not give (its kernels sum in an order that depends on the sizes): a sentence
// encoded with more padding, or beside longer sentences, gets the same bits.
TEST(ModelSingleQueryAttention, AQueryRowIgnoresPaddingAndOtherRowsBitForBit) {
  torch::manual_seed(10);
  const int64_t H = 4, T = 7, S = 7, P = 23, Dh = 64;
  auto q = torch::randn({1, H, T, Dh}), k = torch::randn({1, H, S, Dh});
  auto v = torch::randn({1, H, S, Dh});
  auto alone = single_query_attention(q, k, v, torch::ones({1, 1, 1, S}, torch::kBool));
  // The same sentence padded to P positions (padding keys masked, padding queries ignored),
  // second of a batch of three.
  auto pad = [&](const torch::Tensor& x) {
    return torch::cat(
        {torch::randn({1, H, P, Dh}), torch::cat({x, torch::randn({1, H, P - x.size(2), Dh})}, 2),
         torch::randn({1, H, P, Dh})},
        0);
  };
  auto keep = torch::zeros({3, 1, 1, P}, torch::kBool);
  keep[0].fill_(true);
  keep[1].narrow(-1, 0, S).fill_(true);
  keep[2].narrow(-1, 0, P - 3).fill_(true);
  auto batch = single_query_attention(pad(q), pad(k), pad(v), keep);
  auto mine = [&](const torch::Tensor& x, int64_t width) {
    return x.narrow(0, 1, 1).narrow(2, 0, T).narrow(3, 0, width);
  };
  EXPECT_TRUE(torch::equal(mine(batch.output, Dh), alone.output));
  EXPECT_TRUE(torch::equal(mine(batch.weights, S), alone.weights));
  EXPECT_TRUE(mine(batch.weights.narrow(3, S, P - S), P - S).eq(0).all().item<bool>());
}

TEST(ModelSingleQueryAttention, LeavesOtherOperandsToTheTensorForm) {
  auto q = torch::randn({2, 2, 1, 8}), k = torch::randn({2, 2, 5, 8});
  auto v = torch::randn({2, 2, 5, 8});
  EXPECT_TRUE(single_query_attention_applies(q, k, v, torch::Tensor()));
  EXPECT_TRUE(single_query_attention_applies(torch::randn({2, 2, 3, 8}), k, v, {}));   // T = 3
  EXPECT_FALSE(single_query_attention_applies(torch::randn({2, 2, 0, 8}), k, v, {}));  // T = 0
  EXPECT_FALSE(single_query_attention_applies(q.to(torch::kDouble), k, v, {}));
  EXPECT_FALSE(single_query_attention_applies(q.to(torch::kHalf), k.to(torch::kHalf),
                                              v.to(torch::kHalf), {}));
  EXPECT_FALSE(single_query_attention_applies(q[0], k[0], v[0], {}));  // rank 3
  EXPECT_FALSE(single_query_attention_applies(q, k, v, torch::ones({2, 2, 1, 4}, torch::kBool)));
  EXPECT_FALSE(single_query_attention_applies(q, k, v, torch::ones({2, 2, 1, 5})));  // not bool
  auto trained = q.clone().requires_grad_(true);
  EXPECT_FALSE(single_query_attention_applies(trained, k, v, {}));  // gradients wanted
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(single_query_attention_applies(trained, k, v, {}));
}

}  // namespace
}  // namespace atento::model
