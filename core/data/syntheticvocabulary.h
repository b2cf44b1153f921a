#pragma once

#include <QLatin1StringView>
#include <QList>
#include <QString>

namespace sb {

class SeededRng;
class Tokenizer;

// The synthetic word list (SyntheticPromptBuilder) as the model's tokenizer sees it
// (docs/tokenizers.md, "Synthetic prompts"). Each word of the list is checked: after a space it
// must add exactly one token (`w w` counts one more than `w`). The words that pass are the
// vocabulary of this run's prompts. When all 256 pass — Qwen 3, Llama 2/3, Gemma 3 — the draws
// are those of SyntheticPromptBuilder, so the prompts are the same words as without a
// tokenizer; otherwise the words that pass are drawn from. Every prompt is then counted whole
// and fitted to its length (fitToTokens()): a first word that takes two tokens at the start of
// a text (Qwen 3 and Llama 3: "saw", "seem", "began") costs one trailing word.
class SyntheticVocabulary
{
public:
    // At least this many words must pass for synthetic prompts of exact length.
    static constexpr int kMinWords = 16;

    // Without a tokenizer: the whole list, one token per word by assumption (the approximate
    // counter's rule).
    SyntheticVocabulary();

    // Checks the list against the tokenizer; false with *error (naming the tokenizer's file)
    // when fewer than kMinWords words pass. The tokenizer must outlive this object.
    bool build(const Tokenizer *tokenizer, QString *error);

    const Tokenizer *tokenizer() const { return m_tokenizer; }
    // The special tokens the tokenizer adds to a whole prompt (its post-processor); 0 without
    // a tokenizer. A synthetic prompt of length N holds N minus these in its text.
    int specialTokens() const { return m_specialTokens; }
    int size() const { return int(m_words.size()); }
    bool complete() const;
    QLatin1StringView word(int index) const;

    // Appends `words` words drawn with rng; a separating space first when *out is not empty.
    void appendWords(QString *out, int words, SeededRng &rng) const;

    // Counts *prompt with the tokenizer (no special tokens) and, until it is exactly `tokens`,
    // appends words drawn with rng or removes trailing words. Returns the words added plus
    // removed (0: it was exact), or -1 when no length within reach is exact (the prompt is then
    // left as it was). Without a tokenizer returns 0 and changes nothing.
    int fitToTokens(QString *prompt, int tokens, SeededRng &rng) const;

private:
    const Tokenizer *m_tokenizer = nullptr;
    QList<int> m_words; // indexes into SyntheticPromptBuilder's list
    int m_specialTokens = 0;
};

} // namespace sb
