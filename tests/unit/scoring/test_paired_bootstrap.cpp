// Tests for app/scoring/paired_bootstrap: reproducible on a seed, and sane: a system compared
// with itself is not significant, a clearly better one is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/scoring/paired_bootstrap.h"

namespace atento {
namespace {

using RefSets = std::vector<std::vector<std::string>>;

// 300 sentences of 6-9 distinct words; the references.
RefSets references() {
  RefSets refs;
  for (int i = 0; i < 300; ++i) {
    std::string s;
    for (int w = 0; w < 6 + i % 4; ++w) s += "w" + std::to_string((i * 7 + w * 13) % 97) + " ";
    refs.push_back({s + "."});
  }
  return refs;
}

// A weaker system: every sentence loses its second and third words; a few keep them.
std::vector<std::string> weaker(const RefSets& refs) {
  std::vector<std::string> out;
  for (size_t i = 0; i < refs.size(); ++i) {
    std::string s = refs[i][0];
    if (i % 10 != 0) {
      const size_t a = s.find(' ');
      const size_t b = s.find(' ', s.find(' ', a + 1) + 1);
      s.erase(a, b - a);
    }
    out.push_back(s);
  }
  return out;
}

// The same system with one sentence in five changed a little (a word dropped).
std::vector<std::string> slightly_different(const std::vector<std::string>& hyps) {
  std::vector<std::string> out = hyps;
  for (size_t i = 0; i < out.size(); i += 5) out[i].erase(0, out[i].find(' ') + 1);
  return out;
}

TEST(PairedBootstrapTest, SameSeedSameFiguresOtherSeedOtherDraws) {
  const RefSets refs = references();
  const auto base = weaker(refs);
  const auto sys = slightly_different(base);
  const auto a = compare_systems(base, sys, refs, ChrfOptions{}, BootstrapSettings{200, 42});
  const auto b = compare_systems(base, sys, refs, ChrfOptions{}, BootstrapSettings{200, 42});
  const auto c = compare_systems(base, sys, refs, ChrfOptions{}, BootstrapSettings{200, 43});
  ASSERT_EQ(a.size(), 2u);
  for (size_t m = 0; m < a.size(); ++m) {
    EXPECT_EQ(a[m].result.system.mean, b[m].result.system.mean) << a[m].metric;
    EXPECT_EQ(a[m].result.baseline.ci_low, b[m].result.baseline.ci_low) << a[m].metric;
    EXPECT_EQ(a[m].result.p_value, b[m].result.p_value) << a[m].metric;
    EXPECT_NE(a[m].result.system.mean, c[m].result.system.mean) << a[m].metric;
    // The real scores do not depend on the draws.
    EXPECT_EQ(a[m].result.system.score, c[m].result.system.score) << a[m].metric;
  }
  EXPECT_EQ(a[0].metric, "BLEU");
  EXPECT_EQ(a[1].metric, "chrF2");
  EXPECT_NE(a[0].signature.find("|bs:200|seed:42|"), std::string::npos) << a[0].signature;
}

TEST(PairedBootstrapTest, ASystemComparedWithItselfIsNotSignificant) {
  const RefSets refs = references();
  const auto base = weaker(refs);
  for (const auto& m : compare_systems(base, base, refs, ChrfOptions{}, BootstrapSettings{})) {
    EXPECT_DOUBLE_EQ(m.result.p_value, 1.0) << m.metric;
    EXPECT_EQ(m.result.system.score, m.result.baseline.score) << m.metric;
    EXPECT_EQ(m.result.system.mean, m.result.baseline.mean) << m.metric;
  }
}

TEST(PairedBootstrapTest, AClearlyBetterSystemGetsASmallPValue) {
  const RefSets refs = references();
  const auto base = weaker(refs);
  std::vector<std::string> perfect;
  for (const auto& r : refs) perfect.push_back(r[0]);
  for (const auto& m : compare_systems(base, perfect, refs, ChrfOptions{}, BootstrapSettings{})) {
    // No resample gets near the observed gap: p is the smallest possible, 1/1001.
    EXPECT_NEAR(m.result.p_value, 1.0 / 1001.0, 1e-12) << m.metric;
    EXPECT_GT(m.result.system.mean, m.result.baseline.ci_high) << m.metric;
    EXPECT_NEAR(m.result.system.score, 100.0, 1e-9) << m.metric;
  }
}

TEST(PairedBootstrapTest, IntervalsHoldTheMean) {
  const RefSets refs = references();
  const auto base = weaker(refs);
  const auto sys = slightly_different(base);
  for (const auto& m : compare_systems(base, sys, refs, ChrfOptions{}, BootstrapSettings{})) {
    for (const auto* e : {&m.result.baseline, &m.result.system}) {
      EXPECT_LE(e->ci_low, e->mean) << m.metric;
      EXPECT_LE(e->mean, e->ci_high) << m.metric;
      EXPECT_LT(e->ci_low, e->ci_high) << m.metric;
      EXPECT_NEAR(e->mean, e->score, 2.0) << m.metric;
    }
    EXPECT_GT(m.result.p_value, 0.0);
    EXPECT_LE(m.result.p_value, 1.0);
  }
}

TEST(PairedBootstrapTest, RefusesSystemsOfDifferentLengths) {
  EXPECT_THROW(paired_bootstrap(
                   {{1}}, {{1}, {2}}, [](const SegmentStats&) { return 0.0; }, BootstrapSettings{}),
               std::invalid_argument);
  EXPECT_THROW(paired_bootstrap(
                   {}, {}, [](const SegmentStats&) { return 0.0; }, BootstrapSettings{}),
               std::invalid_argument);
}

}  // namespace
}  // namespace atento
