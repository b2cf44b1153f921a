#pragma once

#include <QString>
#include <QStringView>

namespace sb {

class Tokenizer;

// How a dataset counts tokens: with the model's own tokenizer when the plan names one
// (docs/tokenizers.md), else with the approximate counter (approxTokenCount, "sb-approx-v1").
// Cheap to copy; the tokenizer must outlive it.
class TokenCounter
{
public:
    explicit TokenCounter(const Tokenizer *tokenizer = nullptr) : m_tokenizer(tokenizer) {}

    const Tokenizer *tokenizer() const { return m_tokenizer; }
    bool exact() const { return m_tokenizer != nullptr; }

    // A whole prompt or reference answer as vLLM's benchmark datasets count one,
    // len(tokenizer(text).input_ids): the special tokens of the file's post-processor included
    // (Llama 2's and Gemma 3's leading <s>/<bos>; Qwen 3 adds none).
    qint32 count(QStringView text) const;
    // A part of a prompt (a chat message's content, a turn): no special tokens.
    qint32 countPart(QStringView text) const;

    // What the counts mean, stored with the dataset: kApproxTokenCounterName, or "tokenizer".
    QString name() const;

private:
    const Tokenizer *m_tokenizer;
};

} // namespace sb
