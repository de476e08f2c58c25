// Experiment tool: a noisy corpus made from a clean one, for the filter's practical test
// (scripts/noisy_corpus_experiment.sh). Adds synthetic negatives of every kind
// (data/pair_noise.h) so that they make up FRACTION of the output, shuffled, seeded.
//   atento_make_noisy CLEAN.tsv NOISY.tsv FRACTION SEED [LABELS.tsv]
// NOISY.tsv: English<TAB>Spanish lines (a training corpus); LABELS.tsv: the same pairs as
// label<TAB>noise_type<TAB>English<TAB>Spanish, what atento-filter --evaluate reads.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "data/corpus.h"
#include "data/pair_noise.h"

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr,
                 "usage: atento_make_noisy CLEAN.tsv NOISY.tsv FRACTION SEED [LABELS.tsv]\n");
    return 2;
  }
  try {
    using namespace atento::data;
    const std::vector<Pair> clean = read_pairs(argv[1], CorpusOptions{});
    PairNoiseOptions options;
    options.noise_fraction = std::stod(argv[3]);
    options.seed = std::stoull(argv[4]);
    const std::vector<LabelledPair> labelled = make_noisy_pairs(clean, options);
    std::vector<Pair> pairs;
    pairs.reserve(labelled.size());
    for (const LabelledPair& example : labelled) pairs.push_back(example.pair);
    write_pairs(argv[2], pairs);
    if (argc == 6) write_labelled_pairs(argv[5], labelled);
    std::printf("%zu clean pairs + %zu negatives -> %s\n", clean.size(),
                labelled.size() - clean.size(), argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
