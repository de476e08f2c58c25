// Tests for app/scoring/signature: the sacreBLEU-style signature strings and metric names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/common/version.h"
#include "app/scoring/signature.h"

namespace atento {
namespace {

std::string version() { return std::string("version:atento-") + kAtentoVersion; }

TEST(SignatureTest, CorpusBleuSaysWhatTheScorerDoes) {
  EXPECT_EQ(bleu_signature({}), "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|" + version());
}

TEST(SignatureTest, SentenceBleuUsesTheEffectiveOrder) {
  EXPECT_EQ(bleu_signature({}, BleuOrders::kEffective),
            "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|" + version());
}

TEST(SignatureTest, ChrfAndChrfPlusPlus) {
  EXPECT_EQ(chrf_signature({}, ChrfOptions{}),
            "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|" + version());
  ChrfOptions plus;
  plus.word_order = 2;
  EXPECT_EQ(chrf_signature({}, plus), "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|" + version());
  EXPECT_EQ(chrf_name(ChrfOptions{}), "chrF2");
  EXPECT_EQ(chrf_name(plus), "chrF2++");
}

TEST(SignatureTest, BootstrapSettingsFollowNrefsAsInSacreBleu) {
  SignatureContext context;
  context.nrefs = "var";
  context.bootstrap = BootstrapSettings{1000, 7};
  EXPECT_EQ(bleu_signature(context),
            "nrefs:var|bs:1000|seed:7|case:mixed|eff:no|tok:13a|smooth:exp|" + version());
}

TEST(SignatureTest, NrefsCountsNonEmptyReferencesAndSaysVarWhenTheyDiffer) {
  EXPECT_EQ(nrefs_field({{"a"}, {"b"}}), "1");
  EXPECT_EQ(nrefs_field({{"a", "b"}, {"c", ""}, {"d", "e"}}), "var");
  EXPECT_EQ(nrefs_field({{"a", "b"}, {"c", "d"}}), "2");
}

}  // namespace
}  // namespace atento
