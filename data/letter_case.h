#pragma once
// Text written in capitals ("WHERE IS THE STATION?", headings, warnings) read as the sentence
// case that the model was trained on, and its translation written in capitals again. The corpus
// has almost no such sentences, and a model fed one translates its unfamiliar subwords into
// nonsense. Letters, cases and sentence-ending marks are Unicode's, through ICU.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace atento::data {

/// True when `text` (UTF-8) is written in capitals: at least two upper-case letters and no
/// lower-case one ("I.", "Tom met NASA." and "3 km" are not).
bool is_in_capitals(std::string_view text);

/// `text` (UTF-8) in sentence case, as the corpus writes its sentences: lower case but for the
/// first letter of the text and of each sentence (after ., !, ? or another sentence-ending mark
/// and a space) and the English pronoun "I" ("I'm").
std::string sentence_case(std::string_view text);

/// How many pieces a tokenizer splits a word into: the fewer, the better it knows that form.
using WordPieces = std::function<std::size_t(const std::string& word)>;

/// `text` in sentence case as above, then each word (letters, with apostrophes between them)
/// written in whichever of three forms `pieces` splits least: as sentence case left it, in
/// title case, or in capitals; a tie keeps the earlier form. This is truecasing by the
/// tokenizer's vocabulary: names and acronyms that the training text writes capitalised are
/// whole pieces there, their lower-case forms are not ("TOM MET THE UN." → "Tom met the UN.").
std::string sentence_case(std::string_view text, const WordPieces& pieces);

/// `text` (UTF-8) in upper case (Unicode's full mappings: "ß" → "SS").
std::string upper_case(std::string_view text);

/// `text` with every word of two or more letters written in capitals in title case ("SALT." →
/// "Salt."), byte for byte as long as `text` (a letter whose lower case is longer in UTF-8 is
/// kept). ICU's sentence rules take such a word before a period for an abbreviation and find no
/// sentence end after it; segmentation reads this copy instead.
std::string title_case_words_in_capitals(std::string_view text);

}  // namespace atento::data
