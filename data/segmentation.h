#pragma once
// Segmentation of real text into what a model trained on single sentences can translate: a
// paragraph on one line becomes its sentences, and a sentence longer than the model's source
// length, or longer than the sentences it learned from, becomes clauses. Sentences come from ICU's
// sentence BreakIterator (Unicode UAX #29) with the locale's sentence-break suppressions ("Mr.
// Smith", "e.g.", "U.S."): a maintained segmenter with data for many languages, where a regular
// expression of our own would get numbers ("3.5 km"), ellipses, quotes and "?!" wrong in ways
// nobody keeps up to date.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/text_span.h"

namespace atento::data {

/// Splits text into sentences for one language. Not thread-safe: one per thread.
class SentenceSplitter {
 public:
  /// `language`: an ICU locale name ("en", "es"); throws std::runtime_error when ICU has no
  /// sentence rules for it.
  explicit SentenceSplitter(const std::string& language);
  ~SentenceSplitter();
  SentenceSplitter(SentenceSplitter&&) noexcept;
  SentenceSplitter& operator=(SentenceSplitter&&) noexcept;

  /// The sentences of the UTF-8 `text`, in order, each without the white space around it: the
  /// bytes between two spans are the original spacing between the sentences. A text of white
  /// space only has none; a text without final punctuation ends with its last words. Invalid
  /// UTF-8 is not split (one span over the text). No sentence ends inside a web or e-mail
  /// address (data/verbatim_spans.h: ICU ends one at the "?" of "x.org/a?b=1").
  std::vector<TextSpan> split(std::string_view text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A piece of a text to translate on its own.
struct Segment {
  TextSpan span;
  /// A single run of text (no clause boundary, no space) that does not fit: the caller cuts it.
  bool too_long = false;
};

/// How long a piece of text is for the model that will translate it.
enum class PieceLength {
  kShort,    ///< translated whole
  kLong,     ///< fits the source length but is longer than the sentences the model learned
             ///< from: split at its clause boundaries where it has any, else whole
  kTooLong,  ///< longer than the source length: split at clause boundaries, else between
             ///< words; a single run of text is cut
};
using PieceMeasure = std::function<PieceLength(std::string_view piece)>;

/// `span` of `text` in pieces by `measure`: whole when it is short; else split at the clause
/// boundary (after ';', ':', ',', or around a dash between spaces) nearest its middle, else (when
/// too long) at the space nearest its middle, and each half split again by the same rule. A run
/// with no such boundary that is too long is one piece marked too_long. The pieces cover the
/// span in order, without the spaces between them: no text is lost.
std::vector<Segment> split_to_fit(std::string_view text, TextSpan span,
                                  const PieceMeasure& measure);

/// Every sentence of `text` (splitter.split), its asides in brackets and the parts of it around
/// them (data/parenthetical.h) each split_to_fit: the pieces of the whole text.
std::vector<Segment> segment_text(SentenceSplitter& splitter, std::string_view text,
                                  const PieceMeasure& measure);

/// Where `piece` ends with the mark of a clause boundary that split_to_fit cuts after (',',
/// ';', ':', or a dash after a space: the space included): the byte where that ending starts;
/// npos for a piece that does not end so.
size_t clause_ending(std::string_view piece);

/// True when the piece that starts at byte `begin` of `text` opens a sentence: nothing but
/// white space before it, or a sentence-ending mark (., !, ?), a closing quote or a closing
/// bracket; false after a clause boundary or a word (a piece split_to_fit cut from a sentence).
bool opens_sentence(std::string_view text, size_t begin);

}  // namespace atento::data
