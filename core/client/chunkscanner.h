#pragma once

#include "config/runplan.h"

#include <QByteArrayView>
#include <QString>

class QJsonObject;

namespace sb {

// What the protocol layer takes from one streamed chunk object (docs/design.md, "Wire protocol").
// Values the chunk does not carry (or carries with another type) keep their defaults, exactly as
// QJsonValue's toInt(-1) / toString() / toObject() would give them.
struct ChunkFields
{
    qint32 promptTokens = -1;     // usage.prompt_tokens
    qint32 completionTokens = -1; // usage.completion_tokens
    qint32 cachedTokens = -1;     // usage.prompt_tokens_details.cached_tokens
    qint32 reasoningTokens = -1;  // usage.completion_tokens_details.reasoning_tokens
    bool hasChoices = false;      // choices is a non-empty array
    QString finishReason;         // choices[0].finish_reason
    // Code points of choices[0].text (completions), or of delta.content plus
    // delta.reasoning_content (or, when that is empty, delta.reasoning) (chat).
    qsizetype chars = 0;
    // Of chars, the reasoning's (chat only; 0 for completions).
    qsizetype reasoningChars = 0;

    bool operator==(const ChunkFields &) const = default;
};

// The generated text of one chunk as it stands in the payload: the bytes between the quotes,
// escapes still in place (escaped says whether there are any). Views into the scanned payload,
// valid as long as it is. content: choices[0].text (completions) or delta.content (chat);
// reasoning: the delta's reasoning text counted in ChunkFields::reasoningChars.
struct ChunkText
{
    QByteArrayView content;
    QByteArrayView reasoning;
    bool contentEscaped = false;
    bool reasoningEscaped = false;
};

// Appends the UTF-8 of a JSON string's contents (between the quotes, as ChunkText holds them)
// to *out, escapes resolved. The input must be a string the scanner accepted (valid escapes,
// paired surrogates).
void appendJsonStringUtf8(QByteArrayView raw, bool escaped, QByteArray *out);

// A zero-copy reader for the chunk objects an OpenAI-compatible server streams: it walks the
// JSON once, validating as it goes, and extracts only ChunkFields, where a QJsonDocument per
// event would build and free a whole tree (several times the cost of everything else on the hot
// path). It accepts only input it can read with certainty — well-formed UTF-8, standard escapes,
// plain numbers, no duplicate keys among those it reads, no error objects — and answers false
// for anything else, so the caller falls back to the full parser instead of guessing.
class ChunkScanner
{
public:
    // True with *out filled when payload is a valid JSON object that is not an error object
    // and everything needed could be read; false means "use the full JSON parser".
    // text (optional) receives where the generated text is in payload.
    static bool scan(QByteArrayView payload, ApiFlavour flavour, ChunkFields *out,
                     ChunkText *text = nullptr);

    // The same extraction from a parsed object: the reference the scanner must agree with.
    static ChunkFields fromJson(const QJsonObject &chunk, ApiFlavour flavour);
};

} // namespace sb
