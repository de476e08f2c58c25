// The fixed-shape objective of CUDA graphs against the one that leaves padding out: the same
// loss, sums and gradients, also on a batch padded with rows and positions.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "app/scoring/teacher_forcing.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

namespace mt = model::testing;

std::vector<data::Example> examples_of(const mt::Pairs& pairs) {
  std::vector<data::Example> out;
  for (size_t i = 0; i < pairs.src.size(); ++i) {
    std::vector<int64_t> tgt{mt::kBos};
    tgt.insert(tgt.end(), pairs.tgt[i].begin(), pairs.tgt[i].end());
    tgt.push_back(mt::kEos);
    out.push_back({pairs.src[i], tgt});
  }
  return out;
}

std::vector<torch::Tensor> gradients(model::Seq2Seq& model, const torch::Tensor& loss) {
  model->zero_grad();
  loss.backward();
  std::vector<torch::Tensor> out;
  for (const auto& p : model->parameters()) out.push_back(p.grad().clone());
  return out;
}

TEST(TeacherForcedStatic, EqualsTheObjectiveWithoutPaddingAlsoWhenPadded) {
  torch::manual_seed(5);
  auto options = mt::small_options();
  options.dropout = 0.0;
  options.output_dropout = 0.0;
  model::Seq2Seq model(options);
  const auto examples = examples_of(mt::random_pairs(5, 20, 26, 2, 9));
  const auto batch = data::collate(examples, {0, 1, 2, 3, 4});
  const auto padded = data::pad_batch(batch, 8, batch.src.size(1) + 3, batch.tgt_in.size(1) + 5);
  for (double smoothing : {0.0, 0.1}) {
    const auto reference = teacher_forced(model, batch, smoothing, torch::kCPU);
    const auto reference_grads = gradients(model, reference.loss);
    for (const auto* b : {&batch, &padded}) {
      const auto fixed = teacher_forced_static(model, *b, smoothing);
      EXPECT_NEAR(fixed.loss.item<double>(), reference.loss.item<double>(), 1e-4);
      EXPECT_NEAR(fixed.nll_sum.item<double>(), reference.nll_sum.item<double>(), 1e-4);
      EXPECT_EQ(fixed.correct.item<int64_t>(), reference.correct.item<int64_t>());
      const auto grads = gradients(model, fixed.loss);
      ASSERT_EQ(grads.size(), reference_grads.size());
      for (size_t i = 0; i < grads.size(); ++i) {
        EXPECT_TRUE(torch::allclose(grads[i], reference_grads[i], 1e-4, 1e-6)) << "parameter " << i;
      }
    }
  }
}

}  // namespace
}  // namespace atento
