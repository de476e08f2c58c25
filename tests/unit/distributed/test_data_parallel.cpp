// Data-parallel pieces: the rank environment, gradient buckets, and the collectives over a
// real Gloo group of two ranks (two threads of this process meeting on loopback).

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <array>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <string>

#include "app/distributed/data_parallel.h"
#include "app/distributed/gradient_reducer.h"
#include "app/distributed/local_launcher.h"
#include "app/distributed/process_group.h"
#include "app/distributed/rank_environment.h"

namespace atento {
namespace {

std::map<std::string, std::string> g_env;
const char* fake_env(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(RankEnvironment, UnsetMeansOneProcess) {
  g_env = {};
  auto env = rank_environment(&fake_env);
  EXPECT_FALSE(env.distributed());
  EXPECT_EQ(env.rank, 0);
  EXPECT_EQ(env.world_size, 1);
}

TEST(RankEnvironment, ReadsTorchrunVariables) {
  g_env = {{"RANK", "3"},
           {"WORLD_SIZE", "4"},
           {"LOCAL_RANK", "1"},
           {"LOCAL_WORLD_SIZE", "2"},
           {"MASTER_ADDR", "10.0.0.7"},
           {"MASTER_PORT", "29511"}};
  auto env = rank_environment(&fake_env);
  EXPECT_TRUE(env.distributed());
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(env.local_world_size, 2);
  EXPECT_EQ(env.master_addr, "10.0.0.7");
  EXPECT_EQ(env.master_port, 29511);
}

TEST(RankEnvironment, WorldSizeOneIsAGroupOfOne) {
  g_env = {{"WORLD_SIZE", "1"}};
  auto env = rank_environment(&fake_env);
  EXPECT_TRUE(env.distributed());  // collectives run, e.g. to measure their cost
  EXPECT_EQ(env.world_size, 1);
}

TEST(RankEnvironment, BadValuesNameTheVariable) {
  auto message = [](std::map<std::string, std::string> env) {
    g_env = std::move(env);
    try {
      rank_environment(&fake_env);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"WORLD_SIZE", "two"}, {"RANK", "0"}}).find("WORLD_SIZE"), std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "2"}, {"RANK", "2"}}).find("RANK: must be in [0, 1]"),
            std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "2"}}).find("RANK: must be set"), std::string::npos);
  EXPECT_NE(message({{"MASTER_PORT", "70000"}}).find("MASTER_PORT"), std::string::npos);
}

TEST(GradientBuckets, KeepOrderAndRespectTheCap) {
  std::vector<torch::Tensor> params{torch::zeros({10}), torch::zeros({10}), torch::zeros({30}),
                                    torch::zeros({5}, torch::kDouble), torch::zeros({5})};
  auto buckets = gradient_buckets(params, 80);  // 20 floats
  // 10+10 floats fit; 30 alone (over the cap); a double starts its own; then a float again.
  std::vector<std::vector<size_t>> want{{0, 1}, {2}, {3}, {4}};
  EXPECT_EQ(buckets, want);
}

/// Runs `body(group)` on two ranks (threads) of a Gloo group on loopback.
void on_two_ranks(const std::function<void(ProcessGroup&)>& body) {
  if (!backend_available(Backend::kGloo)) GTEST_SKIP() << "built without the Gloo backend";
  const int port = free_loopback_port();
  auto rank = [&](int r) {
    RankEnvironment env;
    env.rank = r;
    env.world_size = 2;
    env.in_group = true;
    env.master_port = port;
    auto group = ProcessGroup::join(env, Backend::kGloo, torch::kCPU, std::chrono::seconds(30));
    body(group);
  };
  auto other = std::async(std::launch::async, rank, 1);
  rank(0);
  other.get();
}

TEST(GlooGroup, GradientsAreSummedAndNeverComputedOnesStayUndefined) {
  on_two_ranks([](ProcessGroup& group) {
    const double r = static_cast<double>(group.rank());
    auto opts = torch::TensorOptions().requires_grad(true);
    auto both = torch::zeros({3}, opts), only_rank1 = torch::zeros({2}, opts),
         nobody = torch::zeros({4}, opts);
    // Buckets of 2 floats: several buckets, some started during backward, some after it.
    GradientReducer reducer(group, {both, only_rank1, nobody}, 8);
    for (int step = 0; step < 2; ++step) {  // the reducer starts afresh every step
      for (auto* p : {&both, &only_rank1, &nobody}) p->mutable_grad() = torch::Tensor();
      // Two micro-batches: the first only accumulates, the second's buckets start in backward.
      (both * (1.0 + r)).sum().backward();
      reducer.arm();
      auto loss = (both * 1.0).sum();
      if (group.rank() == 1) loss = loss + (only_rank1 * 5.0).sum();
      loss.backward();
      auto extra = torch::tensor({10.0 * (r + 1)}, torch::kDouble);
      reducer.finish(extra);
      EXPECT_TRUE(torch::equal(both.grad(), torch::full({3}, 5.0)));  // rank 0: 1+1, rank 1: 2+1
      EXPECT_TRUE(torch::equal(only_rank1.grad(), torch::full({2}, 5.0)));
      EXPECT_FALSE(nobody.grad().defined());
      EXPECT_EQ(extra.item<double>(), 30.0);
    }
  });
}

TEST(GlooGroup, ARankWithNoDataStillTakesPart) {
  on_two_ranks([](ProcessGroup& group) {
    auto w = torch::zeros({5}, torch::TensorOptions().requires_grad(true));
    GradientReducer reducer(group, {w}, 8);
    if (group.rank() == 0) {  // rank 1's shard is empty: no backward there
      reducer.arm();
      (w * 2.0).sum().backward();
    }
    auto extra = torch::zeros({1}, torch::kDouble);
    reducer.finish(extra);
    EXPECT_TRUE(torch::equal(w.grad(), torch::full({5}, 2.0)));
  });
}

TEST(GlooGroup, WeightsComeFromRankZeroAndTotalsAreSummed) {
  on_two_ranks([](ProcessGroup& group) {
    torch::manual_seed(100 + group.rank());  // different weights on each rank
    torch::nn::Linear layer(4, 3);
    broadcast_weights(group, *layer);
    auto check = layer->weight.detach().clone();
    std::vector<torch::Tensor> sum{check.clone()};
    group.all_reduce_sum(sum);
    EXPECT_TRUE(torch::allclose(sum[0], 2 * check));  // equal on both ranks
    TeacherForcedTotals mine;
    mine.nll_sum = 1.5 + group.rank();
    mine.correct = 3;
    mine.judged = 4;
    mine.tokens = 5 + group.rank();
    auto all = all_reduce_totals(group, mine);
    EXPECT_DOUBLE_EQ(all.nll_sum, 4.0);
    EXPECT_EQ(all.correct, 6);
    EXPECT_EQ(all.judged, 8);
    EXPECT_EQ(all.tokens, 11);
    BleuStats bleu;  // the validation BLEU's statistics, one share per rank
    bleu.correct = {4 + group.rank(), 3, 2, 1};
    bleu.total = {5, 4, 3 + group.rank(), 2};
    bleu.sys_len = 5 + group.rank();
    bleu.ref_len = 6;
    auto summed = all_reduce_bleu_stats(group, bleu);
    EXPECT_EQ(summed.correct, (std::array<int64_t, 4>{9, 6, 4, 2}));
    EXPECT_EQ(summed.total, (std::array<int64_t, 4>{10, 8, 7, 4}));
    EXPECT_EQ(summed.sys_len, 11);
    EXPECT_EQ(summed.ref_len, 12);
    auto flag = torch::tensor({double(group.rank())}, torch::kDouble);
    group.all_reduce_max(flag);
    EXPECT_EQ(flag.item<double>(), 1.0);
  });
}

TEST(GlooGroup, AMissingPeerIsAClearErrorWithinTheTimeout) {
  if (!backend_available(Backend::kGloo)) GTEST_SKIP() << "built without the Gloo backend";
  RankEnvironment env;
  env.world_size = 2;
  env.in_group = true;
  env.master_port = free_loopback_port();
  try {
    ProcessGroup::join(env, Backend::kGloo, torch::kCPU, std::chrono::seconds(2));
    FAIL() << "joined a group whose rank 1 never started";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 of 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace atento
