#include "app/scoring/signature.h"

#include <set>

#include "app/common/version.h"

namespace atento {
namespace {

// The fields every signature starts with (sacreBLEU's order: nrefs, then bs and seed when a
// paired bootstrap ran) and the one it ends with.
std::string leading_fields(const SignatureContext& context) {
  std::string out = "nrefs:" + context.nrefs;
  if (context.bootstrap) {
    out += "|bs:" + std::to_string(context.bootstrap->resamples) +
           "|seed:" + std::to_string(context.bootstrap->seed);
  }
  return out;
}

std::string version_field() { return std::string("|version:atento-") + kAtentoVersion; }

}  // namespace

std::string nrefs_field(const std::vector<std::vector<std::string>>& refs) {
  std::set<size_t> counts;
  for (const auto& set : refs) {
    size_t n = 0;
    for (const auto& ref : set) n += ref.empty() ? 0 : 1;
    counts.insert(n);
  }
  if (counts.size() == 1) return std::to_string(*counts.begin());
  return counts.empty() ? "0" : "var";
}

std::string bleu_signature(const SignatureContext& context, BleuOrders orders) {
  const char* eff = orders == BleuOrders::kEffective ? "yes" : "no";
  return leading_fields(context) + "|case:mixed|eff:" + eff + "|tok:13a|smooth:exp" +
         version_field();
}

std::string chrf_signature(const SignatureContext& context, const ChrfOptions& options) {
  return leading_fields(context) + "|case:mixed|eff:yes|nc:" + std::to_string(options.char_order) +
         "|nw:" + std::to_string(options.word_order) + "|space:no" + version_field();
}

std::string chrf_name(const ChrfOptions& options) {
  return "chrF" + std::to_string(options.beta) + std::string(options.word_order, '+');
}

}  // namespace atento
