#include "app/scoring/reference_sets.h"

#include <unordered_map>

namespace atento {

ReferenceSets reference_sets(const std::vector<data::Pair>& pairs, std::size_t max_sources) {
  ReferenceSets sets;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& p : pairs) {
    auto found = index.find(p.src);
    if (found == index.end()) {
      if (sets.sources.size() >= max_sources) continue;
      found = index.emplace(p.src, sets.sources.size()).first;
      sets.sources.push_back(p.src);
      sets.references.emplace_back();
    }
    sets.references[found->second].push_back(p.tgt);
  }
  return sets;
}

}  // namespace atento
