#pragma once
// Asides in brackets: "Tom (my brother) is a doctor.", "I bought apples (and pears)." The
// corpus has none (no English sentence of spa-eng holds a "("), and a model fed one garbles the
// whole sentence ("Tom hace un hermano que está desordenado es médico."). A sentence is
// translated in pieces around its asides, each aside on its own without its brackets, which are
// put back around its translation (data/segmentation.h, app/translate/text_segments.h).

#include <string_view>
#include <vector>

#include "data/text_span.h"

namespace atento::data {

/// The asides of `span` of `text` (valid UTF-8), outermost, in order: a "(" at the span's start
/// or after white space or a quote, and the ")" that closes it, followed by the span's end, white
/// space or punctuation; a word of two letters or more inside. A list item's enumerator opening
/// the span ("(a) Feed the dog", "(iv) …"), a bracket inside a word ("friend(s)", "f(x)") and
/// brackets that do not pair are none.
std::vector<TextSpan> parentheticals(std::string_view text, TextSpan span);

}  // namespace atento::data
