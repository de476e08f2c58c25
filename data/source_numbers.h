#pragma once
// Numbers are copied, not translated: a translation should hold the numbers of its source. The
// corpus has few of them (Tatoeba's sentences are short and everyday), and a model reading "41",
// "$500" or "1927" builds them from subword pieces it has seen with other digits: "La cámara
// costará al menos 20 dólares." for "$500", "en 1922" for "in 1927", "a las 181 o 21" for "at
// 18 or 21". A number changed is worse than a word garbled: it reads as right. Where the numbers
// that a translation holds and its source does not are as many as the source's that the
// translation lacks, each is taken to be the other's (in order) and the source's is written in
// its place, in Spanish notation ("34,000" → "34.000", "3.5" → "3,5"). A number written in words
// ("20 years" → "veinte años") or as the time of day ("2:30" → "las dos y media") leaves the
// translation with fewer numbers than its source, and it is left as it is.

#include <string>
#include <string_view>

namespace atento::data {

/// `translation` with its numbers that `source` lacks replaced by those of `source` that it
/// lacks, where both are as many and at least one (as above). A number is a run of ASCII digits
/// with single "," or "." between them, not touching a letter ("4x4" and "cuatro1" are none);
/// two are the same when their digits and the places of their separators are ("1,000" and
/// "1.000"). Anything else is returned as it is.
std::string with_source_numbers(std::string_view source, std::string_view translation);

}  // namespace atento::data
