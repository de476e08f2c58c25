// Tier 2: invariants of the Transformer (causality, padding, KV cache, positions), parameter
// counts, checkpoints, and a memorisation run.

#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "model/checkpoint.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::pad_rows;
using testing::save_optimizer;
using testing::save_weights;
using testing::small_options;

// Every test builds its model in eval mode unless it trains.
Seq2Seq eval_model(const ModelOptions& options, uint64_t seed = 7) {
  torch::manual_seed(seed);
  Seq2Seq model(options);
  model->eval();
  return model;
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("atento_test_model_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

template <typename F>
std::string thrown_message(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

class ModelNorms : public ::testing::TestWithParam<Norm> {};

TEST_P(ModelNorms, FutureTargetTokensNeverChangeEarlierLogits) {
  auto model = eval_model(small_options(GetParam()));
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7}, {8, 9}});
  auto tgt = pad_rows({{1, 5, 6, 7, 8, 9}, {1, 10, 11, 12, 13, 14}});
  auto logits = model(src, tgt);  // [B,T,V]
  for (int64_t t = 0; t < 5; ++t) {
    auto changed = tgt.clone();
    changed.narrow(1, t + 1, 6 - t - 1).random_(3, 29);
    auto other = model(src, changed);
    EXPECT_TRUE(torch::allclose(other.narrow(1, 0, t + 1), logits.narrow(1, 0, t + 1), 0.0, 1e-6))
        << "position " << t;
  }
}

TEST_P(ModelNorms, AppendedPaddingLeavesRealPositionsUnchanged) {
  auto model = eval_model(small_options(GetParam()));
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7}, {8, 9}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 10}});
  auto logits = model(src, tgt);
  auto padded_src = model(pad_rows({{4, 5, 6, 7}, {8, 9}}, 9), tgt);
  EXPECT_TRUE(torch::allclose(padded_src, logits, 0.0, 1e-5));
  auto padded_tgt = model(src, pad_rows({{1, 5, 6, 7}, {1, 10}}, 8));
  EXPECT_TRUE(torch::allclose(padded_tgt.narrow(1, 0, 4)[0], logits[0], 0.0, 1e-5));
  EXPECT_TRUE(torch::allclose(padded_tgt.narrow(1, 0, 2)[1], logits.narrow(1, 0, 2)[1], 0.0, 1e-5));
  // A sentence alone equals the same sentence inside a padded batch.
  auto alone = model(pad_rows({{8, 9}}), pad_rows({{1, 10}}));
  EXPECT_TRUE(torch::allclose(alone[0], logits[1].narrow(0, 0, 2), 0.0, 1e-5));
}

TEST_P(ModelNorms, CachedDecodeStepsEqualForwardAndUncachedSteps) {
  auto model = eval_model(small_options(GetParam()));
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7, 8, 9}, {10, 11}, {12, 13, 14, 15}});
  auto tgt =
      pad_rows({{1, 5, 6, 7, 8, 9, 10}, {1, 11, 12, 13, 14, 15, 16}, {1, 17, 18, 19, 20, 21, 22}});
  auto cached = testing::expect_cached_steps_match(model, src, tgt, 1e-5);
  EXPECT_EQ(cached.step, tgt.size(1));
  EXPECT_TRUE(torch::equal(cached.prefix, tgt));
}

TEST_P(ModelNorms, ReorderOwnSkipsOnlyWhatWouldNotChange) {
  auto model = eval_model(small_options(GetParam()));
  torch::NoGradGuard no_grad;
  // two sentences expanded to two beams each, as beam search does: rows 0-1 decode one
  // source, rows 2-3 the other
  auto src = pad_rows({{4, 5, 6, 7}, {10, 11, 12}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 8, 9, 10}, {1, 11, 12, 13}, {1, 14, 15, 16}});
  auto state = model->start(model->encode(src), DecodeOptions{true, false});
  model->decode_step(state, torch::tensor({1, 1}, torch::kLong));
  state.reorder(torch::tensor({0, 0, 1, 1}, torch::kLong));
  model->decode_step(state, tgt.select(1, 1));
  const void* self_k = state.layers[0].self_k.data_ptr();
  state.reorder_own(torch::arange(4, torch::kLong), /*same_sources=*/false);
  EXPECT_EQ(state.layers[0].self_k.data_ptr(), self_k) << "identity: nothing copied";
  // beams swapped and duplicated within their sentences
  const auto rows = torch::tensor({1, 0, 2, 2}, torch::kLong);
  auto reference = state;  // shares the buffers; reorder() gathers into new ones
  reference.reorder(rows);
  const void* cross_k = state.layers[0].cross_k.data_ptr();
  state.reorder_own(rows, /*same_sources=*/true);
  EXPECT_EQ(state.layers[0].cross_k.data_ptr(), cross_k) << "per-source tensors kept";
  EXPECT_NE(state.layers[0].self_k.data_ptr(), self_k) << "self-attention cache reordered";
  for (int64_t t = 2; t < tgt.size(1); ++t) {
    auto got = model->decode_step(state, tgt.select(1, t));
    auto want = model->decode_step(reference, tgt.select(1, t));
    EXPECT_TRUE(torch::equal(got, want)) << "step " << t;
  }
}

TEST_P(ModelNorms, ReorderKeepsRowsConsistent) {
  auto model = eval_model(small_options(GetParam()));
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7, 8, 9}, {10, 11}, {12, 13, 14, 15}});
  auto tgt = pad_rows({{1, 5, 6, 7, 8}, {1, 11, 12, 13, 14}, {1, 17, 18, 19, 20}});
  auto encoded = model->encode(src);
  auto cached = model->start(encoded, DecodeOptions{true, true});
  auto uncached = model->start(encoded, DecodeOptions{false, true});
  for (int64_t t = 0; t < 2; ++t) {
    model->decode_step(cached, tgt.select(1, t));
    model->decode_step(uncached, tgt.select(1, t));
  }
  // Drop row 1, swap the others, duplicate one (beam expansion).
  auto rows = torch::tensor({2, 0, 2}, torch::kLong);
  cached.reorder(rows);
  uncached.reorder(rows);
  ASSERT_EQ(cached.rows(), 3);
  auto src_r = src.index_select(0, rows);
  auto tgt_r = tgt.index_select(0, rows);
  tgt_r[2][2] = 25;  // the duplicate continues differently
  tgt_r[2][3] = 26;
  auto logits = model(src_r, tgt_r);
  for (int64_t t = 2; t < tgt.size(1); ++t) {
    auto step_cached = model->decode_step(cached, tgt_r.select(1, t));
    auto step_uncached = model->decode_step(uncached, tgt_r.select(1, t));
    EXPECT_TRUE(torch::allclose(step_cached, logits.select(1, t), 0.0, 1e-5)) << "step " << t;
    EXPECT_TRUE(torch::allclose(step_uncached, step_cached, 0.0, 1e-5)) << "step " << t;
    ASSERT_EQ(cached.cross_attention.size(), 2u);
    for (size_t l = 0; l < 2; ++l) {
      EXPECT_TRUE(
          torch::allclose(cached.cross_attention[l], uncached.cross_attention[l], 0.0, 1e-5));
    }
  }
  // Recorded cross attention [B,H,S]: rows sum to 1 over the real source, padding gets 0.
  const auto& weights = cached.cross_attention[0];
  EXPECT_EQ(weights.sizes(), (std::vector<int64_t>{3, 4, 6}));
  EXPECT_TRUE(torch::allclose(weights.sum(-1), torch::ones({3, 4}), 0.0, 1e-5));
  EXPECT_EQ(weights[0].narrow(1, 4, 2).abs().max().item<float>(), 0.0f);  // sentence 2: 4 words
}

INSTANTIATE_TEST_SUITE_P(PostAndPreNorm, ModelNorms, ::testing::Values(Norm::kPost, Norm::kPre));

TEST(ModelSeq2Seq, DecodeHiddenThenProjectEqualsForward) {
  auto model = eval_model(small_options());
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6}, {8}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 10}});
  auto hidden = model->decode_hidden(model->encode(src), tgt);  // [B,T,D]
  EXPECT_EQ(hidden.sizes(), (std::vector<int64_t>{2, 4, 32}));
  auto real = tgt.ne(0);
  auto projected = model->project(hidden.index({real}));  // [N,V]
  EXPECT_TRUE(torch::allclose(projected, model(src, tgt).index({real}), 0.0, 1e-6));
}

TEST(ModelSeq2Seq, PositionsNonePermutesEncoderOutputsWithTheSource) {
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7, 8}, {9, 10, 11, 12, 13}});
  auto permutation = torch::tensor({3, 0, 4, 1, 2}, torch::kLong);
  auto permuted = src.index_select(1, permutation);
  auto options = small_options();
  options.positions = Positions::kNone;
  auto none = eval_model(options);
  auto memory = none->encode(src).memory;  // [B,S,D]
  EXPECT_TRUE(torch::allclose(none->encode(permuted).memory, memory.index_select(1, permutation),
                              0.0, 1e-5));
  auto learned = eval_model(small_options());
  auto learned_memory = learned->encode(src).memory.index_select(1, permutation);
  EXPECT_FALSE(torch::allclose(learned->encode(permuted).memory, learned_memory, 0.0, 1e-3));
}

TEST(ModelSeq2Seq, PositionsBeyondMaxLenThrowClearly) {
  auto model = eval_model(small_options());  // max_len 16
  torch::NoGradGuard no_grad;
  auto long_src = torch::full({1, 17}, 4, torch::kLong);
  EXPECT_NE(thrown_message([&] { model->encode(long_src); }).find("max_len 16"), std::string::npos);
  auto state = model->start(model->encode(pad_rows({{4, 5}})));
  auto token = torch::tensor({1}, torch::kLong);
  for (int64_t t = 0; t < 16; ++t) {
    model->decode_step(state, token);
  }
  EXPECT_NE(thrown_message([&] { model->decode_step(state, token); }).find("position 16"),
            std::string::npos);
}

TEST(ModelSeq2Seq, BookConfigurationHasTheBooksParameterCount) {
  ModelOptions book;
  book.src_vocab = 15000;
  book.tgt_vocab = 15000;
  book.max_len = 20;
  book.d_model = 256;
  book.d_ff = 2048;
  book.n_heads = 8;
  book.head_dim = 256;
  book.encoder_layers = 1;
  book.decoder_layers = 1;
  book.tie_embeddings = false;
  book.norm = Norm::kPost;
  book.dropout = 0.0;
  book.output_dropout = 0.5;
  EXPECT_EQ(count_parameters(*Seq2Seq(book)), 19960216);
  book.positions = Positions::kNone;
  EXPECT_EQ(count_parameters(*Seq2Seq(book)), 19949976);
  // Tying drops the 256×15000 output matrix and keeps its bias.
  book.tie_embeddings = true;
  EXPECT_EQ(count_parameters(*Seq2Seq(book)), 19949976 - 256 * 15000);
}

TEST(ModelSeq2Seq, ParameterPathsReadLikeTheArchitecture) {
  auto model = eval_model(small_options());
  const auto named = model->named_parameters();
  for (const char* name :
       {"encoder.embed.tokens.weight", "encoder.embed.positions.weight",
        "encoder.layers.1.self_attn.q_proj.weight", "encoder.layers.0.ffn.linear1.bias",
        "decoder.layers.0.cross_attn.q_proj.weight", "decoder.layers.1.cross_attn_norm.weight",
        "decoder.layers.0.self_attn.out_proj.bias", "out_proj.weight", "out_proj.bias"}) {
    EXPECT_NE(named.find(name), nullptr) << name;
  }
}

TEST(ModelSeq2Seq, SaveThenLoadGivesIdenticalLogits) {
  auto options = small_options(Norm::kPre);
  options.tie_embeddings = true;
  auto model = eval_model(options, 11);
  auto loaded = eval_model(options, 12);
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6}, {8}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 10}});
  const auto path = temp_file("weights.pt");
  save_weights(*model, path);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp-" + std::to_string(::getpid())));
  EXPECT_FALSE(torch::equal(loaded(src, tgt), model(src, tgt)));
  load_weights(*loaded, path);
  EXPECT_TRUE(torch::equal(loaded(src, tgt), model(src, tgt)));
  std::filesystem::remove(path);
}

TEST(ModelSeq2Seq, LoadingIntoAnotherVocabularyOrArchitectureNamesTheParameter) {
  auto model = eval_model(small_options());
  const auto path = temp_file("weights_mismatch.pt");
  save_weights(*model, path);

  auto other_vocab = small_options();
  other_vocab.tgt_vocab = 31;
  auto wrong_vocab = eval_model(other_vocab);
  const auto before = wrong_vocab->decoder->embed->tokens->weight.clone();
  auto message = thrown_message([&] { load_weights(*wrong_vocab, path); });
  EXPECT_NE(message.find("decoder.embed.tokens.weight"), std::string::npos) << message;
  EXPECT_NE(message.find("[29, 32]"), std::string::npos) << message;
  EXPECT_NE(message.find("[31, 32]"), std::string::npos) << message;
  EXPECT_TRUE(torch::equal(wrong_vocab->decoder->embed->tokens->weight, before));

  auto fewer_layers = small_options();
  fewer_layers.decoder_layers = 1;
  auto shallow = eval_model(fewer_layers);
  message = thrown_message([&] { load_weights(*shallow, path); });
  EXPECT_NE(message.find("decoder.layers.1."), std::string::npos) << message;

  auto no_positions = small_options();
  no_positions.positions = Positions::kNone;
  auto unpositioned = eval_model(no_positions);
  message = thrown_message([&] { load_weights(*unpositioned, path); });
  EXPECT_NE(message.find("embed.positions.weight"), std::string::npos) << message;

  message = thrown_message([&] { load_weights(*model, path + ".missing"); });
  EXPECT_NE(message.find(".missing"), std::string::npos) << message;
  std::filesystem::remove(path);
}

TEST(ModelSeq2Seq, OptimizerStateRoundTripsThroughAFile) {
  torch::manual_seed(5);
  auto options = small_options();
  Seq2Seq a(options), b(options);
  auto src = pad_rows({{4, 5, 6}, {8}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 10}});
  torch::optim::Adam opt_a(a->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::Adam opt_b(b->parameters(), torch::optim::AdamOptions(1e-3));
  a->eval();
  b->eval();
  auto train_step = [&](Seq2Seq& m, torch::optim::Adam& opt) {
    opt.zero_grad();
    m(src, tgt).pow(2).mean().backward();
    opt.step();
  };
  train_step(a, opt_a);
  const auto weights = temp_file("opt_weights.pt");
  const auto state = temp_file("opt_state.pt");
  save_weights(*a, weights);
  save_optimizer(opt_a, state);
  load_weights(*b, weights);
  load_optimizer(opt_b, state);
  train_step(a, opt_a);
  train_step(b, opt_b);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(a(src, tgt), b(src, tgt)));
  std::filesystem::remove(weights);
  std::filesystem::remove(state);
}

TEST(ModelSeq2Seq, SharedEmbeddingsAreOneParameterSavedOnce) {
  auto options = small_options(Norm::kPre);
  options.tgt_vocab = options.src_vocab;
  options.tie_embeddings = true;
  auto separate = eval_model(options, 3);
  options.share_embeddings = true;
  auto shared = eval_model(options, 3);
  EXPECT_EQ(shared->encoder->embed->tokens->weight.data_ptr(),
            shared->decoder->embed->tokens->weight.data_ptr());
  const auto named = shared->named_parameters();
  EXPECT_EQ(named.find("encoder.embed.tokens.weight"), nullptr);
  EXPECT_NE(named.find("decoder.embed.tokens.weight"), nullptr);
  EXPECT_EQ(count_parameters(*separate) - count_parameters(*shared),
            options.src_vocab * options.d_model);
  // Every parameter is listed once, so the optimizer steps the shared table once.
  std::set<const void*> distinct;
  for (const auto& p : shared->parameters()) distinct.insert(p.unsafeGetTensorImpl());
  EXPECT_EQ(distinct.size(), shared->parameters().size());

  // The one table receives the gradients of both sides: a source-only id still gets one.
  auto src = pad_rows({{4, 5, 6}, {8}});
  auto tgt = pad_rows({{1, 9, 7}, {1, 10}});
  shared->train();
  shared(src, tgt).sum().backward();
  const auto grad = shared->decoder->embed->tokens->weight.grad();
  ASSERT_TRUE(grad.defined());
  EXPECT_GT(grad[4].abs().sum().item<float>(), 0.0F);  // source only
  EXPECT_GT(grad[9].abs().sum().item<float>(), 0.0F);  // target only

  shared->eval();
  torch::NoGradGuard no_grad;
  const auto path = temp_file("shared_weights.pt");
  save_weights(*shared, path);
  auto loaded = eval_model(options, 4);
  load_weights(*loaded, path);
  EXPECT_TRUE(torch::equal(loaded(src, tgt), shared(src, tgt)));
  EXPECT_EQ(loaded->encoder->embed->tokens->weight.data_ptr(),
            loaded->decoder->embed->tokens->weight.data_ptr());
  std::filesystem::remove(path);
}

TEST(ModelSeq2Seq, SharedEmbeddingsNeedOneVocabularySize) {
  auto options = small_options();
  options.share_embeddings = true;
  const auto message = thrown_message([&] { Seq2Seq model(options); });
  EXPECT_NE(message.find("model.share_embeddings"), std::string::npos) << message;
}

TEST(ModelSeq2Seq, TinyModelMemorisesSixteenPairs) {
  torch::manual_seed(21);
  ModelOptions options = testing::memorisation_options(/*encoder_layers=*/2, 12);
  options.tie_embeddings = false;
  Seq2Seq model(options);
  const auto pairs = testing::random_pairs(16, 20, 20, 3, 9);
  const auto batch = testing::teacher_batch(pairs);
  EXPECT_EQ(testing::memorise(model, batch, 300, 3e-3), 1.0);
}

TEST(ModelSeq2Seq, TinyModelWithAdaptiveSoftmaxMemorisesSixteenPairs) {
  torch::manual_seed(21);
  ModelOptions options = testing::memorisation_options(/*encoder_layers=*/2, 12);
  options.tie_embeddings = false;
  options.adaptive_cutoffs = {8, 14};
  options.adaptive_div = 2;
  Seq2Seq model(options);
  const auto pairs = testing::random_pairs(16, 20, 20, 3, 9);
  EXPECT_EQ(testing::memorise(model, testing::teacher_batch(pairs), 300, 3e-3), 1.0);
}

}  // namespace
}  // namespace atento::model
