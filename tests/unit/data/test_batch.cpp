// Batching: padding, masks, the teacher-forcing shift, token budgets, seeded order.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

#include "data/batch.h"
#include "data/random.h"

namespace atento::data {
namespace {

std::vector<int64_t> row(const at::Tensor& tensor, int64_t b) {
  const at::Tensor r = tensor[b].contiguous();
  return std::vector<int64_t>(r.data_ptr<int64_t>(), r.data_ptr<int64_t>() + r.numel());
}

std::vector<bool> keep_row(const at::Tensor& tensor, int64_t b) {
  const at::Tensor r = tensor[b].contiguous();
  return std::vector<bool>(r.data_ptr<bool>(), r.data_ptr<bool>() + r.numel());
}

using Ids = std::vector<int64_t>;

TEST(BatchCollate, PadsToTheLongestWithIdZeroAndBuildsKeepMasks) {
  const std::vector<Example> examples = {
      {{10, 11, 12}, {2, 20, 21, 3}},
      {{13}, {2, 22, 3}},
      {{14, 15}, {2, 3}},
  };
  const Batch batch = collate(examples, {0, 1, 2});
  EXPECT_EQ(batch.src.sizes(), (at::IntArrayRef{3, 3}));
  EXPECT_EQ(batch.tgt_in.sizes(), (at::IntArrayRef{3, 3}));
  EXPECT_EQ(batch.tgt_out.sizes(), (at::IntArrayRef{3, 3}));
  EXPECT_EQ(batch.src.scalar_type(), at::kLong);
  EXPECT_EQ(batch.src_keep.scalar_type(), at::kBool);
  EXPECT_EQ(batch.tgt_keep.scalar_type(), at::kBool);
  EXPECT_EQ(row(batch.src, 0), (Ids{10, 11, 12}));
  EXPECT_EQ(row(batch.src, 1), (Ids{13, 0, 0}));
  EXPECT_EQ(row(batch.src, 2), (Ids{14, 15, 0}));
  EXPECT_EQ(keep_row(batch.src_keep, 1), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(keep_row(batch.src_keep, 2), (std::vector<bool>{true, true, false}));
}

TEST(BatchCollate, ShiftsTargetsForTeacherForcing) {
  const std::vector<Example> examples = {{{5}, {2, 20, 21, 3}}, {{6}, {2, 22, 3}}};
  const Batch batch = collate(examples, {0, 1});
  EXPECT_EQ(row(batch.tgt_in, 0), (Ids{2, 20, 21}));   // target[:-1]
  EXPECT_EQ(row(batch.tgt_out, 0), (Ids{20, 21, 3}));  // target[1:]
  EXPECT_EQ(row(batch.tgt_in, 1), (Ids{2, 22, 0}));
  EXPECT_EQ(row(batch.tgt_out, 1), (Ids{22, 3, 0}));
  EXPECT_EQ(keep_row(batch.tgt_keep, 1), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(batch.target_tokens, 5);
  EXPECT_EQ(batch.target_tokens, batch.tgt_keep.sum().item<int64_t>());
  // Padding sits exactly where the keep mask is false.
  EXPECT_TRUE(at::equal(batch.tgt_out.ne(0), batch.tgt_keep));
  EXPECT_TRUE(at::equal(batch.src.ne(0), batch.src_keep));
}

TEST(BatchCollate, KeepsTheSelectionOrderAndIndices) {
  const std::vector<Example> examples = {{{1}, {2, 3}}, {{7, 8}, {2, 9, 3}}, {{4}, {2, 3}}};
  const Batch batch = collate(examples, {2, 0});
  EXPECT_EQ(batch.indices, (Ids{2, 0}));
  EXPECT_EQ(batch.src.size(0), 2);
  EXPECT_EQ(batch.src.size(1), 1);  // example 1 (length 2) is not in this batch
  EXPECT_EQ(row(batch.src, 0), (Ids{4}));
}

TEST(BatchCollate, EmptySourceBecomesAnAllPaddingRow) {
  const std::vector<Example> examples = {{{}, {2, 5, 3}}};
  const Batch batch = collate(examples, {0});
  EXPECT_EQ(batch.src.sizes(), (at::IntArrayRef{1, 1}));
  EXPECT_FALSE(batch.src_keep.any().item<bool>());
}

TEST(BatchCollate, RejectsBadIndicesAndTargetsWithoutBosEos) {
  const std::vector<Example> examples = {{{1}, {2, 3}}, {{1}, {2}}};
  EXPECT_THROW(collate(examples, {}), std::invalid_argument);
  EXPECT_THROW(collate(examples, {2}), std::invalid_argument);
  EXPECT_THROW(collate(examples, {-1}), std::invalid_argument);
  EXPECT_THROW(collate(examples, {1}), std::invalid_argument);
}

TEST(BatchPad, AddsPaddingRowsAndPositionsKeepingTheBatch) {
  const std::vector<Example> examples = {{{10, 11}, {2, 20, 3}}, {{13}, {2, 3}}};
  const Batch batch = collate(examples, {0, 1});
  const Batch padded = pad_batch(batch, 4, 5, 3);
  EXPECT_EQ(padded.src.sizes(), (at::IntArrayRef{4, 5}));
  EXPECT_EQ(padded.tgt_in.sizes(), (at::IntArrayRef{4, 3}));
  EXPECT_EQ(row(padded.src, 0), (Ids{10, 11, 0, 0, 0}));
  EXPECT_EQ(row(padded.tgt_out, 0), (Ids{20, 3, 0}));
  EXPECT_EQ(row(padded.src, 3), (Ids{0, 0, 0, 0, 0}));
  EXPECT_EQ(padded.src_keep.sum().item<int64_t>(), batch.src_keep.sum().item<int64_t>());
  EXPECT_EQ(padded.tgt_keep.sum().item<int64_t>(), batch.target_tokens);
  EXPECT_EQ(padded.target_tokens, batch.target_tokens);
  EXPECT_EQ(padded.indices, batch.indices);
  EXPECT_TRUE(at::equal(padded.tgt_out.ne(0), padded.tgt_keep));
  EXPECT_TRUE(at::equal(pad_batch(batch, 2, 2, 2).src, batch.src));  // already that shape
  EXPECT_THROW(pad_batch(batch, 1, 5, 3), std::invalid_argument);
  EXPECT_THROW(pad_batch(batch, 4, 1, 3), std::invalid_argument);
  EXPECT_THROW(pad_batch(batch, 4, 5, 1), std::invalid_argument);
}

// Examples of random lengths (1–30 source, 2–32 target), reproducibly.
std::vector<Example> random_examples(int n, uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<Example> examples(n);
  for (auto& example : examples) {
    example.src.assign(1 + rng.below(30), 7);
    example.tgt.assign(2 + rng.below(31), 8);
    example.tgt.front() = 2;
    example.tgt.back() = 3;
  }
  return examples;
}

void expect_each_index_once(const std::vector<std::vector<int64_t>>& batches, int n) {
  std::vector<int> seen(n, 0);
  for (const auto& batch : batches) {
    EXPECT_FALSE(batch.empty());
    for (const int64_t index : batch) {
      ASSERT_GE(index, 0);
      ASSERT_LT(index, n);
      ++seen[index];
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), n);
}

TEST(BatchMake, BySentenceCountGivesFullBatchesAndOneRemainder) {
  const auto examples = random_examples(103, 1);
  BatchOptions options;
  options.batch_size = 10;
  const auto batches = make_batches(examples, options, 1337, 0, true);
  ASSERT_EQ(batches.size(), 11u);
  int short_batches = 0;
  for (const auto& batch : batches) short_batches += batch.size() != 10u;
  EXPECT_EQ(short_batches, 1);
  expect_each_index_once(batches, 103);
}

TEST(BatchMake, TokenBudgetIsRespected) {
  const auto examples = random_examples(2000, 2);
  BatchOptions options;
  options.batch_tokens = 256;
  for (const bool bucket : {true, false}) {
    options.bucket_by_length = bucket;
    const auto batches = make_batches(examples, options, 1, 0, true);
    for (const auto& indices : batches) {
      const Batch batch = collate(examples, indices);
      const int64_t padded = batch.src.size(0) * std::max(batch.src.size(1), batch.tgt_in.size(1));
      EXPECT_LE(padded, 256) << "batch of " << indices.size();
    }
    expect_each_index_once(batches, 2000);
  }
}

TEST(BatchMake, ExampleLongerThanTheBudgetGetsABatchOfItsOwn) {
  std::vector<Example> examples = random_examples(50, 3);
  examples[7].src.assign(100, 9);
  BatchOptions options;
  options.batch_tokens = 64;
  const auto batches = make_batches(examples, options, 1, 0, true);
  expect_each_index_once(batches, 50);
  for (const auto& batch : batches) {
    if (std::find(batch.begin(), batch.end(), 7) != batch.end()) {
      EXPECT_EQ(batch.size(), 1u);
    }
  }
}

TEST(BatchMake, SameSeedAndEpochGiveTheSameBatchesOtherwiseDifferent) {
  const auto examples = random_examples(500, 4);
  BatchOptions options;
  options.batch_tokens = 300;
  const auto a = make_batches(examples, options, 99, 3, true);
  EXPECT_EQ(a, make_batches(examples, options, 99, 3, true));
  EXPECT_NE(a, make_batches(examples, options, 99, 4, true));
  EXPECT_NE(a, make_batches(examples, options, 100, 3, true));
}

TEST(BatchMake, WithoutShuffleKeepsInputOrder) {
  const auto examples = random_examples(77, 5);
  BatchOptions options;
  options.batch_tokens = 200;
  const auto batches = make_batches(examples, options, 1, 0, false);
  std::vector<int64_t> flat;
  for (const auto& batch : batches) flat.insert(flat.end(), batch.begin(), batch.end());
  std::vector<int64_t> expected(77);
  for (int i = 0; i < 77; ++i) expected[i] = i;
  EXPECT_EQ(flat, expected);
}

TEST(BatchMake, BucketingReducesPadding) {
  const auto examples = random_examples(3000, 6);
  BatchOptions options;
  options.batch_size = 32;
  const auto padding = [&](bool bucket) {
    options.bucket_by_length = bucket;
    int64_t pad = 0;
    for (const auto& indices : make_batches(examples, options, 1, 0, true)) {
      const Batch batch = collate(examples, indices);
      pad += batch.tgt_keep.numel() - batch.target_tokens;
    }
    return pad;
  };
  EXPECT_LT(padding(true) * 2, padding(false));
}

TEST(BatchMake, RejectsInvalidOptions) {
  const auto examples = random_examples(5, 7);
  BatchOptions options;
  options.batch_size = -1;
  EXPECT_THROW(make_batches(examples, options, 1, 0, true), std::invalid_argument);
  options.batch_size = 0;
  options.batch_tokens = 0;
  EXPECT_THROW(make_batches(examples, options, 1, 0, true), std::invalid_argument);
  options.batch_tokens = 10;
  EXPECT_TRUE(make_batches({}, options, 1, 0, true).empty());
}

}  // namespace
}  // namespace atento::data

namespace atento::data {
namespace {

TEST(Shard, ContiguousSlicesCoverTheBatchOnce) {
  std::vector<int64_t> batch{7, 3, 9, 1, 4};
  EXPECT_EQ(shard(batch, 0, 1), batch);
  EXPECT_EQ(shard(batch, 0, 2), (std::vector<int64_t>{7, 3}));
  EXPECT_EQ(shard(batch, 1, 2), (std::vector<int64_t>{9, 1, 4}));
  EXPECT_TRUE(shard({5}, 0, 2).empty());  // fewer examples than ranks: rank 0 gets none
  EXPECT_EQ(shard({5}, 1, 2), (std::vector<int64_t>{5}));
  EXPECT_THROW(shard(batch, 2, 2), std::invalid_argument);
}

TEST(Shard, TargetTokensMatchTheCollatedBatch) {
  std::vector<Example> examples{{{4, 5}, {1, 6, 7, 2}}, {{4}, {1, 2}}, {{9, 9, 9}, {1, 8, 2}}};
  std::vector<int64_t> all{0, 1, 2};
  EXPECT_EQ(target_tokens(examples, all), collate(examples, all).target_tokens);
  EXPECT_EQ(target_tokens(examples, all), 3 + 1 + 2);
}

}  // namespace
}  // namespace atento::data
