#include "app/translate/tag_placement.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace atento {

namespace {

/// A span's place in the translation, in target words: [lo, hi), lo == hi for a point (after
/// word lo − 1).
struct WordRange {
  size_t lo = 0;
  size_t hi = 0;
  bool whole = false;  ///< the whole of one or more sentences' translations
};

/// Target words aligned to each source word.
std::vector<std::vector<size_t>> targets_of_sources(const WordAlignment& alignment) {
  std::vector<std::vector<size_t>> targets(alignment.source_words.size());
  if (alignment.links.size() != alignment.target_words.size()) {
    throw std::invalid_argument("place_spans: one list of links per target word expected");
  }
  for (size_t t = 0; t < alignment.links.size(); ++t) {
    for (size_t s : alignment.links[t]) {
      if (s >= targets.size())
        throw std::invalid_argument("place_spans: no source word " + std::to_string(s));
      targets[s].push_back(t);
    }
  }
  return targets;
}

/// The target words of the sentences whose source words are exactly [first, end), when they are
/// whole ones (all the words when the alignment has no pieces).
std::optional<WordRange> whole_pieces(const WordAlignment& alignment, size_t first, size_t end) {
  if (alignment.pieces.empty()) {
    if (first == 0 && end == alignment.source_words.size()) {
      return WordRange{0, alignment.target_words.size(), true};
    }
    return std::nullopt;
  }
  std::optional<size_t> lo;
  for (const auto& piece : alignment.pieces) {
    if (piece.source_begin == first) lo = piece.target_begin;
    if (lo && piece.source_end == end && piece.target_end > *lo) {
      return WordRange{*lo, piece.target_end, true};
    }
  }
  return std::nullopt;
}

/// Where a span of the source would go, before any nesting: every target word of the sentences
/// that a span covers whole; else the hull of the target words aligned to its words; for none, the
/// target word at the same relative place; for a span without words, a point after the target
/// words of the source word before it.
WordRange wanted_range(const data::InlineSpan& span, const WordAlignment& alignment,
                       const std::vector<std::vector<size_t>>& targets) {
  const auto& words = alignment.source_words;
  const size_t n_source = words.size(), n_target = alignment.target_words.size();
  size_t first = n_source, last = 0, before = 0;
  for (size_t s = 0; s < n_source; ++s) {
    if (words[s].end <= span.begin) before = s + 1;
    if (span.begin < span.end && words[s].begin < span.end && words[s].end > span.begin) {
      first = std::min(first, s);
      last = std::max(last, s);
    }
  }
  auto relative = [&](double source_place) {
    if (n_source == 0) return size_t{0};
    return std::min(n_target, static_cast<size_t>(std::lround(source_place * n_target /
                                                              static_cast<double>(n_source))));
  };
  if (first == n_source) {  // a point: after what the word before it became
    if (before == 0) return {0, 0};
    const auto& aligned = targets[before - 1];
    const size_t at = aligned.empty() ? relative(static_cast<double>(before))
                                      : *std::max_element(aligned.begin(), aligned.end()) + 1;
    return {at, at};
  }
  // A span over whole sentences (a menu item's link, a heading in <strong>): their translations.
  if (const auto whole = whole_pieces(alignment, first, last + 1)) return *whole;
  size_t lo = n_target, hi = 0;
  for (size_t s = first; s <= last; ++s) {
    for (size_t t : targets[s]) {
      lo = std::min(lo, t);
      hi = std::max(hi, t + 1);
    }
  }
  if (lo < hi) return {lo, hi};
  if (n_target == 0) return {0, 0};
  const size_t at = std::min(n_target - 1, relative((first + last + 1) / 2.0 - 0.5));
  return {at, at + 1};
}

/// Makes the ranges nested: each within its parent's, siblings in order and apart (an earlier
/// sibling gives way to where a later one starts, when it can keep a word).
void nest(const std::vector<data::InlineSpan>& spans, std::vector<WordRange>& ranges,
          size_t n_target) {
  std::vector<size_t> last_child_hi(spans.size(), 0);
  std::vector<int> previous_sibling(spans.size(), -1), last_child(spans.size() + 1, -1);
  for (size_t i = 0; i < spans.size(); ++i) {
    const size_t parent = spans[i].parent < 0 ? spans.size() : static_cast<size_t>(spans[i].parent);
    previous_sibling[i] = last_child[parent];
    last_child[parent] = static_cast<int>(i);
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    const WordRange bounds =
        spans[i].parent < 0 ? WordRange{0, n_target} : ranges[static_cast<size_t>(spans[i].parent)];
    size_t floor = bounds.lo;
    if (previous_sibling[i] >= 0) {
      WordRange& previous = ranges[static_cast<size_t>(previous_sibling[i])];
      // The previous sibling ends where this one would start, if it keeps a word of its own.
      if (ranges[i].lo > previous.lo && ranges[i].lo < previous.hi) previous.hi = ranges[i].lo;
      floor = std::max(floor, previous.hi);
    }
    WordRange& range = ranges[i];
    const bool had_words = range.lo < range.hi;
    range.lo = std::min(std::max(range.lo, floor), bounds.hi);
    range.hi = std::min(std::max(range.hi, range.lo), bounds.hi);
    if (had_words && range.lo == range.hi && range.hi < bounds.hi) ++range.hi;
  }
}

/// Punctuation that may end (or start) a word without belonging to what a tag covers.
constexpr std::string_view kTrailing[] = {".", ",", ";",      ":",      "!",      "?",     "\"",
                                          "'", ")", "\u00BB", "\u2026", "\u201D", "\u2019"};
constexpr std::string_view kLeading[] = {"\u00BF", "\u00A1", "\u00AB", "\"",
                                         "'",      "(",      "\u201C", "\u2018"};

/// The length of the punctuation mark of `marks` that `text` ends with (`at_end`) or starts
/// with; 0 for none.
template <size_t N>
size_t mark_at(std::string_view text, const std::string_view (&marks)[N], bool at_end) {
  for (std::string_view mark : marks) {
    if (text.size() < mark.size()) continue;
    if (text.substr(at_end ? text.size() - mark.size() : 0, mark.size()) == mark) {
      return mark.size();
    }
  }
  return 0;
}

/// `span` (over `target`) without the punctuation at its ends that `source_span` does not have
/// (at its end only, for a span over whole sentences: Spanish opens a question with "¿").
void trim_punctuation(data::InlineSpan& span, std::string_view source_span, std::string_view target,
                      bool whole_sentences) {
  if (mark_at(source_span, kTrailing, true) == 0) {
    while (size_t n = mark_at(target.substr(span.begin, span.end - span.begin), kTrailing, true)) {
      if (span.end - span.begin <= n) break;
      span.end -= n;
    }
  }
  if (!whole_sentences && mark_at(source_span, kLeading, false) == 0) {
    while (size_t n = mark_at(target.substr(span.begin, span.end - span.begin), kLeading, false)) {
      if (span.end - span.begin <= n) break;
      span.begin += n;
    }
  }
}

bool is_space_at(std::string_view text, size_t at) {
  return at < text.size() && data::is_ascii_white_space(text[at]);
}

/// `point` (markup at one place: an image, a <code>) put at byte `at` of `target` with the white
/// space it had around it at byte `source_at` of `source` ("Run <code>ls</code> now." →
/// "Ejecuta <code>ls</code> ahora.", not "Ejecuta<code>ls</code> ahora."): after the target's
/// space when it had one before it, with a space added where the target has none.
void space_point(data::InlineSpan& point, size_t at, size_t source_at, std::string_view source,
                 std::string_view target) {
  // Before the punctuation that ends the word before it, when punctuation followed it in the
  // source ("at <code>555</code>, please." → "<code>555</code>, por favor", not "…,<code>").
  auto is_mark = [](char c) { return c != '\0' && std::strchr(".,;:!?", c) != nullptr; };
  if (source_at < source.size() && is_mark(source[source_at])) {
    while (at > 1 && is_mark(target[at - 1]) && !is_space_at(target, at - 2)) --at;
  }
  const bool before = source_at > 0 && is_space_at(source, source_at - 1);
  const bool after = is_space_at(source, source_at);
  if (before && is_space_at(target, at)) {
    ++at;
  } else if (before && at > 0 && !is_space_at(target, at - 1)) {
    point.open.insert(0, " ");
  }
  // An empty element's space goes after its end tag, not inside it.
  if (after && at < target.size() && !is_space_at(target, at)) {
    (point.close.empty() ? point.open : point.close) += ' ';
  }
  point.begin = point.end = at;
}

}  // namespace

std::vector<data::InlineSpan> place_spans(const std::vector<data::InlineSpan>& spans,
                                          const WordAlignment& alignment, std::string_view source,
                                          std::string_view target) {
  const size_t target_size = target.size();
  const auto targets = targets_of_sources(alignment);
  const auto& words = alignment.target_words;
  for (const auto& word : words) {
    if (word.begin > word.end || word.end > target_size) {
      throw std::invalid_argument("place_spans: a target word lies outside the translation");
    }
  }
  std::vector<WordRange> ranges;
  for (const auto& span : spans) ranges.push_back(wanted_range(span, alignment, targets));
  nest(spans, ranges, words.size());
  std::vector<data::InlineSpan> placed = spans;
  for (size_t i = 0; i < spans.size(); ++i) {
    const WordRange& range = ranges[i];
    data::InlineSpan& span = placed[i];
    if (range.lo < range.hi) {
      span.begin = words[range.lo].begin;
      span.end = words[range.hi - 1].end;
      if (spans[i].end <= source.size() && spans[i].begin < spans[i].end) {
        trim_punctuation(span, source.substr(spans[i].begin, spans[i].end - spans[i].begin), target,
                         range.whole);
      }
    } else {
      // A point: after the word before it (before the first word: where it stood, when that
      // was before the source's first word too), within the parent's bytes.
      const size_t source_first =
          alignment.source_words.empty() ? source.size() : alignment.source_words[0].begin;
      size_t at = range.lo > 0                     ? words[range.lo - 1].end
                  : words.empty()                  ? 0
                  : spans[i].begin <= source_first ? std::min(spans[i].begin, words[0].begin)
                                                   : words[0].begin;
      if (span.parent >= 0) {
        const auto& parent = placed[static_cast<size_t>(span.parent)];
        at = std::min(std::max(at, parent.begin), parent.end);
      }
      space_point(span, at, spans[i].begin, source, target);
    }
  }
  // Points after the previous sibling's end and before the next's start: enforce byte order
  // among siblings (a point placed by its word can fall inside a sibling that took that word).
  std::vector<size_t> floor(spans.size() + 1, 0);
  for (size_t i = 0; i < placed.size(); ++i) {
    data::InlineSpan& span = placed[i];
    const size_t parent = span.parent < 0 ? spans.size() : static_cast<size_t>(span.parent);
    const size_t low =
        span.parent < 0 ? floor[parent] : std::max(floor[parent], placed[parent].begin);
    const size_t high = span.parent < 0 ? target_size : placed[parent].end;
    span.begin = std::min(std::max(span.begin, low), high);
    span.end = std::min(std::max(span.end, span.begin), high);
    floor[parent] = span.end;
    floor[i] = span.begin;
  }
  return placed;
}

}  // namespace atento
