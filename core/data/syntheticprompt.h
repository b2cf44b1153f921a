#pragma once

#include <QLatin1StringView>
#include <QString>

namespace sb {

class SeededRng;

// Synthetic prompts are words drawn from a fixed list of 256 common lowercase English words of at
// most six letters, joined by single spaces. Each word counts exactly one token under
// approxTokenCount(), and is one token (with its leading space) in the common BPE vocabularies,
// so a prompt of N words is about N tokens without the model's tokenizer. Changing the list
// changes every synthetic prompt: bump kSyntheticWordListVersion (it is part of the dataset hash).
class SyntheticPromptBuilder
{
public:
    static constexpr int kWordCount = 256;
    static constexpr char kWordListVersion[] = "sb-words-v1";

    static QLatin1StringView word(int index);
    // Appends `words` random words; a separating space goes first when *out is not empty.
    static void appendWords(QString *out, int words, SeededRng &rng);
    static QString build(int words, SeededRng &rng);
};

// The calibration hook: given a measured tokens-per-word ratio for the target model (e.g. from
// the server's POST /tokenize on a synthetic prompt), the number of words that makes `tokens`
// tokens. A ratio <= 0 or not finite means uncalibrated (1 token per word).
int wordsForTokens(int tokens, double tokensPerWord);

// A prompt of about `tokens` tokens, deterministic in (tokens, seed, tokensPerWord).
QString syntheticPrompt(int tokens, quint64 seed, double tokensPerWord = 1.0);

} // namespace sb
