#pragma once
// Language identification for POST /detect and `source: "auto"`: Google's Compact Language
// Detector 2 (Debian libcld2), a naive-Bayes classifier over character n-grams (quadgrams for
// Latin scripts) of 83 languages. docs/serving.md gives its measured accuracy on the corpus.

#include <string>
#include <vector>

namespace atento {

/// One candidate language: an ISO 639-1 code (as LibreTranslate names languages) and the share
/// of the text's letters that scored for it, in percent.
struct LanguageGuess {
  std::string language;
  double confidence = 0;
};

/// What the identifier found in one text.
struct LanguageIdentification {
  /// Up to three languages, most likely first; empty when the text gave nothing to go on.
  std::vector<LanguageGuess> candidates;
  /// CLD2's own verdict: enough text, and the best language well ahead of the others. Short
  /// sentences ("I'm angry.") are often unreliable, or reliably wrong: see docs/serving.md.
  bool reliable = false;
};

/// Identifies the language of `text`, which must be valid UTF-8 (anything else is "nothing
/// found"). Thread-safe: CLD2 keeps no state between calls.
LanguageIdentification identify_language(const std::string& text);

}  // namespace atento
