#pragma once
// A question typed without its question mark ("where is the station", "do you have time"), as
// search boxes and chat write them. English marks a question by its word order, Spanish only by
// its marks ("¿Tienes tiempo?" / "Tienes tiempo."), so the translation needs them; and a model
// fed the sentence with a full stop translates it as a statement ("Donde hay la estación."). Such
// a sentence is read with a question mark instead (app/translate/text_segments.h).

#include <string_view>

namespace atento::data {

/// True when `sentence` (English, UTF-8, without its final mark) opens as a question does: a
/// question word before an auxiliary ("Where is", "How much is", "What's"; "Who" before a verb),
/// or an auxiliary or modal before its subject ("Are you", "Can Tom", "Is the shop", "Don't
/// you"). Imperatives and exclamations do not ("Do it now", "Have a nice day", "What a day",
/// "How nice"), nor fragments ("Where I live", "When Tom was young", "Who to call").
bool reads_as_question(std::string_view sentence);

}  // namespace atento::data
