#pragma once
// Typographic punctuation read as the plain ASCII that the corpus writes. Tatoeba's English
// has straight apostrophes and quotes (32,464 lines with ', 290 with "), almost never curly
// ones (33 lines with ’, none with “ or ”), while word processors and web pages write “It’s”:
// a model fed those sees characters it never learned. Every tokenizer reads text through this
// before it encodes or trains, as MT pipelines normalise punctuation before tokenising (Moses'
// normalize-punctuation.perl maps the same characters). Translations keep the model's own.

#include <string>
#include <string_view>

namespace atento::data {

/// ‘ ’ ‛ ´ ` → ' and “ ” „ ‟ → "; any other code point is returned as it is.
char32_t plain_punctuation(char32_t c);

/// `text` with every character above replaced; anything else, ill-formed bytes included, is
/// copied as it is.
std::string plain_punctuation(std::string_view text);

}  // namespace atento::data
