#pragma once
// Inline markup of a source text put back into its translation: each span (<b>…</b>, <a
// href>…</a>) goes around the target words aligned to the source words it covered, made
// contiguous and properly nested (a child within its parent, siblings in their source order
// and apart); markup at one place (an image, a comment, <code> kept whole) goes after the
// target word aligned to the source word before it. Works on words and a given alignment (no
// model here: app/translate/html_translation.cpp derives the alignment from the model's cross
// attention), so it is tested with hand-made ones.

#include <cstddef>
#include <string_view>
#include <vector>

#include "data/html_document.h"
#include "data/segmentation.h"

namespace atento {

/// The words of a text and of its translation, and which source words each target word was
/// translated from.
struct WordAlignment {
  std::vector<data::TextSpan> source_words;  ///< bytes of each word of the source text
  std::vector<data::TextSpan> target_words;  ///< bytes of each word of the translation
  /// Per target word: the source words aligned to it (indices into source_words; may be none).
  std::vector<std::vector<size_t>> links;
  /// The sentences translated on their own, in order, as [begin, end) ranges of word indices:
  /// an element over the whole of one or more of them covers the whole of their translations.
  /// None: the text is one.
  struct Piece {
    size_t source_begin, source_end, target_begin, target_end;
  };
  std::vector<Piece> pieces;
};

/// `spans` (over `source`, as data::TextBlock holds them) placed over its translation `target`
/// by `alignment`: the same markup, parents and order, each span over whole target words (or
/// at a point between them), less the punctuation at either end that the source span left
/// out ("<b>rojo</b>." for "<b>red</b>."). The result is always properly nested
/// (data::block_markup accepts it). Throws std::invalid_argument when `alignment` names a word
/// that does not exist.
std::vector<data::InlineSpan> place_spans(const std::vector<data::InlineSpan>& spans,
                                          const WordAlignment& alignment, std::string_view source,
                                          std::string_view target);

}  // namespace atento
