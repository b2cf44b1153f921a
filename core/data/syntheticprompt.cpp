#include "syntheticprompt.h"

#include "seededrng.h"

#include <cmath>

namespace sb {

namespace {

// Common words, none longer than six letters, all distinct.
constexpr const char *kWords[SyntheticPromptBuilder::kWordCount] = {
    "the",    "of",     "and",    "to",     "in",     "is",     "you",    "that",   "it",
    "he",     "was",    "for",    "on",     "are",    "as",     "with",   "his",    "they",
    "at",     "be",     "this",   "have",   "from",   "or",     "one",    "had",    "by",
    "word",   "but",    "not",    "what",   "all",    "were",   "we",     "when",   "your",
    "can",    "said",   "there",  "use",    "an",     "each",   "which",  "she",    "do",
    "how",    "their",  "if",     "will",   "up",     "other",  "about",  "out",    "many",
    "then",   "them",   "these",  "so",     "some",   "her",    "would",  "make",   "like",
    "him",    "into",   "time",   "has",    "look",   "two",    "more",   "write",  "go",
    "see",    "number", "no",     "way",    "could",  "people", "my",     "than",   "first",
    "water",  "been",   "call",   "who",    "oil",    "its",    "now",    "find",   "long",
    "down",   "day",    "did",    "get",    "come",   "made",   "may",    "part",   "over",
    "new",    "sound",  "take",   "only",   "little", "work",   "know",   "place",  "year",
    "live",   "me",     "back",   "give",   "most",   "very",   "after",  "thing",  "our",
    "just",   "name",   "good",   "man",    "think",  "say",    "great",  "where",  "help",
    "much",   "before", "line",   "right",  "too",    "mean",   "old",    "any",    "same",
    "tell",   "boy",    "follow", "came",   "want",   "show",   "also",   "around", "form",
    "three",  "small",  "set",    "put",    "end",    "does",   "well",   "large",  "must",
    "big",    "even",   "such",   "turn",   "here",   "why",    "ask",    "went",   "men",
    "read",   "need",   "land",   "home",   "us",     "move",   "try",    "kind",   "hand",
    "again",  "change", "off",    "play",   "spell",  "air",    "away",   "animal", "house",
    "point",  "page",   "letter", "mother", "answer", "found",  "study",  "still",  "learn",
    "should", "world",  "high",   "every",  "near",   "add",    "food",   "own",    "below",
    "plant",  "last",   "school", "father", "keep",   "tree",   "never",  "start",  "city",
    "earth",  "eye",    "light",  "though", "head",   "under",  "story",  "saw",    "left",
    "few",    "while",  "along",  "might",  "close",  "seem",   "next",   "hard",   "open",
    "begin",  "life",   "always", "those",  "both",   "paper",  "often",  "run",    "being",
    "group",  "until",  "feel",   "river",  "car",    "care",   "second", "book",   "carry",
    "took",   "rain",   "eat",    "room",   "friend", "began",  "idea",   "fish",   "north",
    "once",   "base",   "hear",   "horse",
};

} // namespace

QLatin1StringView SyntheticPromptBuilder::word(int index)
{
    return QLatin1StringView(kWords[index & (kWordCount - 1)]);
}

void SyntheticPromptBuilder::appendWords(QString *out, int words, SeededRng &rng)
{
    if (words <= 0)
        return;
    out->reserve(out->size() + words * 5);
    for (int i = 0; i < words; ++i) {
        if (!out->isEmpty())
            out->append(u' ');
        out->append(word(int(rng.below(kWordCount))));
    }
}

QString SyntheticPromptBuilder::build(int words, SeededRng &rng)
{
    QString s;
    appendWords(&s, words, rng);
    return s;
}

int wordsForTokens(int tokens, double tokensPerWord)
{
    if (tokens <= 0)
        return 0;
    if (!(tokensPerWord > 0) || !std::isfinite(tokensPerWord))
        return tokens;
    const double words = std::round(double(tokens) / tokensPerWord);
    return int(qBound(1.0, words, 1e9));
}

QString syntheticPrompt(int tokens, quint64 seed, double tokensPerWord)
{
    SeededRng rng(seed);
    return SyntheticPromptBuilder::build(wordsForTokens(tokens, tokensPerWord), rng);
}

} // namespace sb
