// A request's strings as pieces and back: sentences become jobs of their own with the request's
// beam and n_best; results join with the string's spacing, rank by rank.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "app/serve/segmented_jobs.h"
#include "tests/unit/test_words_vocab.h"

namespace atento {
namespace {

using test_util::small_vocabularies;

TEST(SegmentedJobs, SentencesBecomeJobsAndResultsJoinRankByRank) {
  const auto vocab = small_vocabularies();
  Segmenter splitter("en", 0);
  const std::vector<TranslationJob> jobs = {{"Where is Tom?  Tom is.", 4, 2}, {"", 4, 2}};
  const SegmentedJobs segmented = segment_jobs(jobs, vocab, &splitter);
  ASSERT_EQ(segmented.pieces.size(), 2u);
  EXPECT_EQ(segmented.pieces[0].text, "Where is Tom?");
  EXPECT_EQ(segmented.pieces[1].text, "Tom is.");
  EXPECT_EQ(segmented.pieces[1].beam, 4);
  EXPECT_EQ(segmented.pieces[1].n_best, 2);
  const auto joined = join_pieces(segmented, {{"¿Dónde está Tom?", "¿Tom?"}, {"Tom está."}});
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_EQ(joined[0], (TranslationResult{"¿Dónde está Tom?  Tom está.", "¿Tom?  Tom está."}));
  EXPECT_EQ(joined[1], (TranslationResult{""}));
}

TEST(SegmentedJobs, WithoutASplitterALineIsOnePieceUnlessItIsTooLong) {
  const auto vocab = small_vocabularies();
  const SegmentedJobs whole = segment_jobs({{"Where is Tom? Tom is.", 1, 1}}, vocab, nullptr);
  // Five words for a source length of 3: split where it fits, not cut.
  ASSERT_EQ(whole.pieces.size(), 2u);
  EXPECT_EQ(whole.cut, 0);
  EXPECT_EQ(join_pieces(whole, {{"a"}, {"b"}})[0], (TranslationResult{"a b"}));
}

}  // namespace
}  // namespace atento
