// The pair classifier: the first token reads every real position and no padded one; a tiny
// model learns to tell aligned pairs from shuffled ones; joining, padding and initialisation
// from a translation model.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>
#include <vector>

#include "model/pair_classifier.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

PairClassifierOptions tiny_options(double dropout = 0.0) {
  PairClassifierOptions options;
  options.src_vocab = 12;
  options.tgt_vocab = 12;
  options.cls_id = 12 + 1;
  options.sep_id = 12 + 2;
  options.encoder.vocab = 24;
  options.encoder.max_len = 16;
  options.encoder.layers = 2;
  options.encoder.block.d_model = 32;
  options.encoder.block.n_heads = 4;
  options.encoder.block.head_dim = 8;
  options.encoder.block.d_ff = 64;
  options.encoder.block.dropout = dropout;
  options.head_dropout = dropout;
  return options;
}

TEST(PairClassifier, JoinsClsEnglishSepAndOffsetSpanish) {
  auto options = tiny_options();
  auto joined = join_pair(options, {4, 5}, {6, 7, 8}, 16);
  EXPECT_EQ(joined, (std::vector<int64_t>{13, 4, 5, 14, 18, 19, 20}));
}

TEST(PairClassifier, JoiningCutsLongPairsToFitKeepingBothSides) {
  auto options = tiny_options();
  std::vector<int64_t> long_side(20, 5), short_side{6, 7};
  EXPECT_EQ(join_pair(options, long_side, long_side, 12).size(), 12u);
  auto english_long = join_pair(options, long_side, short_side, 12);
  EXPECT_EQ(english_long.size(), 12u);
  EXPECT_EQ(english_long[9], 14);  // [SEP], then both Spanish tokens
  EXPECT_EQ(english_long.back(), 7 + 12);
  auto spanish_long = join_pair(options, short_side, long_side, 12);
  EXPECT_EQ(spanish_long.size(), 12u);
  EXPECT_EQ(spanish_long[3], 14);  // both English tokens kept
}

TEST(PairClassifier, FirstTokenDependsOnEveryRealPositionAndNoPaddedOne) {
  torch::manual_seed(3);
  PairClassifier model(tiny_options());
  model->eval();
  auto batch = pad_pairs(
      {join_pair(model->options, {4, 5, 6}, {7, 8}, 16), join_pair(model->options, {4}, {7}, 16)});
  // Change one position at a time (real or padded) and watch the first token's state.
  torch::NoGradGuard no_grad;
  auto base = model->first_token(batch.ids, batch.keep);  // [B,D]
  const int64_t length = batch.ids.size(1);
  for (int64_t row = 0; row < 2; ++row) {
    for (int64_t pos = 1; pos < length; ++pos) {
      auto ids = batch.ids.clone();
      ids[row][pos] = ids[row][pos].item<int64_t>() == 9 ? 10 : 9;
      auto changed = model->first_token(ids, batch.keep);
      const bool real = batch.keep[row][pos].item<bool>();
      const bool moved = !torch::allclose(changed[row], base[row], 1e-6, 1e-6);
      EXPECT_EQ(moved, real) << "row " << row << " position " << pos;
      EXPECT_TRUE(torch::allclose(changed[1 - row], base[1 - row]));  // other rows untouched
    }
  }
}

/// Pairs over a 10-word "dictionary": Spanish word w translates English word w. Positives are
/// aligned, negatives pair an English sentence with a Spanish one of another sentence.
PairBatch aligned_and_shuffled(int64_t n, uint64_t seed, torch::Tensor& labels,
                               const PairClassifierOptions& options) {
  torch::manual_seed(seed);
  std::vector<std::vector<int64_t>> english;
  for (int64_t i = 0; i < n; ++i) {
    auto words = torch::randint(3, 12, {3}, torch::kLong);
    english.push_back(
        {words[0].item<int64_t>(), words[1].item<int64_t>(), words[2].item<int64_t>()});
  }
  std::vector<std::vector<int64_t>> joined;
  std::vector<float> label;
  for (int64_t i = 0; i < n; ++i) {
    const auto& spanish = i % 2 == 0 ? english[i] : english[(i + 1 + i % 5) % n];
    joined.push_back(join_pair(options, english[i], spanish, 16));
    label.push_back(spanish == english[i] ? 1.0f : 0.0f);  // a shuffle may hit a twin
  }
  labels = torch::tensor(label);
  return pad_pairs(joined);
}

TEST(PairClassifier, TinyModelLearnsToSeparateAlignedFromShuffledPairs) {
  auto options = tiny_options(0.0);
  options.encoder.layers = 1;
  torch::manual_seed(11);
  PairClassifier model(options);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(5e-3));
  torch::Tensor labels, test_labels;
  auto train = aligned_and_shuffled(384, 1, labels, options);
  auto test = aligned_and_shuffled(128, 2, test_labels, options);
  model->train();
  for (int step = 0; step < 400; ++step) {
    optimizer.zero_grad();
    auto loss = pair_loss(model(train.ids, train.keep), labels);
    loss.backward();
    optimizer.step();
  }
  model->eval();
  torch::NoGradGuard no_grad;
  // Unseen sentences: the model has learnt to compare the two sides, not the training pairs.
  auto predicted = model(test.ids, test.keep).gt(0).to(torch::kFloat);
  const double accuracy = predicted.eq(test_labels).to(torch::kFloat).mean().item<double>();
  EXPECT_GT(accuracy, 0.9);
}

TEST(PairClassifier, RejectsOptionsOutOfRange) {
  auto options = tiny_options();
  options.encoder.vocab = 23;
  EXPECT_THROW(PairClassifier{options}, std::invalid_argument);
  options = tiny_options();
  options.cls_id = 24;
  EXPECT_THROW(PairClassifier{options}, std::invalid_argument);
}

TEST(PairClassifier, StartsFromATranslationModelsEncoderAndEmbeddings) {
  auto pretrained_options = testing::small_options();
  torch::manual_seed(4);
  Seq2Seq pretrained(pretrained_options);
  auto options = pair_classifier_options(pretrained_options, testing::kBos, testing::kEos,
                                         pretrained_options.max_len + 5);
  PairClassifier classifier(options);
  initialise_from_translation(*classifier, *pretrained);
  const auto& tokens = classifier->encoder->embed->tokens->weight;
  const int64_t src = pretrained_options.src_vocab;
  EXPECT_TRUE(torch::equal(tokens.narrow(0, 0, src), pretrained->encoder->embed->tokens->weight));
  EXPECT_TRUE(torch::equal(tokens.narrow(0, src, pretrained_options.tgt_vocab),
                           pretrained->decoder->embed->tokens->weight));
  const auto& positions = classifier->encoder->embed->positions->weight;
  EXPECT_EQ(positions.size(0), pretrained_options.max_len + 5);
  EXPECT_TRUE(torch::equal(positions.narrow(0, 0, pretrained_options.max_len),
                           pretrained->encoder->embed->positions->weight));
  auto from = pretrained->encoder->named_parameters();
  for (const auto& item : classifier->encoder->named_parameters()) {
    if (item.key().rfind("embed.", 0) == 0) continue;
    EXPECT_TRUE(torch::equal(item.value(), from[item.key()])) << item.key();
  }
}

}  // namespace
}  // namespace atento::model
