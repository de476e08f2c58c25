// Greedy decoding in padded buckets (translate.cuda_graphs, app/translate/greedy_graphs.h):
// batches of any size and length give what greedy_search gives them, one bucket's buffers
// serving batch after batch. On a CUDA device with a CUDA LibTorch, captured and replayed
// steps against eager greedy decoding as well.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "app/common/cuda_graph.h"
#include "app/translate/greedy_graphs.h"
#include "model/search.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

using model::testing::kBos;
using model::testing::kEos;
using model::testing::pad_rows;

model::SearchOptions graphs_search_options() {
  model::SearchOptions options;
  options.beam = 1;
  options.bos_id = kBos;
  options.eos_id = kEos;
  return options;
}

model::Seq2Seq graphs_test_model() {
  torch::manual_seed(53);
  model::Seq2Seq model(model::testing::small_options(model::Norm::kPre));  // max_len 16
  model->eval();
  return model;
}

/// Batches of 1 to 5 rows and 1 to 11 source tokens: buckets of 1, 2, 4 and 8 rows and 8 or
/// 16 columns, several batches per bucket.
std::vector<torch::Tensor> graphs_test_batches() {
  return {pad_rows({{4, 5, 6}, {7, 8, 9, 10, 11}, {12}}),
          pad_rows({{13, 14}, {15, 16, 17, 18, 19, 20, 21, 22, 4, 5, 6}}),
          pad_rows({{7, 8}, {9}, {10, 11, 12, 13}}),
          pad_rows({{4, 5, 6, 7, 8, 9}, {10}, {11, 12}, {13, 14, 15}, {16}}),
          pad_rows({{5, 6, 7}})};
}

void expect_greedy_search_hypotheses(const std::vector<std::vector<model::Hypothesis>>& got,
                                     const std::vector<std::vector<model::Hypothesis>>& want,
                                     size_t batch) {
  ASSERT_EQ(got.size(), want.size()) << "batch " << batch;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].size(), 1u);
    EXPECT_EQ(got[i][0].tokens, want[i][0].tokens) << "batch " << batch << " row " << i;
    EXPECT_NEAR(got[i][0].score, want[i][0].score, 1e-4) << "batch " << batch << " row " << i;
  }
}

TEST(GreedyGraphs, BucketedBatchesGiveGreedySearchHypotheses) {
  auto model = graphs_test_model();
  GreedyGraphs graphs(model, graphs_search_options(), torch::kCPU, /*capture=*/true);
  EXPECT_FALSE(graphs.capturing());  // no CUDA graphs on the CPU: eager steps
  const auto all = graphs_test_batches();
  for (size_t b = 0; b < all.size(); ++b) {
    expect_greedy_search_hypotheses(
        graphs.run(all[b]), model::greedy_search(model, all[b], graphs_search_options()), b);
  }
  EXPECT_EQ(graphs.graphs(), 0);
  EXPECT_TRUE(graphs.run(torch::zeros({0, 3}, torch::kLong)).empty());
}

TEST(GreedyGraphs, RefusesBeamSearch) {
  auto options = graphs_search_options();
  options.beam = 2;
  EXPECT_THROW(GreedyGraphs(graphs_test_model(), options, torch::kCPU, false), c10::Error);
}

TEST(GreedyGraphs, CapturedStepsOnCudaGiveEagerHypotheses) {
  if (!cuda_graphs_built() || !torch::cuda::is_available()) {
    GTEST_SKIP() << "needs a CUDA device and a LibTorch built with CUDA";
  }
  const torch::Device cuda(torch::kCUDA, 0);
  auto model = graphs_test_model();
  model->to(cuda);
  GreedyGraphs graphs(model, graphs_search_options(), cuda, /*capture=*/true);
  ASSERT_TRUE(graphs.capturing());
  const auto all = graphs_test_batches();
  for (size_t b = 0; b < all.size(); ++b) {
    const auto src = all[b].to(cuda);
    expect_greedy_search_hypotheses(graphs.run(src),
                                    model::greedy_search(model, src, graphs_search_options()), b);
  }
  EXPECT_EQ(graphs.graphs(), 4);  // buckets (4,8), (2,16), (8,8), (1,8)
}

}  // namespace
}  // namespace atento
