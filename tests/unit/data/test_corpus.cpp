// Corpus reader, writer and split.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/corpus.h"
#include "tests/unit/test_data_util.h"

namespace atento::data {
namespace {

namespace fs = std::filesystem;

using test_util::contains;
using test_util::kSample;
using test_util::TempDir;

// Reads `bytes` as a corpus file; `report` receives what the reader found.
std::vector<Pair> read_bytes(const TempDir& dir, const std::string& bytes, ReadReport* report,
                             CorpusOptions options = {}) {
  return read_pairs(dir.write("corpus.tsv", bytes), options, report);
}

// ---- reader ----------------------------------------------------------------------------------

TEST(CorpusReader, ReadsPairsAndIgnoresColumnsAfterTheSecond) {
  TempDir dir;
  ReadReport report;
  const auto pairs = read_bytes(dir, "Hello.\tHola.\nGo.\tVe.\tCC-BY 2.0 (France)\n", &report);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].src, "Hello.");
  EXPECT_EQ(pairs[0].tgt, "Hola.");
  EXPECT_EQ(pairs[1].src, "Go.");
  EXPECT_EQ(pairs[1].tgt, "Ve.");
  EXPECT_EQ(report.lines, 2);
  EXPECT_EQ(report.kept, 2);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_TRUE(report.problems.empty());
}

TEST(CorpusReader, AcceptsUtf8BomAndCrlf) {
  TempDir dir;
  ReadReport report;
  const auto pairs = read_bytes(dir,
                                "\xEF\xBB\xBFWhere?\t\xC2\xBF"
                                "D\xC3\xB3nde?\r\nYes.\tS\xC3\xAD.\r\n",
                                &report);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].src, "Where?");   // no BOM glued to the first word
  EXPECT_EQ(pairs[0].tgt, "¿Dónde?");  // no \r left at the end
  EXPECT_EQ(pairs[1].tgt, "Sí.");
  EXPECT_EQ(report.skipped, 0);
}

TEST(CorpusReader, LastLineWithoutNewlineAndTrailingBlankLinesAreFine) {
  TempDir dir;
  ReadReport report;
  const auto pairs = read_bytes(dir, "a\tb\nc\td\n\n\n", &report);
  EXPECT_EQ(pairs.size(), 2u);
  EXPECT_EQ(report.lines, 2);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_EQ(read_bytes(dir, "a\tb\nc\td", &report).size(), 2u);
}

TEST(CorpusReader, SkipsAndReportsEveryKindOfBadLineWithFileAndLine) {
  TempDir dir;
  CorpusOptions options;
  options.max_chars = 10;
  // A char array keeps the NUL byte of line 6 that a std::string from a literal would stop at.
  const char bytes[] =
      "good\tbueno\n"        // 1
      "no tab here\n"        // 2
      "\tvacío\n"            // 3 empty English side
      "empty\t  \n"          // 4 empty Spanish side
      "bad\t\xC3\x28utf8\n"  // 5 invalid UTF-8
      "nul\tn\0l\n"          // 6 NUL byte
      "x\toverlong text\n"   // 7 Spanish side over 10 bytes
      "\n"                   // 8 blank line in the middle
      "overlong text\tx\n"   // 9 English side over 10 bytes
      "also good\tbien\n";   // 10
  ReadReport report;
  const auto pairs = read_bytes(dir, std::string(bytes, sizeof(bytes) - 1), &report, options);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].src, "also good");
  EXPECT_EQ(report.lines, 10);
  EXPECT_EQ(report.kept, 2);
  EXPECT_EQ(report.skipped, 8);
  ASSERT_EQ(report.problems.size(), 8u);
  const std::string file = dir.file("corpus.tsv");
  EXPECT_EQ(report.problems[0], file + ":2: no tab (expected English<TAB>Spanish)");
  EXPECT_EQ(report.problems[1], file + ":3: empty English side");
  EXPECT_EQ(report.problems[2], file + ":4: empty Spanish side");
  EXPECT_EQ(report.problems[3], file + ":5: invalid UTF-8 at byte 5");
  EXPECT_EQ(report.problems[4], file + ":6: NUL byte at byte 6");
  EXPECT_EQ(report.problems[5], file + ":7: Spanish side longer than max_chars (13 > 10 bytes)");
  EXPECT_EQ(report.problems[6], file + ":8: empty line");
  EXPECT_EQ(report.problems[7], file + ":9: English side longer than max_chars (13 > 10 bytes)");
}

TEST(CorpusReader, NulByteInsideALineIsCaught) {
  // A string literal would stop at the NUL: build the bytes explicitly.
  TempDir dir;
  std::string bytes = "ok\tsí\nab";
  bytes.push_back('\0');
  bytes += "c\tdef\n";
  ReadReport report;
  const auto pairs = read_bytes(dir, bytes, &report);
  EXPECT_EQ(pairs.size(), 1u);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_TRUE(contains(report.problems[0], ":2: NUL byte")) << report.problems[0];
}

TEST(CorpusReader, ReportKeepsTheFirstTwentyProblemsAndCountsAll) {
  TempDir dir;
  std::string bytes = "a\tb\n";
  for (int i = 0; i < 25; ++i) bytes += "bad line\n";
  ReadReport report;
  read_bytes(dir, bytes, &report);
  EXPECT_EQ(report.skipped, 25);
  EXPECT_EQ(report.problems.size(), 20u);
  EXPECT_TRUE(contains(report.problems.back(), ":21: no tab"));
}

TEST(CorpusReader, StrictModeThrowsOnTheFirstBadLine) {
  TempDir dir;
  CorpusOptions options;
  options.strict = true;
  try {
    read_bytes(dir, "a\tb\nbroken\nalso broken\n", nullptr, options);
    FAIL() << "strict mode accepted a bad line";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), dir.file("corpus.tsv") + ":2: no tab")) << e.what();
  }
}

TEST(CorpusReader, MissingFileThrowsNamingIt) {
  TempDir dir;
  const std::string missing = dir.file("nope.tsv");
  try {
    read_pairs(missing, {});
    FAIL() << "a missing file was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), missing)) << e.what();
  }
}

TEST(CorpusReader, EmptyFileThrowsNamingIt) {
  TempDir dir;
  for (const std::string& bytes :
       {std::string(), std::string("\xEF\xBB\xBF"), std::string("\n\r\n")}) {
    const std::string path = dir.write("empty.tsv", bytes);
    try {
      read_pairs(path, {});
      FAIL() << "an empty file was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), path)) << e.what();
      EXPECT_TRUE(contains(e.what(), "empty")) << e.what();
    }
  }
}

TEST(CorpusReader, FileWithoutAnyValidPairThrowsWithTheFirstProblem) {
  TempDir dir;
  try {
    read_bytes(dir, "one\ntwo\n", nullptr);
    FAIL() << "a file without pairs was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), dir.file("corpus.tsv") + ":1: no tab")) << e.what();
  }
}

TEST(CorpusReader, ReadsTheSampleCorpusWithoutProblems) {
  ReadReport report;
  const auto pairs = read_pairs(kSample, {}, &report);
  EXPECT_GT(pairs.size(), 500u);
  EXPECT_EQ(report.skipped, 0) << (report.problems.empty() ? "" : report.problems[0]);
  EXPECT_EQ(report.kept, report.lines);
}

// ---- writer ----------------------------------------------------------------------------------

TEST(CorpusWriter, WriteThenReadRoundTripsAndLeavesNoTemporaryFile) {
  TempDir dir;
  const std::vector<Pair> pairs = {{"Hello.", "Hola."}, {"Where?", "¿Dónde?"}};
  const std::string path = dir.file("sub/out.tsv");
  write_pairs(path, pairs);
  const auto back = read_pairs(path, {});
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].src, "Where?");
  EXPECT_EQ(back[1].tgt, "¿Dónde?");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir.file("sub"))) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "out.tsv");
  }
  EXPECT_EQ(files, 1);
}

TEST(CorpusWriter, RefusesSidesThatWouldBreakTheFormat) {
  TempDir dir;
  EXPECT_THROW(write_pairs(dir.file("x.tsv"), {{"a\tb", "c"}}), std::invalid_argument);
  EXPECT_THROW(write_pairs(dir.file("x.tsv"), {{"a", "b\nc"}}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir.file("x.tsv")));
}

// ---- split -----------------------------------------------------------------------------------

std::vector<Pair> numbered_pairs(int n) {
  std::vector<Pair> pairs;
  for (int i = 0; i < n; ++i)
    pairs.push_back({"en " + std::to_string(i), "es " + std::to_string(i)});
  return pairs;
}

std::vector<std::string> sources(const std::vector<Pair>& pairs) {
  std::vector<std::string> result;
  for (const Pair& pair : pairs) result.push_back(pair.src);
  return result;
}

TEST(Split, SameSeedGivesIdenticalSplits) {
  const Split a = split_pairs(numbered_pairs(1000), 0.15, 0.15, 42);
  const Split b = split_pairs(numbered_pairs(1000), 0.15, 0.15, 42);
  EXPECT_EQ(sources(a.train), sources(b.train));
  EXPECT_EQ(sources(a.valid), sources(b.valid));
  EXPECT_EQ(sources(a.test), sources(b.test));
}

TEST(Split, DifferentSeedsGiveDifferentSplits) {
  const Split a = split_pairs(numbered_pairs(1000), 0.15, 0.15, 42);
  const Split b = split_pairs(numbered_pairs(1000), 0.15, 0.15, 43);
  EXPECT_NE(sources(a.train), sources(b.train));
  EXPECT_NE(sources(a.test), sources(b.test));
}

TEST(Split, IsAPinnedPermutationForAFixedSeed) {
  // SplitMix64 + Fisher-Yates, recomputed independently in Python: a change here would
  // silently change every saved split and every published number.
  const Split split = split_pairs(numbered_pairs(10), 0.2, 0.2, 1337);
  EXPECT_EQ(sources(split.train),
            (std::vector<std::string>{"en 7", "en 9", "en 3", "en 6", "en 4", "en 0"}));
  EXPECT_EQ(sources(split.valid), (std::vector<std::string>{"en 1", "en 8"}));
  EXPECT_EQ(sources(split.test), (std::vector<std::string>{"en 2", "en 5"}));
}

TEST(Split, PartsAreDisjointAndCoverTheInput) {
  const Split split = split_pairs(numbered_pairs(997), 0.15, 0.15, 7);
  std::multiset<std::string> seen;
  for (const auto* part : {&split.train, &split.valid, &split.test}) {
    for (const Pair& pair : *part) {
      seen.insert(pair.src);
      EXPECT_EQ(pair.tgt, "es " + pair.src.substr(3));  // pairs stay together
    }
  }
  EXPECT_EQ(seen.size(), 997u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 997u);
}

TEST(Split, FractionsFollowTheBooksArithmetic) {
  const Split split = split_pairs(numbered_pairs(1000), 0.15, 0.15, 1);
  EXPECT_EQ(split.train.size(), 700u);
  EXPECT_EQ(split.valid.size(), 150u);
  EXPECT_EQ(split.test.size(), 150u);
  // The book's int(0.15 * 118964) = 17844 and 118964 - 2 * 17844 = 83276.
  const Split full = split_pairs(numbered_pairs(118964), 0.15, 0.15, 1337);
  EXPECT_EQ(full.train.size(), 83276u);
  EXPECT_EQ(full.valid.size(), 17844u);
  EXPECT_EQ(full.test.size(), 17844u);
  const Split lopsided = split_pairs(numbered_pairs(100), 0.1, 0.25, 1);
  EXPECT_EQ(lopsided.valid.size(), 10u);
  EXPECT_EQ(lopsided.test.size(), 25u);
  EXPECT_EQ(lopsided.train.size(), 65u);
}

TEST(Split, RejectsImpossibleFractions) {
  EXPECT_THROW(split_pairs(numbered_pairs(10), 0.5, 0.5, 1), std::invalid_argument);
  EXPECT_THROW(split_pairs(numbered_pairs(10), -0.1, 0.1, 1), std::invalid_argument);
  EXPECT_THROW(split_pairs(numbered_pairs(10), 0.1, 1.5, 1), std::invalid_argument);
}

TEST(Split, SplitsTheSampleCorpus) {
  const auto pairs = read_pairs(kSample, {});
  const Split split = split_pairs(pairs, 0.15, 0.15, 1337);
  EXPECT_EQ(split.train.size() + split.valid.size() + split.test.size(), pairs.size());
  EXPECT_EQ(split.valid.size(), static_cast<size_t>(0.15 * static_cast<double>(pairs.size())));
}

TEST(CorpusFull, SpaEngReadsCleanlyAndSplitsLikeTheBook) {
  // Runs only where scripts/get_data.sh has put the public corpus in place.
  const std::string path = std::string(ATENTO_SOURCE_DIR) + "/runs/data/spa-eng.tsv";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path << " (run scripts/get_data.sh)";
  ReadReport report;
  const auto pairs = read_pairs(path, {}, &report);
  EXPECT_EQ(report.lines, 118964);
  EXPECT_EQ(report.skipped, 0) << (report.problems.empty() ? "" : report.problems[0]);
  const Split split = split_pairs(pairs, 0.15, 0.15, 1337);
  EXPECT_EQ(split.train.size(), 83276u);
  EXPECT_EQ(split.valid.size(), 17844u);
  EXPECT_EQ(split.test.size(), 17844u);
}

}  // namespace
}  // namespace atento::data
