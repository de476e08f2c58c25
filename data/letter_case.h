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

/// True when `text` (UTF-8) holds a letter (a code point of Unicode's general category L).
bool has_letters(std::string_view text);

/// True when `text` (UTF-8) is written in capitals: at least two upper-case letters and no
/// lower-case one ("I.", "Tom met NASA." and "3 km" are not).
bool is_in_capitals(std::string_view text);

/// True when `text` is written in lower case (chat, search boxes, speech recognisers): a
/// lower-case letter first and no upper-case one but the pronoun "I" ("where is tom? i don't
/// know.", "where am I?"; not "I like it.", as the corpus writes it).
bool is_in_lower_case(std::string_view text);

/// True when `text` is written in title case, as headings are ("Where Is the Station?", "How to
/// Train Your Dragon"): two or more words after the first capitalised (the pronoun "I" aside),
/// the others English words that title case leaves in lower case (articles, conjunctions, short
/// prepositions); not in capitals. "I'm in Perth." and "Terms of Service" are not.
bool is_in_title_case(std::string_view text);

/// `text` (UTF-8) in sentence case, as the corpus writes its sentences: lower case but for the
/// first letter of the text (when `opens_sentence`: a piece of a sentence cut at a comma does
/// not) and of each sentence (after ., !, ? or another sentence-ending mark and a space) and the
/// English pronoun "I" ("I'm").
std::string sentence_case(std::string_view text, bool opens_sentence = true);

/// `text` with the first letter of each sentence (as sentence_case finds them) capitalised,
/// byte for byte as long (a letter whose title case is longer in UTF-8 is kept). ICU's sentence
/// rules find no sentence end before a lower-case letter ("ok. where is it?"); segmentation
/// reads this copy of a text in lower case.
std::string capitalise_sentence_starts(std::string_view text);

/// How many pieces a tokenizer splits a word into: the fewer, the better it knows that form.
using WordPieces = std::function<std::size_t(const std::string& word)>;

/// `text` in sentence case as above, then each word (letters, with apostrophes between them)
/// written in title case or in capitals where that form of it (of its letters before an
/// apostrophe) is one piece for `pieces` and its sentence case is more: truecasing by the
/// tokenizer's vocabulary. Names and acronyms that the training text writes capitalised are
/// whole pieces there, their lower-case forms are not ("TOM'S TV MET THE UN." → "Tom's TV met
/// the UN."); a word the vocabulary does not hold whole is left in sentence case.
std::string sentence_case(std::string_view text, const WordPieces& pieces,
                          bool opens_sentence = true);

/// `text` with its first letter in title case when it opens with a lower-case one: a clause
/// cut from its sentence ("and I left.") read as the sentence openings the model learned from.
std::string capitalise_first_letter(std::string_view text);

/// `text` (a translation) with its first letter in lower case: the first after any opening
/// "¿", "¡" and white space, unless the word it opens is in capitals ("ONU"). The translation of
/// a clause that continues a sentence ("…, y me fui.").
std::string lower_case_first_letter(std::string_view text);

/// `text` (UTF-8) in upper case (Unicode's full mappings: "ß" → "SS").
std::string upper_case(std::string_view text);

/// `text` with every word of two or more letters written in capitals in title case ("SALT." →
/// "Salt."), byte for byte as long as `text` (a letter whose lower case is longer in UTF-8 is
/// kept). ICU's sentence rules take such a word before a period for an abbreviation and find no
/// sentence end after it; segmentation reads this copy instead.
std::string title_case_words_in_capitals(std::string_view text);

}  // namespace atento::data
