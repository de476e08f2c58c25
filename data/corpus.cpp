// Corpus reading, validation and the deterministic split.

#include "data/corpus.h"

#include <cmath>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "data/random.h"
#include "data/text_io.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

constexpr size_t kMaxReportedProblems = 20;
constexpr std::string_view kWhitespace = " \t\r\v\f";

std::string_view trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(kWhitespace);
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(kWhitespace);
  return text.substr(begin, end - begin + 1);
}

// Why `line` is not a pair, or "" when it is one (then `pair` holds it).
std::string check_line(std::string_view line, int64_t max_chars, Pair* pair) {
  const size_t nul = line.find('\0');
  if (nul != std::string_view::npos) {
    return "NUL byte at byte " + std::to_string(nul + 1);
  }
  const size_t bad = first_invalid_utf8(line);
  if (bad != std::string_view::npos) {
    return "invalid UTF-8 at byte " + std::to_string(bad + 1);
  }
  if (trim(line).empty()) return "empty line";
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) return "no tab (expected English<TAB>Spanish)";
  const size_t tab2 = line.find('\t', tab + 1);
  const std::string_view src = trim(line.substr(0, tab));
  const std::string_view tgt = trim(line.substr(
      tab + 1, tab2 == std::string_view::npos ? std::string_view::npos : tab2 - tab - 1));
  if (src.empty()) return "empty English side";
  if (tgt.empty()) return "empty Spanish side";
  const auto too_long = [&](std::string_view side) {
    return max_chars > 0 && static_cast<int64_t>(side.size()) > max_chars;
  };
  if (too_long(src) || too_long(tgt)) {
    const bool english = too_long(src);
    return std::string(english ? "English" : "Spanish") + " side longer than max_chars (" +
           std::to_string(english ? src.size() : tgt.size()) + " > " + std::to_string(max_chars) +
           " bytes)";
  }
  pair->src.assign(src);
  pair->tgt.assign(tgt);
  return {};
}

}  // namespace

std::string check_pair_line(std::string_view line, int64_t max_chars, Pair* pair) {
  return check_line(line, max_chars, pair);
}

std::vector<Pair> read_pairs(const std::string& path, const CorpusOptions& options,
                             ReadReport* report) {
  const std::string content = read_whole_file(path, "corpus");
  std::string_view text(content);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  // Trailing blank lines are an editor's habit, not bad data.
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  if (lines.empty()) throw std::runtime_error("corpus " + path + " is empty");

  ReadReport local;
  ReadReport& result = report != nullptr ? *report : local;
  result = ReadReport{};
  result.lines = static_cast<int64_t>(lines.size());
  std::vector<Pair> pairs;
  pairs.reserve(lines.size());
  std::string first_problem;
  for (size_t i = 0; i < lines.size(); ++i) {
    Pair pair;
    const std::string reason = check_line(lines[i], options.max_chars, &pair);
    if (reason.empty()) {
      pairs.push_back(std::move(pair));
      continue;
    }
    const std::string problem = path + ":" + std::to_string(i + 1) + ": " + reason;
    if (options.strict) throw std::runtime_error(problem + " (strict mode)");
    if (first_problem.empty()) first_problem = problem;
    ++result.skipped;
    if (result.problems.size() < kMaxReportedProblems) result.problems.push_back(problem);
  }
  result.kept = static_cast<int64_t>(pairs.size());
  if (pairs.empty()) {
    throw std::runtime_error("corpus " + path + " holds no valid pair (" +
                             std::to_string(result.lines) +
                             " lines, first problem: " + first_problem + ")");
  }
  return pairs;
}

void write_pairs(const std::string& path, const std::vector<Pair>& pairs) {
  std::string content;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto breaks_format = [](const std::string& side) {
      return side.find_first_of("\t\n\r") != std::string::npos;
    };
    if (breaks_format(pairs[i].src) || breaks_format(pairs[i].tgt)) {
      throw std::invalid_argument("cannot write " + path + ": pair " + std::to_string(i) +
                                  " contains a tab or line break");
    }
    content.append(pairs[i].src).append(1, '\t').append(pairs[i].tgt).append(1, '\n');
  }
  write_file_atomically(path, content);
}

Split split_pairs(std::vector<Pair> pairs, double valid_fraction, double test_fraction,
                  uint64_t seed) {
  const auto fraction_ok = [](double f) { return std::isfinite(f) && f >= 0.0 && f < 1.0; };
  if (!fraction_ok(valid_fraction) || !fraction_ok(test_fraction) ||
      valid_fraction + test_fraction >= 1.0) {
    throw std::invalid_argument("split: valid_fraction (" + std::to_string(valid_fraction) +
                                ") and test_fraction (" + std::to_string(test_fraction) +
                                ") must each be in [0, 1) and sum to less than 1");
  }
  SplitMix64 rng(seed);
  shuffle_in_place(pairs, rng);
  // Truncation as the book's int(0.15 * n): 118,964 pairs give 83,276/17,844/17,844.
  const size_t n = pairs.size();
  const auto n_valid = static_cast<size_t>(valid_fraction * static_cast<double>(n));
  const auto n_test = static_cast<size_t>(test_fraction * static_cast<double>(n));
  const size_t n_train = n - n_valid - n_test;
  Split split;
  const auto take = [&](size_t begin, size_t end) {
    return std::vector<Pair>(std::make_move_iterator(pairs.begin() + begin),
                             std::make_move_iterator(pairs.begin() + end));
  };
  split.train = take(0, n_train);
  split.valid = take(n_train, n_train + n_valid);
  split.test = take(n_train + n_valid, n);
  return split;
}

}  // namespace atento::data
