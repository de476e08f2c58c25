#include "app/eval/eval_subsets.h"

#include <algorithm>

#include "data/tokenizer.h"

namespace atento {

std::vector<std::string> profile_words(const std::string& text, bool spanish) {
  return data::book_standardize(text, spanish);
}

TrainingProfile profile_training(const std::vector<data::Pair>& train) {
  TrainingProfile profile;
  std::vector<int64_t> lengths;
  int64_t source_words = 0, target_words = 0;
  for (const auto& pair : train) {
    profile.sources.insert(pair.src);
    profile.targets.insert(pair.tgt);
    const auto words = profile_words(pair.src);
    for (const auto& word : words) ++profile.source_word_counts[word];
    lengths.push_back(static_cast<int64_t>(words.size()));
    source_words += static_cast<int64_t>(words.size());
    target_words += static_cast<int64_t>(profile_words(pair.tgt, true).size());
  }
  if (!lengths.empty()) {
    auto middle = lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2);
    std::nth_element(lengths.begin(), middle, lengths.end());
    profile.median_source_words = *middle;
  }
  if (source_words > 0 && target_words > 0) {
    profile.target_per_source_word =
        static_cast<double>(target_words) / static_cast<double>(source_words);
  }
  return profile;
}

const char* subset_name(Subset subset) {
  switch (subset) {
    case Subset::kUnseen:
      return "unseen";
    case Subset::kNewRare:
      return "new_rare";
    case Subset::kNewLong:
      return "new_long";
  }
  return "?";
}

namespace {

bool has_rare_word(const TrainingProfile& profile, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& word) {
    auto found = profile.source_word_counts.find(word);
    return found == profile.source_word_counts.end() || found->second <= kRareWordCount;
  });
}

}  // namespace

bool in_subset(const TrainingProfile& profile, const data::Pair& pair, Subset subset) {
  if (profile.sources.count(pair.src)) return false;
  if (subset == Subset::kUnseen) return true;
  if (profile.targets.count(pair.tgt) || profile.sources.count(pair.tgt) ||
      profile.targets.count(pair.src)) {
    return false;
  }
  const auto words = profile_words(pair.src);
  if (subset == Subset::kNewRare) return has_rare_word(profile, words);
  return static_cast<int64_t>(words.size()) > profile.median_source_words;
}

bool is_short(const TrainingProfile& profile, const std::string& source,
              const std::string& translation) {
  const double expected =
      static_cast<double>(profile_words(source).size()) * profile.target_per_source_word;
  return static_cast<double>(profile_words(translation, true).size()) < kShortShare * expected;
}

namespace {

/// A text as one column of a tab-separated line.
std::string column(std::string text) {
  std::replace(text.begin(), text.end(), '\t', ' ');
  return text;
}

}  // namespace

std::string short_output_lines(const TrainingProfile& profile,
                               const std::vector<std::string>& sources,
                               const std::vector<std::vector<std::string>>& references,
                               const std::vector<std::string>& translations) {
  std::string lines;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!is_short(profile, sources[i], translations[i])) continue;
    lines += column(sources[i]) + "\t" + column(translations[i]) + "\t" +
             (in_subset(profile, {sources[i], ""}, Subset::kUnseen) ? "unseen" : "seen");
    for (const auto& reference : references[i]) lines += "\t" + column(reference);
    lines += "\n";
  }
  return lines;
}

}  // namespace atento
