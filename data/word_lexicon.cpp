#include "data/word_lexicon.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "data/text_io.h"
#include "data/tokenizer.h"

namespace atento::data {

namespace {

/// The most (target word, source word) cells that training holds at once: 64 MB of indices.
constexpr size_t kMaxCells = size_t{1} << 24;

/// `word`'s number in `ids`, numbering it next when it is new.
uint32_t number_word(std::unordered_map<std::string, uint32_t>& ids, const std::string& word) {
  return ids.emplace(word, static_cast<uint32_t>(ids.size())).first->second;
}

/// Words numbered in order of first appearance, kept in that order too (for training).
struct WordIds {
  std::unordered_map<std::string, uint32_t> index;
  std::vector<std::string> words;

  uint32_t id(const std::string& word) {
    const uint32_t n = number_word(index, word);
    if (n == words.size()) words.push_back(word);
    return n;
  }
};

/// Model 1's training data: for every target word of every pair read, a row of cells, one per
/// source word of its pair and one for the empty word; a cell names a (source, target) word
/// pair, whose probability EM estimates.
struct Cells {
  WordIds source, target;
  std::vector<uint32_t> row_cells;      ///< the rows, one after another: cell numbers
  std::vector<size_t> row_begin = {0};  ///< where each row starts in row_cells (one more)
  std::vector<uint32_t> cell_source, cell_target;
  std::unordered_map<uint64_t, uint32_t> cell_of;  ///< (source << 32 | target) → cell

  uint32_t cell(uint32_t s, uint32_t t) {
    const uint64_t key = (static_cast<uint64_t>(s) << 32) | t;
    const auto [at, added] = cell_of.emplace(key, static_cast<uint32_t>(cell_source.size()));
    if (added) {
      cell_source.push_back(s);
      cell_target.push_back(t);
    }
    return at->second;
  }
};

Cells collect_cells(const std::vector<Pair>& pairs) {
  Cells cells;
  cells.source.id("");  // 0: the empty word
  for (const Pair& pair : pairs) {
    const auto english = book_standardize(pair.src, false);
    const auto spanish = book_standardize(pair.tgt, true);
    if (english.empty() || spanish.empty()) continue;
    if (cells.row_cells.size() + spanish.size() * (english.size() + 1) > kMaxCells) break;
    std::vector<uint32_t> sources = {0};
    for (const auto& word : english) sources.push_back(cells.source.id(word));
    for (const auto& word : spanish) {
      const uint32_t t = cells.target.id(word);
      for (uint32_t s : sources) cells.row_cells.push_back(cells.cell(s, t));
      cells.row_begin.push_back(cells.row_cells.size());
    }
  }
  return cells;
}

/// One round of EM: every target word's probability shared among its row's source words in
/// proportion to the current estimates (E), then the estimates re-made from those shares (M).
void expectation_maximisation(const Cells& cells, size_t n_source, std::vector<float>& p) {
  std::vector<double> count(p.size(), 0.0), total(n_source, 0.0);
  for (size_t r = 0; r + 1 < cells.row_begin.size(); ++r) {
    const auto begin = cells.row_cells.begin() + static_cast<std::ptrdiff_t>(cells.row_begin[r]);
    const auto end = cells.row_cells.begin() + static_cast<std::ptrdiff_t>(cells.row_begin[r + 1]);
    double z = 0.0;
    for (auto c = begin; c != end; ++c) z += p[*c];
    for (auto c = begin; c != end; ++c) {
      const double share = p[*c] / z;
      count[*c] += share;
      total[cells.cell_source[*c]] += share;
    }
  }
  for (size_t c = 0; c < p.size(); ++c) {
    p[c] = static_cast<float>(count[c] / total[cells.cell_source[c]]);
  }
}

float parse_probability(const std::string& field) {
  char* end = nullptr;
  const float value = std::strtof(field.c_str(), &end);
  if (field.empty() || end != field.c_str() + field.size() || !std::isfinite(value) ||
      value <= 0.0f || value > 1.0f) {
    throw std::invalid_argument("probability \"" + field + "\" is not a number in (0, 1]");
  }
  return value;
}

}  // namespace

std::string lexicon_word(std::string_view word, bool target) {
  std::string joined;
  for (const auto& part : book_standardize(std::string(word), target)) joined += part;
  return joined;
}

WordLexicon WordLexicon::train(const std::vector<Pair>& pairs, int iterations) {
  const Cells cells = collect_cells(pairs);
  std::vector<float> p(cells.cell_source.size(), 1.0f);  // uniform: rows share equally at first
  for (int i = 0; i < iterations; ++i) {
    expectation_maximisation(cells, cells.source.words.size(), p);
  }
  WordLexicon lexicon;
  for (size_t c = 0; c < p.size(); ++c) {
    if (p[c] < kMinProbability) continue;
    lexicon.add(cells.source.words[cells.cell_source[c]], cells.target.words[cells.cell_target[c]],
                p[c]);
  }
  lexicon.sort_entries();
  return lexicon;
}

WordLexicon WordLexicon::load(const std::string& path) {
  const std::string text = read_whole_file(path, "word lexicon", kMaxWordLexiconBytes);
  WordLexicon lexicon;
  std::istringstream lines(text);
  std::string line;
  for (int64_t number = 1; std::getline(lines, line); ++number) {
    try {
      const size_t first = line.find('\t');
      const size_t second = first == std::string::npos ? first : line.find('\t', first + 1);
      if (second == std::string::npos || line.find('\t', second + 1) != std::string::npos) {
        throw std::invalid_argument("expected English<TAB>Spanish<TAB>probability");
      }
      const std::string target = line.substr(first + 1, second - first - 1);
      if (target.empty()) throw std::invalid_argument("empty Spanish word");
      lexicon.add(line.substr(0, first), target, parse_probability(line.substr(second + 1)));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  lexicon.sort_entries();
  return lexicon;
}

void WordLexicon::save(const std::string& path) const {
  std::vector<std::string> source_words(source_ids_.size()), target_words(target_ids_.size());
  for (const auto& [word, id] : source_ids_) source_words[id] = word;
  for (const auto& [word, id] : target_ids_) target_words[id] = word;
  std::vector<std::tuple<std::string, float, std::string>> rows;  // source, −p, target
  for (const auto& [key, p] : entries_) {
    rows.emplace_back(source_words[key >> 32], -p, target_words[key & 0xFFFFFFFFu]);
  }
  std::sort(rows.begin(), rows.end());
  std::ostringstream out;
  out.precision(6);
  for (const auto& [source, minus_p, target] : rows) {
    out << source << '\t' << target << '\t' << -minus_p << '\n';
  }
  write_file_atomically(path, out.str());
}

void WordLexicon::add(const std::string& source, const std::string& target, float p) {
  const uint64_t s = number_word(source_ids_, source), t = number_word(target_ids_, target);
  entries_.emplace_back((s << 32) | t, p);
}

void WordLexicon::sort_entries() {
  // Stable, then the last of equal keys kept: a repeated line replaces the one before.
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint64_t, float>> unique;
  for (const auto& entry : entries_) {
    if (!unique.empty() && unique.back().first == entry.first) {
      unique.back() = entry;
    } else {
      unique.push_back(entry);
    }
  }
  unique.shrink_to_fit();
  entries_ = std::move(unique);
}

float WordLexicon::probability(const std::string& source, const std::string& target) const {
  const auto s = source_ids_.find(source);
  const auto t = target_ids_.find(target);
  if (s == source_ids_.end() || t == target_ids_.end()) return 0.0f;
  const uint64_t key = (static_cast<uint64_t>(s->second) << 32) | t->second;
  const auto found =
      std::lower_bound(entries_.begin(), entries_.end(), key,
                       [](const auto& entry, uint64_t k) { return entry.first < k; });
  return found != entries_.end() && found->first == key ? found->second : 0.0f;
}

size_t WordLexicon::size() const { return entries_.size(); }

}  // namespace atento::data
