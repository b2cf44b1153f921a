#include "syntheticvocabulary.h"

#include "seededrng.h"
#include "syntheticprompt.h"

#include "tokenizer/tokenizer.h"

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Attempts at fitting one prompt. With checked words the first count is already exact; a
// vocabulary that merges across words may need a few rounds.
constexpr int kMaxFitRounds = 16;
} // namespace

SyntheticVocabulary::SyntheticVocabulary()
{
    m_words.reserve(SyntheticPromptBuilder::kWordCount);
    for (int i = 0; i < SyntheticPromptBuilder::kWordCount; ++i)
        m_words.append(i);
}

bool SyntheticVocabulary::build(const Tokenizer *tokenizer, QString *error)
{
    m_tokenizer = tokenizer;
    if (!tokenizer) {
        *this = SyntheticVocabulary();
        return true;
    }
    QList<int> usable;
    for (int i = 0; i < SyntheticPromptBuilder::kWordCount; ++i) {
        const QString w = QString(SyntheticPromptBuilder::word(i));
        // One more token after a space: what every word of a prompt but the first adds. The
        // first word may take two tokens at the start of a text ("began" in Llama 3 and
        // Gemma 3): fitToTokens() then drops a trailing word.
        if (tokenizer->count(w + u' ' + w) - tokenizer->count(w) == 1)
            usable.append(i);
    }
    if (usable.size() < kMinWords) {
        *error = u"%1: only %2 of the %3 synthetic words are one token each under this tokenizer; "
                 "synthetic prompts of exact length need at least %4"_s.arg(tokenizer->path())
                     .arg(usable.size())
                     .arg(SyntheticPromptBuilder::kWordCount)
                     .arg(kMinWords);
        return false;
    }
    m_words = usable;
    // What the tokenizer's post-processor puts around a prompt (Llama 3's <|begin_of_text|>,
    // Gemma 3's <bos>): the prompt text is made that much shorter, as vLLM's random dataset
    // does (num_special_tokens_to_add), so the count with them is the drawn length.
    m_specialTokens =
        int(std::max<qsizetype>(0, tokenizer->count(u"x", true) - tokenizer->count(u"x", false)));
    return true;
}

bool SyntheticVocabulary::complete() const
{
    return m_words.size() == SyntheticPromptBuilder::kWordCount;
}

QLatin1StringView SyntheticVocabulary::word(int index) const
{
    return SyntheticPromptBuilder::word(m_words.at(index));
}

void SyntheticVocabulary::appendWords(QString *out, int words, SeededRng &rng) const
{
    if (complete()) {
        // The very draws of SyntheticPromptBuilder: where the list holds, nothing changes.
        SyntheticPromptBuilder::appendWords(out, words, rng);
        return;
    }
    if (words <= 0)
        return;
    out->reserve(out->size() + words * 5);
    for (int i = 0; i < words; ++i) {
        if (!out->isEmpty())
            out->append(u' ');
        out->append(word(int(rng.below(quint64(m_words.size())))));
    }
}

int SyntheticVocabulary::fitToTokens(QString *prompt, int tokens, SeededRng &rng) const
{
    if (!m_tokenizer)
        return 0;
    const QString original = *prompt;
    int changed = 0;
    for (int round = 0; round < kMaxFitRounds; ++round) {
        const qsizetype n = m_tokenizer->count(*prompt);
        if (n == tokens)
            return changed;
        if (n < tokens) {
            const int add = int(tokens - n);
            appendWords(prompt, add, rng);
            changed += add;
            continue;
        }
        // Too long: drop trailing words, one per token too many (never the whole prompt).
        for (qsizetype drop = n - tokens; drop > 0; --drop) {
            const qsizetype space = prompt->lastIndexOf(u' ');
            if (space <= 0)
                break;
            prompt->truncate(space);
            ++changed;
        }
    }
    *prompt = original;
    return -1;
}

} // namespace sb
