#pragma once
// The marks that open the items of lists, quoted e-mail and headings in plain text: bullets
// ("- ", "* ", "•"), numbers and letters ("1. ", "2) ", "(a) ", "iv. "), task boxes ("- [ ] "),
// e-mail quoting ("> ") and heading marks ("## "). The corpus has none of them, and a model fed
// "* Buy some milk" or "2) Wash the dishes" invents words for the mark that derail the sentence
// ("Arrojaja una leche de leche", "Laválta los platos"). A sentence is translated without its
// marker and the marker is put back at the start of its translation, as addresses and emoji are
// (data/verbatim_spans.h).

#include <string_view>

#include "data/text_span.h"

namespace atento::data {

/// The list marker that opens `text` (valid UTF-8) after its white space: one or more of
/// e-mail quoting (">", ">>"), a heading mark ("#" to "######"), a bullet ("-", "--", "*", "+",
/// or a bullet or dash character: • ◦ ‣ ▪ ● ○ ■ □ ► ▸ · – —), a task box ("[ ]", "[x]") and
/// an enumerator (1. 1.2. 1) (1) a. a) (a) A) iv. II. (iv)), each but a bullet character
/// followed by white space (an enumerator also by the end of `text`: sentence segmentation
/// cuts "iv." from its item). A single capital with a full stop is an initial, not a marker ("J.
/// Smith"), and a number that its sentence goes on with is no marker ("3.5 km", "42 is").
/// The marker's bytes without the white space after it; an empty span where there is none.
TextSpan list_marker(std::string_view text);

}  // namespace atento::data
