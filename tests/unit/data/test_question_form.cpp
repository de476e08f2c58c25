// A question typed without its mark is read with one: English asks by word order, Spanish by
// its marks.

#include <gtest/gtest.h>

#include "data/question_form.h"

namespace atento::data {
namespace {

TEST(QuestionForm, AQuestionWordBeforeAnAuxiliaryAsks) {
  for (const char* text : {"Where is the station",
                           "how are you",
                           "Why don't you come",
                           "What's your name",
                           "Who's there",
                           "Where'd he go",
                           "What time is it",
                           "How much does it cost",
                           "Which one do you want",
                           "Whose car is this",
                           "How long have you been here",
                           "Who wants ice cream",
                           "Which is better",
                           "Where\u2019d you go",
                           "How many days will you stay",
                           "What part of it didn't you understand",
                           "What happened",
                           "Why not",
                           "Why choose us",
                           "How about a beer",
                           "And what's your problem",
                           "Hey, what happened"}) {
    EXPECT_TRUE(reads_as_question(text)) << text;
  }
}

TEST(QuestionForm, AnAuxiliaryBeforeItsSubjectAsks) {
  for (const char* text :
       {"Do you have time", "Are you OK", "Can Tom come", "Is the shop open", "Don't you know",
        "Did it work", "Has anyone seen my keys", "May I come in", "Have you eaten",
        "Isn\u2019t it great", "Could you help me", "Will they win", "Does your dog bite",
        "Tom, are you there", "So, what do you think", "\"Are you sure",
        "I'm lost. Where is the station", "Wait! Is it you"}) {
    EXPECT_TRUE(reads_as_question(text)) << text;
  }
}

TEST(QuestionForm, ATagOrAQuestionAfterACommaAsks) {
  for (const char* text :
       {"Tom is tall, isn't he", "You can't swim, can you", "You're kidding, right",
        "If you need help, why don't you call", "I hate to ask, but is everything all right",
        "After lunch, could you call me"}) {
    EXPECT_TRUE(reads_as_question(text)) << text;
  }
}

TEST(QuestionForm, StatementsImperativesExclamationsAndFragmentsDoNot) {
  for (const char* text : {"About us",
                           "I like dogs",
                           "Do it now",
                           "Do your homework",
                           "Have a nice day",
                           "What a day",
                           "How nice",
                           "Where I live",
                           "When Tom was young",
                           "Who to call",
                           "Who we are",
                           "What I want",
                           "How it works",
                           "How to train your dragon",
                           "Could be worse",
                           "Will and I left",
                           "There is a cat",
                           "Tom is here",
                           "Well, I think so",
                           "May the best team win",
                           "Is",
                           "",
                           "  ",
                           "42",
                           "\xff\xfe"}) {
    EXPECT_FALSE(reads_as_question(text)) << text;
  }
}

}  // namespace
}  // namespace atento::data
