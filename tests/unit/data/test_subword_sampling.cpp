// Subword regularisation: sampled segmentations keep the text, vary, and are reproducible from
// their seed whichever thread asks.

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "data/corpus.h"
#include "data/subword_sampling.h"
#include "data/tokenizer.h"
#include "tests/unit/test_data_util.h"

namespace atento::data {
namespace {

using test_util::kSample;
using test_util::TempDir;

// The training split of the sample corpus.
const std::vector<Pair>& training_pairs() {
  static const std::vector<Pair> train =
      split_pairs(read_pairs(kSample, {}), 0.15, 0.15, 1337).train;
  return train;
}

// `pairs` repeated until there are at least `n` (several sampling slices).
std::vector<Pair> repeated_to(const std::vector<Pair>& pairs, size_t n) {
  std::vector<Pair> out;
  while (out.size() < n) out.insert(out.end(), pairs.begin(), pairs.end());
  return out;
}

TokenizerOptions sampling_options(SubwordModel model = SubwordModel::kUnigram) {
  TokenizerOptions options;
  options.kind = TokenizerKind::kSentencePiece;
  options.vocab_size = 400;
  options.shared = true;
  options.subword_model = model;
  options.src_len = 40;
  options.tgt_len = 41;
  return options;
}

// How many of `texts` sample (with `alpha`) to ids other than the best segmentation's, each
// sample checked to decode to the best segmentation's text.
int sampled_differently(const Tokenizer& tokenizer, const std::vector<std::string>& texts,
                        double alpha) {
  int differ = 0;
  for (const auto& text : texts) {
    const auto best = tokenizer.encode(text);
    const auto sampled = tokenizer.sample(text, alpha);
    EXPECT_EQ(tokenizer.decode(sampled), tokenizer.decode(best)) << text;
    differ += sampled != best ? 1 : 0;
  }
  return differ;
}

std::vector<std::string> spanish_texts(size_t n) {
  std::vector<std::string> texts;
  for (size_t i = 0; i < n && i < training_pairs().size(); ++i)
    texts.push_back(training_pairs()[i].tgt);
  return texts;
}

TEST(SubwordSampling, UnigramSamplesOtherSegmentationsOfTheSameText) {
  TempDir dir;
  const Vocabularies vocab = train_vocabularies(training_pairs(), sampling_options(), dir.str());
  const auto texts = spanish_texts(100);
  EXPECT_GT(sampled_differently(vocab.tgt(), texts, 0.1), 20);
}

TEST(SubwordSampling, BpeDropoutSamplesOtherSegmentationsOfTheSameText) {
  TempDir dir;
  const Vocabularies vocab =
      train_vocabularies(training_pairs(), sampling_options(SubwordModel::kBpe), dir.str());
  const auto texts = spanish_texts(100);
  EXPECT_GT(sampled_differently(vocab.tgt(), texts, 0.3), 20);
}

TEST(SubwordSampling, ExamplesAreFramedAndCutLikeTheBestSegmentation) {
  TempDir dir;
  TokenizerOptions options = sampling_options();
  options.src_len = 5;
  const Vocabularies vocab = train_vocabularies(training_pairs(), options, dir.str());
  const auto examples = sample_examples(vocab, training_pairs(), 0.1, 7);
  ASSERT_EQ(examples.size(), training_pairs().size());
  for (const auto& example : examples) {
    EXPECT_LE(example.src.size(), 5U);
    ASSERT_GE(example.tgt.size(), 2U);
    EXPECT_EQ(example.tgt.front(), vocab.tgt().bos_id());
    // Cut at tgt_len like the best segmentation, which may drop [end].
    EXPECT_TRUE(example.tgt.back() == vocab.tgt().eos_id() || example.tgt.size() == 41U);
    EXPECT_LE(example.tgt.size(), 41U);
  }
  for (size_t i = 0; i < 20; ++i) {
    if (examples[i].tgt.back() != vocab.tgt().eos_id()) continue;  // cut
    const auto& pair = training_pairs()[i];
    EXPECT_EQ(vocab.tgt().decode(examples[i].tgt),
              vocab.tgt().decode(vocab.encode_target(pair.tgt)));
  }
}

TEST(SubwordSampling, TheSameSeedGivesTheSameExamplesWhicheverThreadAsks) {
  TempDir dir;
  const Vocabularies vocab = train_vocabularies(training_pairs(), sampling_options(), dir.str());
  const auto pairs = repeated_to(training_pairs(), 10000);  // three slices
  const auto first = sample_examples(vocab, pairs, 0.1, 7);
  // This thread's own generator has drawn meanwhile; another thread draws too.
  sampled_differently(vocab.tgt(), spanish_texts(50), 0.1);
  std::vector<Example> from_other_thread;
  std::thread other([&] {
    sampled_differently(vocab.src(), spanish_texts(10), 0.1);
    from_other_thread = sample_examples(vocab, pairs, 0.1, 7);
  });
  other.join();
  const auto again = sample_examples(vocab, pairs, 0.1, 7);
  const auto other_seed = sample_examples(vocab, pairs, 0.1, 8);
  ASSERT_EQ(first.size(), pairs.size());
  size_t same = 0, same_as_other_seed = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    same += first[i].src == again[i].src && first[i].tgt == again[i].tgt &&
                    first[i].src == from_other_thread[i].src &&
                    first[i].tgt == from_other_thread[i].tgt
                ? 1
                : 0;
    same_as_other_seed += first[i].src == other_seed[i].src && first[i].tgt == other_seed[i].tgt;
  }
  EXPECT_EQ(same, pairs.size());
  EXPECT_LT(same_as_other_seed, pairs.size() * 9 / 10);
  // Repeated pairs in one pass draw anew: the copies of a pair are not all alike.
  size_t repeats_alike = 0;
  const size_t n = training_pairs().size();
  for (size_t i = 0; i < n; ++i) repeats_alike += first[i].tgt == first[i + n].tgt ? 1 : 0;
  EXPECT_LT(repeats_alike, n);
}

TEST(SubwordSampling, WordsHaveOneSegmentation) {
  TempDir dir;
  TokenizerOptions options;
  options.kind = TokenizerKind::kWords;
  options.vocab_size = 2000;
  const Vocabularies vocab = train_vocabularies(training_pairs(), options, dir.str());
  const auto examples = sample_examples(vocab, training_pairs(), 0.1, 7);
  for (size_t i = 0; i < examples.size(); ++i) {
    EXPECT_EQ(examples[i].src, vocab.encode_source(training_pairs()[i].src));
    EXPECT_EQ(examples[i].tgt, vocab.encode_target(training_pairs()[i].tgt));
  }
}

}  // namespace
}  // namespace atento::data
