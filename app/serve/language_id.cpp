#include "app/serve/language_id.h"

#include <cstdio>  // compact_lang_det.h uses FILE without including it
#include <cld2/public/compact_lang_det.h>

#include <climits>
#include <map>

namespace atento {

namespace {

/// CLD2 keeps a few codes that ISO 639-1 has since replaced; LibreTranslate uses the new ones
/// (and "zt" for Traditional Chinese).
std::string iso_code(CLD2::Language language) {
  static const std::map<std::string, std::string> renamed = {
      {"iw", "he"}, {"jw", "jv"}, {"zh-Hant", "zt"}};
  std::string code = CLD2::LanguageCode(language);
  auto found = renamed.find(code);
  return found == renamed.end() ? code : found->second;
}

}  // namespace

LanguageIdentification identify_language(const std::string& text) {
  LanguageIdentification result;
  if (text.size() > static_cast<size_t>(INT_MAX)) return result;
  CLD2::Language languages[3];
  int percents[3];
  double scores[3];
  int text_bytes = 0, valid_prefix = 0;
  bool reliable = false;
  CLD2::CLDHints hints{nullptr, nullptr, 0, CLD2::UNKNOWN_LANGUAGE};
  CLD2::ExtDetectLanguageSummaryCheckUTF8(text.data(), static_cast<int>(text.size()),
                                          /*is_plain_text=*/true, &hints, /*flags=*/0, languages,
                                          percents, scores, nullptr, &text_bytes, &reliable,
                                          &valid_prefix);
  if (valid_prefix < static_cast<int>(text.size())) return result;
  for (int i = 0; i < 3; ++i) {
    if (languages[i] == CLD2::UNKNOWN_LANGUAGE || percents[i] <= 0) continue;
    result.candidates.push_back({iso_code(languages[i]), static_cast<double>(percents[i])});
  }
  result.reliable = reliable && !result.candidates.empty();
  return result;
}

}  // namespace atento
