#include "data/pair_noise.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "data/text_io.h"

namespace atento::data {
namespace {

const char* const kNames[] = {"clean",    "misaligned",   "neighbour", "truncated",
                              "deletion", "untranslated", "swapped"};

std::string join_words(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) {
    if (!text.empty()) text += ' ';
    text += word;
  }
  return text;
}

/// Damages the English side (0) or the Spanish side (1), picked at random; a side with too few
/// words falls back to the other.
template <typename Damage>
std::optional<Pair> damage_one_side(const Pair& pair, SplitMix64& rng, Damage damage) {
  const bool spanish_first = rng.below(2) == 1;
  for (bool spanish : {spanish_first, !spanish_first}) {
    const std::string& side = spanish ? pair.tgt : pair.src;
    auto words = split_words(side);
    if (words.size() < 2) continue;
    Pair out = pair;
    (spanish ? out.tgt : out.src) = join_words(damage(words, rng));
    return out;
  }
  return std::nullopt;
}

size_t word_count(const std::string& text) { return split_words(text).size(); }

}  // namespace

const std::vector<NoiseKind>& negative_kinds() {
  static const std::vector<NoiseKind> kinds{NoiseKind::kMisaligned,   NoiseKind::kNeighbour,
                                            NoiseKind::kTruncated,    NoiseKind::kDeletion,
                                            NoiseKind::kUntranslated, NoiseKind::kSwapped};
  return kinds;
}

std::string noise_kind_name(NoiseKind kind) { return kNames[static_cast<int>(kind)]; }

std::optional<NoiseKind> parse_noise_kind(const std::string& name) {
  for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i) {
    if (name == kNames[i]) return static_cast<NoiseKind>(i);
  }
  return std::nullopt;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::optional<Pair> misaligned(const std::vector<Pair>& clean, size_t i, SplitMix64& rng) {
  // A few tries at a different Spanish sentence; a corpus of one repeated pair has none.
  for (int attempt = 0; attempt < 16 && clean.size() > 1; ++attempt) {
    size_t j = static_cast<size_t>(rng.below(clean.size() - 1));
    if (j >= i) ++j;
    if (clean[j].tgt != clean[i].tgt) return Pair{clean[i].src, clean[j].tgt};
  }
  return std::nullopt;
}

std::optional<Pair> neighbour(const std::vector<Pair>& clean, const std::vector<size_t>& by_length,
                              size_t rank, SplitMix64& rng) {
  const auto at = static_cast<int64_t>(rank);
  const size_t i = by_length[rank];
  // Walk outwards from i's place in length order, starting on a random side.
  const int64_t first = rng.below(2) == 0 ? -1 : 1;
  for (int64_t distance = 1; distance < static_cast<int64_t>(by_length.size()); ++distance) {
    for (int64_t sign : {first, -first}) {
      const int64_t k = at + sign * distance;
      if (k < 0 || k >= static_cast<int64_t>(by_length.size())) continue;
      const Pair& other = clean[by_length[static_cast<size_t>(k)]];
      if (other.tgt != clean[i].tgt) return Pair{clean[i].src, other.tgt};
    }
  }
  return std::nullopt;
}

std::optional<Pair> truncated(const Pair& pair, SplitMix64& rng) {
  return damage_one_side(pair, rng, [](std::vector<std::string> words, SplitMix64& r) {
    const double keep_share = 0.3 + 0.4 * static_cast<double>(r.below(1001)) / 1000.0;
    auto keep = static_cast<size_t>(std::lround(keep_share * static_cast<double>(words.size())));
    keep = std::clamp<size_t>(keep, 1, words.size() - 1);
    words.resize(keep);
    return words;
  });
}

std::optional<Pair> with_deletions(const Pair& pair, SplitMix64& rng) {
  return damage_one_side(pair, rng, [](std::vector<std::string> words, SplitMix64& r) {
    size_t remove = std::clamp<size_t>((words.size() + 2) / 3, 1, words.size() - 1);
    while (remove-- > 0) {
      words.erase(words.begin() + static_cast<long>(r.below(words.size())));
    }
    return words;
  });
}

std::optional<Pair> untranslated(const Pair& pair) {
  if (pair.src == pair.tgt) return std::nullopt;
  return Pair{pair.src, pair.src};
}

std::optional<Pair> swapped(const Pair& pair) {
  if (pair.src == pair.tgt) return std::nullopt;
  return Pair{pair.tgt, pair.src};
}

namespace {

/// Pair i damaged by `kind`; `rank` is i's place in `by_length`.
std::optional<Pair> damage(NoiseKind kind, const std::vector<Pair>& clean,
                           const std::vector<size_t>& by_length, size_t i, size_t rank,
                           SplitMix64& rng) {
  switch (kind) {
    case NoiseKind::kMisaligned:
      return misaligned(clean, i, rng);
    case NoiseKind::kNeighbour:
      return neighbour(clean, by_length, rank, rng);
    case NoiseKind::kTruncated:
      return truncated(clean[i], rng);
    case NoiseKind::kDeletion:
      return with_deletions(clean[i], rng);
    case NoiseKind::kUntranslated:
      return untranslated(clean[i]);
    case NoiseKind::kSwapped:
      return swapped(clean[i]);
    case NoiseKind::kClean:
      break;
  }
  return clean[i];
}

}  // namespace

std::vector<LabelledPair> make_noisy_pairs(const std::vector<Pair>& clean,
                                           const PairNoiseOptions& options) {
  const double f = options.noise_fraction;
  if (!(f >= 0.0 && f < 1.0)) {
    throw std::invalid_argument("noise_fraction: must be in [0, 1), got " + std::to_string(f));
  }
  if (options.kinds.empty()) throw std::invalid_argument("noise kinds: none given");
  const auto negatives = static_cast<size_t>(std::lround(clean.size() * f / (1.0 - f)));
  if (negatives > 0 && clean.size() < 2) {
    throw std::invalid_argument("negatives need at least two clean pairs, got " +
                                std::to_string(clean.size()));
  }
  std::vector<LabelledPair> out;
  out.reserve(clean.size() + negatives);
  for (const auto& pair : clean) out.push_back({pair, true, NoiseKind::kClean});
  std::vector<size_t> by_length(clean.size()), words(clean.size()), rank(clean.size());
  for (size_t i = 0; i < clean.size(); ++i) {
    by_length[i] = i;
    words[i] = word_count(clean[i].tgt);
  }
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](size_t a, size_t b) { return words[a] < words[b]; });
  for (size_t r = 0; r < by_length.size(); ++r) rank[by_length[r]] = r;
  SplitMix64 rng(options.seed);
  // Kinds in turn; a pair that cannot take its turn's damage is replaced by another (bounded).
  for (size_t n = 0, tries = 0; n < negatives && tries < 64 * negatives; ++tries) {
    const NoiseKind kind = options.kinds[n % options.kinds.size()];
    const auto i = static_cast<size_t>(rng.below(clean.size()));
    if (auto noisy = damage(kind, clean, by_length, i, rank[i], rng)) {
      out.push_back({*noisy, false, kind});
      ++n;
    }
  }
  shuffle_in_place(out, rng);
  return out;
}

}  // namespace atento::data

namespace atento::data {

void write_labelled_pairs(const std::string& path, const std::vector<LabelledPair>& pairs) {
  std::string text;
  for (const auto& item : pairs) {
    text += (item.positive ? "1\t" : "0\t") + noise_kind_name(item.kind) + "\t" + item.pair.src +
            "\t" + item.pair.tgt + "\n";
  }
  write_file_atomically(path, text);
}

std::vector<LabelledPair> read_labelled_pairs(const std::string& path) {
  const std::string text = read_whole_file(path, "labelled pairs");
  std::vector<LabelledPair> pairs;
  size_t start = 0;
  for (int64_t number = 1; start < text.size(); ++number) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto fail = [&](const std::string& why) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + why +
                               " (expected label<TAB>noise_type<TAB>English<TAB>Spanish)");
    };
    const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) fail("fewer than four fields");
    LabelledPair item;
    const std::string label = line.substr(0, a);
    if (label != "0" && label != "1") fail("label '" + label + "' is not 0 or 1");
    item.positive = label == "1";
    auto kind = parse_noise_kind(line.substr(a + 1, b - a - 1));
    if (!kind) fail("unknown noise type '" + line.substr(a + 1, b - a - 1) + "'");
    item.kind = *kind;
    const std::string reason = check_pair_line(std::string_view(line).substr(b + 1), 0, &item.pair);
    if (!reason.empty()) fail(reason);
    pairs.push_back(std::move(item));
  }
  return pairs;
}

}  // namespace atento::data
