// The split a model directory keeps: made once (from the corpus or given files), written as
// train/valid/test.tsv, and re-read unchanged by every later run.
#include <gtest/gtest.h>

#include <filesystem>

#include "app/common/config.h"
#include "app/train/split_files.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

using data::test_util::TempDir;

std::string corpus_text(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += "sentence " + std::to_string(i) + "\tfrase " + std::to_string(i) + "\n";
  }
  return text;
}

bool same_pairs(const std::vector<data::Pair>& a, const std::vector<data::Pair>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].src != b[i].src || a[i].tgt != b[i].tgt) return false;
  }
  return true;
}

struct Warnings {
  std::vector<std::string> lines;
  WarningSink sink() {
    return [this](const std::string& line) { lines.push_back(line); };
  }
};

data::CorpusOptions corpus_options(const std::string& corpus) {
  data::CorpusOptions d;
  d.corpus = corpus;
  d.valid_fraction = 0.1;
  d.test_fraction = 0.1;
  d.seed = 7;
  return d;
}

TEST(SplitFiles, SplitsTheCorpusAndWritesTheThreeFiles) {
  TempDir tmp;
  auto options = corpus_options(tmp.write("corpus.tsv", corpus_text(50)));
  auto dir = tmp.file("model");
  std::filesystem::create_directories(dir);
  Warnings warnings;
  auto split = prepare_split(options, dir, warnings.sink());
  EXPECT_EQ(split.train.size() + split.valid.size() + split.test.size(), 50u);
  EXPECT_EQ(split.valid.size(), 5u);
  EXPECT_EQ(split.test.size(), 5u);
  EXPECT_TRUE(warnings.lines.empty());
  for (const char* f : {"train.tsv", "valid.tsv", "test.tsv"}) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  }
}

TEST(SplitFiles, ASecondCallReReadsTheWrittenSplit) {
  TempDir tmp;
  auto corpus = tmp.write("corpus.tsv", corpus_text(50));
  auto options = corpus_options(corpus);
  auto dir = tmp.file("model");
  std::filesystem::create_directories(dir);
  Warnings warnings;
  auto first = prepare_split(options, dir, warnings.sink());
  // Another corpus and seed now: the model directory's split still wins.
  tmp.write("corpus.tsv", corpus_text(80));
  options.seed = 8;
  auto second = prepare_split(options, dir, warnings.sink());
  EXPECT_TRUE(same_pairs(first.train, second.train));
  EXPECT_TRUE(same_pairs(first.valid, second.valid));
  EXPECT_TRUE(same_pairs(first.test, second.test));
}

TEST(SplitFiles, AnEmptyTestSplitIsReReadAsEmpty) {
  TempDir tmp;
  auto options = corpus_options(tmp.write("corpus.tsv", corpus_text(20)));
  options.test_fraction = 0.0;
  auto dir = tmp.str();
  Warnings warnings;
  auto first = prepare_split(options, dir, warnings.sink());
  EXPECT_TRUE(first.test.empty());
  auto second = prepare_split(options, dir, warnings.sink());
  EXPECT_TRUE(second.test.empty());
  EXPECT_TRUE(same_pairs(first.train, second.train));
}

TEST(SplitFiles, BadCorpusLinesAreSkippedWithWarnings) {
  TempDir tmp;
  auto options = corpus_options(tmp.write("corpus.tsv", corpus_text(30) + "no tab here\n"));
  Warnings warnings;
  auto split = prepare_split(options, tmp.file(""), warnings.sink());
  EXPECT_EQ(split.train.size() + split.valid.size() + split.test.size(), 30u);
  ASSERT_EQ(warnings.lines.size(), 2u);
  EXPECT_NE(warnings.lines[0].find("corpus.tsv:31"), std::string::npos) << warnings.lines[0];
  EXPECT_NE(warnings.lines[1].find("skipped 1 bad line(s) of 31"), std::string::npos)
      << warnings.lines[1];
}

TEST(SplitFiles, GivenSplitFilesAreUsedAsTheyAre) {
  TempDir tmp;
  data::CorpusOptions options;
  options.train_file = tmp.write("t.tsv", corpus_text(6));
  options.valid_file = tmp.write("v.tsv", "a\tb\n");
  auto dir = tmp.file("model");
  std::filesystem::create_directories(dir);
  Warnings warnings;
  auto split = prepare_split(options, dir, warnings.sink());
  EXPECT_EQ(split.train.size(), 6u);
  ASSERT_EQ(split.valid.size(), 1u);
  EXPECT_EQ(split.valid[0].tgt, "b");
  EXPECT_TRUE(split.test.empty());
}

TEST(SplitFiles, MissingInputsAreConfigErrors) {
  TempDir tmp;
  Warnings warnings;
  data::CorpusOptions none;
  EXPECT_THROW(prepare_split(none, tmp.str(), warnings.sink()), ConfigError);
  data::CorpusOptions no_valid;
  no_valid.train_file = tmp.write("t.tsv", corpus_text(6));
  EXPECT_THROW(prepare_split(no_valid, tmp.str(), warnings.sink()), ConfigError);
  auto tiny = corpus_options(tmp.write("corpus.tsv", corpus_text(3)));
  tiny.valid_fraction = 0.0;
  EXPECT_THROW(prepare_split(tiny, tmp.str(), warnings.sink()), ConfigError);
}

}  // namespace
}  // namespace atento
