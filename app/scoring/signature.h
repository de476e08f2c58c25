#pragma once
// sacreBLEU-style signatures: the settings that make a BLEU or chrF figure reproducible, written
// as sacreBLEU 2.x writes them ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:…"), so a
// reader can tell which settings produced a score. The version field names Atento's scorer
// ("atento-0.3.0"), not a sacreBLEU release: the figures follow sacreBLEU's defaults (checked
// against an independent implementation, docs/evaluating.md), but were not computed by it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/scoring/metrics.h"

namespace atento {

/// Paired bootstrap settings, written into the signature when a comparison used them.
struct BootstrapSettings {
  int64_t resamples = 1000;  ///< sacreBLEU's --paired-bs-n default
  uint64_t seed = 12345;     ///< sacreBLEU's SACREBLEU_SEED default
};

/// What the signatures need to know about the data and the test.
struct SignatureContext {
  std::string nrefs = "1";                     ///< references per segment, or "var"
  std::optional<BootstrapSettings> bootstrap;  ///< set when scores come from a paired test
};

/// sacreBLEU's nrefs: the number of non-empty references per segment when every segment has
/// the same number, "var" otherwise.
std::string nrefs_field(const std::vector<std::vector<std::string>>& refs);

/// "BLEU" signature. Atento's BLEU is case-sensitive, 13a-tokenised, 'exp'-smoothed; `orders`
/// says corpus (eff:no) or sentence (eff:yes) BLEU.
std::string bleu_signature(const SignatureContext& context, BleuOrders orders = BleuOrders::kAll);

/// chrF signature: case-sensitive, effective-order averaging (eff:yes), whitespace removed
/// (space:no), nc/nw the character and word orders.
std::string chrf_signature(const SignatureContext& context, const ChrfOptions& options);

/// The metric's name as sacreBLEU prints it: "chrF2", "chrF2+" (word order 1), "chrF2++".
std::string chrf_name(const ChrfOptions& options);

}  // namespace atento
