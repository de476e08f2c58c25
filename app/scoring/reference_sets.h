#pragma once
// A set of pairs as a metric sees it: each distinct English source once, with every Spanish
// side that shares it as one of its references (atento-eval and validation BLEU in training).

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "data/corpus.h"

namespace atento {

/// Distinct sources and their references, index for index.
struct ReferenceSets {
  std::vector<std::string> sources;                  ///< in first-occurrence order
  std::vector<std::vector<std::string>> references;  ///< every target of sources[i]
};

/// The first `max_sources` distinct sources of `pairs` (all by default) with their references
/// (every pair of such a source, wherever it comes in `pairs`).
ReferenceSets reference_sets(const std::vector<data::Pair>& pairs,
                             std::size_t max_sources = std::numeric_limits<std::size_t>::max());

}  // namespace atento
