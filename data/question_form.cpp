#include "data/question_form.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "data/text_span.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

/// A word of the sentence: its letters and apostrophes ("don't"), in lower case with a straight
/// apostrophe, and whether it was written with a capital (a name, past the sentence's first word).
struct Word {
  std::string lower;
  bool capital = false;
  bool comma_after = false;  ///< "Tom, are you…": a vocative or an interjection before the rest
  bool stop_after = false;   ///< a sentence's mark after it ("Tom.", "here?\"", "…")
};

bool is_word_letter(char32_t c) {
  return u_isalpha(static_cast<UChar32>(c)) || c == U'\'' || c == U'\u2019';
}

/// `token` (a run between white space) without the punctuation around it.
Word word_of(std::string_view token) {
  Word word;
  size_t begin = 0, end = token.size();
  while (end > 0 && !is_word_letter(decode_utf8_before(token, end).value)) {
    const CodePoint cp = decode_utf8_before(token, end);
    word.comma_after = word.comma_after || cp.value == U',';
    word.stop_after = word.stop_after || cp.value == U'.' || cp.value == U'?' || cp.value == U'!' ||
                      cp.value == U'\u2026';
    end -= std::max<size_t>(1, cp.length);
  }
  while (begin < end && !is_word_letter(decode_utf8(token, begin).value)) {
    begin += std::max<size_t>(1, decode_utf8(token, begin).length);
  }
  for (size_t i = begin; i < end;) {
    const CodePoint cp = decode_utf8(token, i);
    const char32_t c = cp.value == U'\u2019' ? U'\'' : cp.value;
    if (i == begin) word.capital = u_isupper(static_cast<UChar32>(c));
    append_utf8(word.lower, static_cast<char32_t>(u_tolower(static_cast<UChar32>(c))));
    i += std::max<size_t>(1, cp.length);
  }
  return word;
}

bool is_one_of(const std::string& word, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

bool is_question_word(const std::string& w) {
  return is_one_of(w, {"what", "where", "when", "why", "who", "whom", "whose", "which", "how"});
}

/// A question word contracted with "is", "are", "will", "would", "did", "have" ("what's").
bool is_contracted_question(const std::string& w) {
  const size_t apostrophe = w.find('\'');
  return apostrophe != std::string::npos && is_question_word(w.substr(0, apostrophe)) &&
         is_one_of(w.substr(apostrophe), {"'s", "'re", "'ll", "'d", "'ve"});
}

/// "Do", "don't", "have" and "may" open imperatives and wishes too ("Do it", "Don't go", "Have
/// a seat", "May the best win"): only a personal pronoun or a name after them is their subject.
bool takes_only_a_person(const std::string& w) {
  return is_one_of(w, {"do", "don't", "have", "may"});
}

bool is_auxiliary(const std::string& w) {
  return is_one_of(
      w, {"is",     "are",      "was",    "were",      "am",       "do",     "does",   "did",
          "have",   "has",      "had",    "can",       "could",    "will",   "would",  "shall",
          "should", "may",      "might",  "must",      "isn't",    "aren't", "wasn't", "weren't",
          "don't",  "doesn't",  "didn't", "haven't",   "hasn't",   "hadn't", "can't",  "couldn't",
          "won't",  "wouldn't", "shan't", "shouldn't", "mightn't", "mustn't"});
}

bool is_personal_pronoun(const std::string& w) {
  return is_one_of(w, {"i", "you", "he", "she", "we", "they"});
}

/// What may stand as the subject after an auxiliary: a pronoun, a determiner opening a noun
/// phrase, or a name.
bool is_subject(const Word& word) {
  return is_personal_pronoun(word.lower) || word.capital ||
         is_one_of(
             word.lower,
             {"it",         "there",    "this",    "that",     "these",     "those",    "anyone",
              "anybody",    "anything", "someone", "somebody", "something", "everyone", "everybody",
              "everything", "the",      "a",       "an",       "my",        "your",     "his",
              "her",        "its",      "our",     "their",    "any",       "some"});
}

/// A verb form that may follow "what" as its subject: "happened", "changed" (not a present one:
/// "What seems easy at first often turns out…" states).
bool is_finite_verb_form(const std::string& w) {
  return w.size() > 4 && w.compare(w.size() - 2, 2, "ed") == 0;
}

/// The words of a sentence from a position on; past its end, an empty word.
class Clause {
 public:
  Clause(const std::vector<Word>& words, size_t from) : words_(words), from_(from) {}
  const Word& operator[](size_t i) const {
    static const Word none;
    return from_ + i < words_.size() ? words_[from_ + i] : none;
  }
  const std::string& lower(size_t i) const { return (*this)[i].lower; }

 private:
  const std::vector<Word>& words_;
  size_t from_;
};

/// An auxiliary before its subject: "Are you", "Can Tom", "Is the shop", "Don't you".
bool inverted_question(const Clause& w) {
  if (!is_auxiliary(w.lower(0)) || w.lower(1).empty()) return false;
  if (takes_only_a_person(w.lower(0))) {  // "Do you", "May I"; not "Do it", "May the best win"
    return is_personal_pronoun(w.lower(1)) || w[1].capital;
  }
  return is_subject(w[1]);
}

/// A question word before an auxiliary ("Where is", "Why don't"), or before up to four words and
/// an auxiliary before its subject ("How many days will you", "What part of it didn't you"); as
/// a sentence opens also "What happened", "Who wants", "Why not", "How about". Not "What a day it
/// is", "How nice", "What I want is", "What happened was", "Who to call". After a comma
/// (`opens_sentence` false) the auxiliary needs its subject, and "which" and "who" open a relative
/// clause ("…, which is why").
bool wh_question(const Clause& w, bool opens_sentence) {
  if (is_contracted_question(w.lower(0))) return true;
  if (!is_question_word(w.lower(0))) return false;
  if (!opens_sentence && is_one_of(w.lower(0), {"which", "who", "whom", "whose"})) return false;
  if (is_auxiliary(w.lower(1))) return opens_sentence || is_subject(w[2]);
  if (w.lower(1).empty() || is_subject(w[1]) || w.lower(1) == "to") return false;
  // "Who wants", "Why wait", "Why not", "What about", "What if", "How about", "How come".
  if (opens_sentence && is_one_of(w.lower(0), {"who", "why"})) return true;
  if (opens_sentence && is_one_of(w.lower(0), {"what", "how"}) &&
      is_one_of(w.lower(1), {"about", "if", "come"})) {
    return true;
  }
  if (opens_sentence && w.lower(0) == "what" && is_finite_verb_form(w.lower(1)) &&
      !is_auxiliary(w.lower(2))) {
    return true;
  }
  if (!is_one_of(w.lower(0), {"what", "which", "whose", "how"})) return false;
  for (size_t i = 2; i <= 5; ++i) {
    if (is_auxiliary(w.lower(i))) return is_subject(w[i + 1]);
  }
  return false;
}

/// A tag after a comma at the sentence's end: "…, isn't he", "…, can you", "…, right".
bool tag_question(const std::vector<Word>& words) {
  const size_t n = words.size();
  if (n >= 2 && words[n - 1].lower == "right" && words[n - 2].comma_after) return true;
  return n >= 3 && words[n - 3].comma_after && is_auxiliary(words[n - 2].lower) &&
         (is_personal_pronoun(words[n - 1].lower) ||
          is_one_of(words[n - 1].lower, {"it", "there", "that"}));
}

/// Where the question of the clause at `from` would start: after "and", "but", "so", "or" and
/// "then" before a question word ("And what's your problem", "So what do you want"), and after
/// "but" before an auxiliary ("…, but is it true").
size_t after_conjunctions(const std::vector<Word>& words, size_t from) {
  size_t i = from;
  while (i + 1 < words.size() && i < from + 2 &&
         is_one_of(words[i].lower, {"and", "but", "so", "or", "then"})) {
    ++i;
  }
  const std::string& next = i < words.size() ? words[i].lower : std::string();
  if (is_question_word(next) || is_contracted_question(next)) return i;
  // "…, but is it true"; not "…, and so do I".
  const bool but_asks =
      words[from].lower == "but" && from + 1 < words.size() && is_auxiliary(words[from + 1].lower);
  return but_asks ? from + 1 : from;
}

}  // namespace

bool reads_as_question(std::string_view sentence) {
  // The words of its last sentence: a text read whole (--no-split) may hold several.
  std::vector<Word> words;
  bool sentence_ended = false;
  for (const TextSpan& span : text_words(sentence)) {
    if (sentence_ended) words.clear();
    Word word = word_of(sentence.substr(span.begin, span.size()));
    sentence_ended = word.stop_after;
    if (!word.lower.empty()) words.push_back(std::move(word));
  }
  if (words.empty()) return false;
  words[0].capital = false;  // the sentence's first word has a capital whatever it is
  // A vocative or an interjection before a comma opens the sentence as well ("Tom, are you
  // there", "Hey, what happened").
  const size_t first = words.size() > 1 && words[0].comma_after ? 1 : 0;
  const size_t start = after_conjunctions(words, first);
  // "Had I known, I would have…", "Were it not for you, …": a condition, not a question.
  const bool condition = is_one_of(words[start].lower, {"had", "were", "should"}) &&
                         std::any_of(words.begin() + static_cast<std::ptrdiff_t>(start),
                                     words.end(), [](const Word& w) { return w.comma_after; });
  if (wh_question(Clause(words, start), true) ||
      (!condition && inverted_question(Clause(words, start)))) {
    return true;
  }
  if (tag_question(words)) return true;
  // A question after a comma: "If you need help, why don't you call", "…, but is it true".
  for (size_t i = first + 1; i < words.size(); ++i) {
    if (!words[i - 1].comma_after) continue;
    const Clause clause(words, after_conjunctions(words, i));
    // Not an auxiliary before a noun: "The artist, whose paintings you liked, is a friend".
    const bool pronoun_after =
        is_personal_pronoun(clause.lower(1)) ||
        is_one_of(clause.lower(1), {"it", "there", "anyone", "anything", "everyone", "everything"});
    if ((pronoun_after && inverted_question(clause)) || wh_question(clause, false)) return true;
  }
  return false;
}

}  // namespace atento::data
