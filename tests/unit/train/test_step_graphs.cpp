// Fixed-shape training steps (CUDA graphs): buckets, buffers, and a whole step (objective,
// clipping, optimiser) in its graph form against LibTorch's eager step: the same weights. On a
// CUDA device with a CUDA LibTorch, captured and replayed steps against eager ones as well.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "app/common/cuda_graph.h"
#include "app/scoring/teacher_forcing.h"
#include "app/train/capturable_optimizer.h"
#include "app/train/gradient_clipping.h"
#include "app/train/optimizer.h"
#include "app/train/step_graphs.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

namespace mt = model::testing;

data::Batch batch_of(int64_t rows, int64_t src_len, int64_t tgt_len, int64_t seed) {
  torch::manual_seed(seed);
  std::vector<data::Example> examples;
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t s = i == 0 ? src_len : 1 + (i * 5) % src_len;
    const int64_t t = i == 0 ? tgt_len : 1 + (i * 3) % tgt_len;
    data::Example example;
    for (int64_t k = 0; k < s; ++k) example.src.push_back(mt::kFirstWord + (i + 2 * k) % 17);
    example.tgt.push_back(mt::kBos);
    for (int64_t k = 0; k + 1 < t; ++k) example.tgt.push_back(mt::kFirstWord + (i + k) % 23);
    example.tgt.push_back(mt::kEos);
    examples.push_back(example);
    indices.push_back(i);
  }
  return data::collate(examples, indices);
}

TEST(StepBucket, RoundsLengthsToEightsAndRowsToPowersOfTwo) {
  const auto shape = step_bucket(batch_of(5, 9, 3, 1), 64, 64);
  EXPECT_EQ(shape.rows, 8);
  EXPECT_EQ(shape.src_len, 16);
  EXPECT_EQ(shape.tgt_len, 8);
  const auto capped = step_bucket(batch_of(8, 19, 20, 1), 20, 20);
  EXPECT_EQ(capped.rows, 8);
  EXPECT_EQ(capped.src_len, 20);  // 24 capped at the longest the batcher makes
  EXPECT_EQ(capped.tgt_len, 20);
  const auto longer = step_bucket(batch_of(1, 30, 2, 1), 20, 20);
  EXPECT_EQ(longer.src_len, 30);  // never below the batch's own length
}

TEST(StepGraphs, PadsIntoOneSetOfBuffersPerBucket) {
  std::vector<const StepBuffers*> seen;
  StepGraphs graphs([&](StepBuffers& b) { seen.push_back(&b); }, torch::kCPU, /*capture=*/true, 64,
                    64);
  const auto a = batch_of(5, 9, 3, 1);
  const auto& out = graphs.run(a, 7.0);
  EXPECT_EQ(out.batch.src.sizes(), (at::IntArrayRef{8, 16}));
  EXPECT_TRUE(torch::equal(out.batch.src.narrow(0, 0, 5).narrow(1, 0, 9), a.src));
  EXPECT_EQ(out.batch.src_keep.sum().item<int64_t>(), a.src_keep.sum().item<int64_t>());
  EXPECT_EQ(out.batch.tgt_keep.sum().item<int64_t>(), a.target_tokens);
  EXPECT_EQ(out.loss_divisor.item<float>(), 7.0f);
  graphs.run(batch_of(6, 12, 5, 2), 3.0);  // the same bucket
  graphs.run(batch_of(2, 12, 5, 2), 3.0);  // another
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], seen[1]);
  EXPECT_NE(seen[0], seen[2]);
  EXPECT_EQ(graphs.graphs(), 0);  // the CPU: nothing captured, every step eager
  EXPECT_EQ(graphs.eager_steps(), 3);
  EXPECT_FALSE(seen[0]->batch.src_keep.narrow(0, 6, 2).any().item<bool>());  // padding rows
}

/// A model and its optimiser, stepped either as LibTorch does (eager_step) or in graph form.
struct TrainingRun {
  explicit TrainingRun(const torch::Device& device) {
    torch::manual_seed(9);
    auto o = mt::small_options();
    o.dropout = 0.0;
    o.output_dropout = 0.0;
    model = model::Seq2Seq(o);
    model->to(device);
    t.optimizer = OptimizerKind::kAdam;
    t.lr = 3e-3;
    t.clip_norm = 0.5;
    t.label_smoothing = 0.1;
    // Some gradients are 0 in exact arithmetic and rounding noise in floats (the attention key
    // projection's bias: softmax ignores a shift shared by a query's scores). Adam with a tiny
    // eps turns noise into full steps of either sign, so padding's other summation order would
    // show as lr-sized gaps there; with eps 1e-4 noise moves nothing.
    t.eps = 1e-4;
    optimizer = make_optimizer(t, model->parameters());
  }
  void eager_step(const data::Batch& batch, const torch::Device& device) {
    for (auto& p : model->parameters()) p.mutable_grad() = torch::Tensor();
    auto objective = teacher_forced(model, batch, t.label_smoothing, device);
    (objective.loss / static_cast<double>(batch.target_tokens)).backward();
    clip_gradients(model->parameters(), t.clip_norm);
    optimizer->step();
  }
  void graph_step(StepBuffers& b) {
    for (auto& p : model->parameters()) p.mutable_grad() = torch::Tensor();
    auto objective = teacher_forced_static(model, b.batch, t.label_smoothing);
    auto loss = objective.loss / b.loss_divisor;
    loss.backward();
    torch::NoGradGuard no_grad;
    b.step_loss.copy_(loss);
    clip_gradients(model->parameters(), t.clip_norm);
    capturable->queue_step();
  }
  std::unique_ptr<StepGraphs> graphs_on(const torch::Device& device, bool capture) {
    capturable = std::make_unique<CapturableOptimizerStep>(*optimizer, t, device);
    return std::make_unique<StepGraphs>([this](StepBuffers& b) { graph_step(b); }, device, capture,
                                        16, 16);
  }
  TrainOptions t;
  model::Seq2Seq model{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<CapturableOptimizerStep> capturable;
};

void expect_same_weights(TrainingRun& a, TrainingRun& b, double tolerance) {
  auto pa = a.model->parameters(), pb = b.model->parameters();
  for (size_t i = 0; i < pa.size(); ++i) {
    const double gap = (pa[i] - pb[i]).abs().max().item<double>();
    EXPECT_LT(gap, tolerance) << "parameter " << i;
  }
}

std::vector<data::Batch> batches() {
  // Two buckets, each visited several times (a graph's replays), with a changing lr.
  return {batch_of(5, 9, 7, 1),   batch_of(3, 14, 12, 2), batch_of(6, 11, 6, 3),
          batch_of(4, 13, 10, 4), batch_of(7, 10, 8, 5),  batch_of(3, 15, 13, 6)};
}

TEST(StepGraphs, AGraphFormStepGivesLibTorchsWeights) {
  TrainingRun eager(torch::kCPU), graphed(torch::kCPU);
  auto graphs = graphed.graphs_on(torch::kCPU, /*capture=*/false);
  int step = 0;
  for (const auto& batch : batches()) {
    const double lr = 3e-3 / (1 + step++);
    set_learning_rate(*eager.optimizer, lr);
    eager.eager_step(batch, torch::kCPU);
    graphed.capturable->set_learning_rate(lr);
    graphs->run(batch, static_cast<double>(batch.target_tokens));
    graphed.capturable->count_step();
  }
  expect_same_weights(eager, graphed, 1e-5);
}

TEST(StepGraphs, CapturedStepsOnCudaGiveTheEagerWeights) {
  if (!cuda_graphs_built() || !torch::cuda::is_available()) {
    GTEST_SKIP() << "needs a CUDA device and a LibTorch built with CUDA";
  }
  const torch::Device cuda(torch::kCUDA, 0);
  TrainingRun eager(cuda), captured(cuda);
  auto eager_graphs = eager.graphs_on(cuda, /*capture=*/false);
  auto graphs = captured.graphs_on(cuda, /*capture=*/true);
  int step = 0;
  for (const auto& batch : batches()) {
    const double lr = 3e-3 / (1 + step++);
    for (TrainingRun* run : {&eager, &captured}) run->capturable->set_learning_rate(lr);
    eager_graphs->run(batch, static_cast<double>(batch.target_tokens));
    graphs->run(batch, static_cast<double>(batch.target_tokens));
    for (TrainingRun* run : {&eager, &captured}) run->capturable->count_step();
  }
  EXPECT_EQ(graphs->graphs(), 2);
  EXPECT_EQ(graphs->eager_steps(), 0);
  expect_same_weights(eager, captured, 1e-5);
}

}  // namespace
}  // namespace atento
