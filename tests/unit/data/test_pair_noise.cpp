// Synthetic negatives: each kind does what it says, the mix is balanced, and the same seed
// gives the same pairs.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/pair_noise.h"
#include "data/text_io.h"

namespace atento::data {
namespace {

std::vector<Pair> clean_pairs(int n) {
  std::vector<Pair> pairs;
  for (int i = 0; i < n; ++i) {
    std::string en = "the cat number " + std::to_string(i),
                es = "el gato número " + std::to_string(i);
    for (int k = 0; k < i % 5; ++k) {
      en += " again";
      es += " otra vez";
    }
    pairs.push_back({en, es});
  }
  return pairs;
}

bool is_subsequence(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  size_t j = 0;
  for (const auto& word : whole) {
    if (j < part.size() && part[j] == word) ++j;
  }
  return j == part.size();
}

TEST(PairNoise, KindNamesRoundTrip) {
  for (auto kind : negative_kinds()) EXPECT_EQ(parse_noise_kind(noise_kind_name(kind)), kind);
  EXPECT_EQ(parse_noise_kind("clean"), NoiseKind::kClean);
  EXPECT_FALSE(parse_noise_kind("gibberish").has_value());
}

TEST(PairNoise, MisalignedTakesAnotherPairsSpanish) {
  auto clean = clean_pairs(10);
  SplitMix64 rng(3);
  for (size_t i = 0; i < clean.size(); ++i) {
    auto noisy = misaligned(clean, i, rng);
    ASSERT_TRUE(noisy.has_value());
    EXPECT_EQ(noisy->src, clean[i].src);
    EXPECT_NE(noisy->tgt, clean[i].tgt);
    bool from_corpus = false;
    for (const auto& pair : clean) from_corpus |= pair.tgt == noisy->tgt;
    EXPECT_TRUE(from_corpus);
  }
  std::vector<Pair> twins{{"a b", "x y"}, {"c d", "x y"}};
  EXPECT_FALSE(misaligned(twins, 0, rng).has_value());
}

TEST(PairNoise, NeighbourTakesTheSpanishClosestInLength) {
  std::vector<Pair> clean{{"one", "uno"},
                          {"two words", "dos palabras"},
                          {"now three words", "ahora tres palabras"},
                          {"and now four words", "y ahora cuatro palabras"}};
  std::vector<size_t> by_length{0, 1, 2, 3};
  SplitMix64 rng(5);
  for (size_t rank = 0; rank < 4; ++rank) {
    auto noisy = neighbour(clean, by_length, rank, rng);
    ASSERT_TRUE(noisy.has_value());
    EXPECT_EQ(noisy->src, clean[rank].src);
    const auto words = split_words(noisy->tgt).size();
    const auto own = split_words(clean[rank].tgt).size();
    EXPECT_EQ(words > own ? words - own : own - words, 1u) << noisy->tgt;
  }
}

TEST(PairNoise, TruncationKeepsAProperPrefixOfOneSide) {
  Pair pair{"one two three four five six seven eight nine ten",
            "uno dos tres cuatro cinco seis siete ocho nueve diez"};
  SplitMix64 rng(7);
  std::set<bool> sides;
  for (int k = 0; k < 40; ++k) {
    auto noisy = truncated(pair, rng);
    ASSERT_TRUE(noisy.has_value());
    const bool spanish = noisy->src == pair.src;
    sides.insert(spanish);
    EXPECT_EQ(spanish ? noisy->src : noisy->tgt, spanish ? pair.src : pair.tgt);
    const std::string& cut = spanish ? noisy->tgt : noisy->src;
    const std::string& whole = spanish ? pair.tgt : pair.src;
    EXPECT_EQ(whole.rfind(cut, 0), 0u) << cut;  // a prefix
    const auto kept = split_words(cut).size();
    EXPECT_GE(kept, 3u);
    EXPECT_LE(kept, 7u);
  }
  EXPECT_EQ(sides.size(), 2u);  // both sides get cut
  EXPECT_FALSE(truncated({"one", "uno"}, rng).has_value());
}

TEST(PairNoise, DeletionDropsWordsAndKeepsTheOrderOfTheRest) {
  Pair pair{"a b c d e f", "u v w x y z"};
  SplitMix64 rng(9);
  for (int k = 0; k < 40; ++k) {
    auto noisy = with_deletions(pair, rng);
    ASSERT_TRUE(noisy.has_value());
    const bool spanish = noisy->src == pair.src;
    auto words = split_words(spanish ? noisy->tgt : noisy->src);
    auto whole = split_words(spanish ? pair.tgt : pair.src);
    EXPECT_EQ(words.size(), 4u);
    EXPECT_TRUE(is_subsequence(words, whole));
  }
  auto two = with_deletions({"hello there", "hola"}, rng);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(split_words(two->src).size(), 1u);
  EXPECT_EQ(two->tgt, "hola");
}

TEST(PairNoise, UntranslatedAndSwappedPutTheWrongLanguageInPlace) {
  Pair pair{"Good morning.", "Buenos días."};
  EXPECT_EQ(untranslated(pair)->tgt, "Good morning.");
  EXPECT_EQ(untranslated(pair)->src, "Good morning.");
  EXPECT_EQ(swapped(pair)->src, "Buenos días.");
  EXPECT_EQ(swapped(pair)->tgt, "Good morning.");
  EXPECT_FALSE(untranslated({"OK", "OK"}).has_value());
  EXPECT_FALSE(swapped({"OK", "OK"}).has_value());
}

TEST(PairNoise, MixIsBalancedAcrossLabelsAndKinds) {
  auto clean = clean_pairs(120);
  PairNoiseOptions options;
  options.seed = 42;
  auto mixed = make_noisy_pairs(clean, options);
  ASSERT_EQ(mixed.size(), 240u);
  std::map<NoiseKind, int> counts;
  for (const auto& item : mixed) {
    counts[item.kind]++;
    EXPECT_EQ(item.positive, item.kind == NoiseKind::kClean);
  }
  EXPECT_EQ(counts[NoiseKind::kClean], 120);
  for (auto kind : negative_kinds()) EXPECT_EQ(counts[kind], 20) << noise_kind_name(kind);
  // Every negative differs from every clean pair.
  std::set<std::pair<std::string, std::string>> originals;
  for (const auto& pair : clean) originals.insert({pair.src, pair.tgt});
  for (const auto& item : mixed) {
    if (!item.positive) {
      EXPECT_EQ(originals.count({item.pair.src, item.pair.tgt}), 0u);
    }
  }
  options.noise_fraction = 0.25;
  EXPECT_EQ(make_noisy_pairs(clean, options).size(), 160u);
}

TEST(PairNoise, SameSeedSamePairsOtherSeedOthers) {
  auto clean = clean_pairs(50);
  PairNoiseOptions options;
  options.seed = 1;
  auto a = make_noisy_pairs(clean, options), b = make_noisy_pairs(clean, options);
  options.seed = 2;
  auto c = make_noisy_pairs(clean, options);
  auto same = [](const std::vector<LabelledPair>& x, const std::vector<LabelledPair>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].pair.src != y[i].pair.src || x[i].pair.tgt != y[i].pair.tgt ||
          x[i].kind != y[i].kind) {
        return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(same(a, b));
  EXPECT_FALSE(same(a, c));
}

TEST(PairNoise, RejectsBadOptions) {
  auto clean = clean_pairs(4);
  PairNoiseOptions options;
  options.noise_fraction = 1.0;
  EXPECT_THROW(make_noisy_pairs(clean, options), std::invalid_argument);
  options.noise_fraction = 0.5;
  options.kinds.clear();
  EXPECT_THROW(make_noisy_pairs(clean, options), std::invalid_argument);
  EXPECT_THROW(make_noisy_pairs({{"a", "b"}}, PairNoiseOptions{}), std::invalid_argument);
}

TEST(PairNoise, LabelledPairsRoundTripThroughAFile) {
  PairNoiseOptions options;
  auto mixed = make_noisy_pairs(clean_pairs(12), options);
  const std::string path = ::testing::TempDir() + "atento_labelled_pairs.tsv";
  write_labelled_pairs(path, mixed);
  auto back = read_labelled_pairs(path);
  ASSERT_EQ(back.size(), mixed.size());
  for (size_t i = 0; i < mixed.size(); ++i) {
    EXPECT_EQ(back[i].pair.src, mixed[i].pair.src);
    EXPECT_EQ(back[i].pair.tgt, mixed[i].pair.tgt);
    EXPECT_EQ(back[i].positive, mixed[i].positive);
    EXPECT_EQ(back[i].kind, mixed[i].kind);
  }
  write_file_atomically(path, "1\tclean\tHello.\tHola.\n2\tclean\ta\tb\n");
  try {
    read_labelled_pairs(path);
    ADD_FAILURE() << "a label 2 was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2:"), std::string::npos) << e.what();
  }
  write_file_atomically(path, "0\tmystery\tHello.\tHola.\n");
  EXPECT_THROW(read_labelled_pairs(path), std::runtime_error);
}

}  // namespace
}  // namespace atento::data
