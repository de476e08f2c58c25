#pragma once
// Quotation marks around a piece of text: a quotation of several sentences is segmented into
// pieces that each hold one of its marks ('"Where are you? I miss you," she wrote.' → '"Where
// are you?' and 'I miss you," she wrote.'), and a piece may be a quoted sentence whole
// ('"I'm tired."'). The corpus has almost no quotations (0.2% of its sentences), and a model fed
// a piece that opens with a mark and never closes it drops it or runs off ('He said, "I am
// tired. Let us go home."' → '…Deja que nos vayamos a casa.', the closing mark lost). Such marks
// are left out of what the model reads and put back into the translation where they stood, as
// addresses and emoji are (data/verbatim_spans.h).

#include <cstddef>
#include <string_view>
#include <vector>

#include "data/text_span.h"

namespace atento::data {

/// The quotation marks of a text (valid UTF-8), found once: '"' (opening where an even number
/// of them stands before it), “ „ « (opening) and ” » (closing). Single quotes are left alone:
/// they are apostrophes as often.
class QuoteMarks {
 public:
  explicit QuoteMarks(std::string_view text);

  /// The marks at the edges of `piece` (bytes of the text) that the model does not read: a mark
  /// opening the piece whose partner is outside it (or closes the piece), and a mark closing
  /// the piece whose partner is outside it (or opens the piece). White space at the piece's
  /// edges aside. In order, as spans of the text.
  std::vector<TextSpan> at_edges(TextSpan piece) const;

 private:
  struct Mark {
    TextSpan span;
    bool opens = false;
  };
  std::string_view text_;
  std::vector<Mark> marks_;  ///< in order
};

}  // namespace atento::data
