#pragma once
// A sentence typed without its final punctuation: a search box's query, a chat line, a heading,
// a menu item or a table cell ("About us", "I like dogs"). Every Tatoeba sentence ends with a
// mark, so a model fed one without it has never seen where such a sentence ends and runs on ("I
// like dogs" → "Me gustan los perros me gustan los perros me"). The model reads it with a full
// stop added (a question with a question mark: data/question_form.h), and the stop is taken off
// its translation again (app/translate/text_segments.h).

#include <string>
#include <string_view>

namespace atento::data {

/// True when `text` (UTF-8) holds a letter and ends without punctuation: its last code point,
/// white space and closing quotes and brackets after it aside, is a letter, digit or symbol
/// ("About us", 'He said "hi"', "It costs 5 €"; not "Hi.", "Why?", "Well,").
bool lacks_final_stop(std::string_view text);

/// `translation` of a text read with a stop added, without it: one final full stop (before the
/// white space and closing quotes after it) replaced by `ending` (the clause mark the text ended
/// with, data::clause_ending, or nothing); a question or exclamation mark, or an ellipsis, is
/// the model's own and stays, without `ending`.
std::string without_added_stop(std::string_view translation, std::string_view ending = "");

}  // namespace atento::data
