#pragma once

#include <QList>
#include <QString>
#include <functional>

namespace sb {

class MappedFile;

// The raw bytes of a JSON string's contents, between the quotes, escapes still in place.
struct SourceSpan
{
    qint64 offset = 0;
    qint64 length = 0;
};

// A turn's speaker: "human"/"user" ask; "gpt"/"assistant"/"chatgpt"/"bard"/"bing"/"model"
// answer; "system" sets the scene; any other role is neither.
enum class ShareGptRole : quint8 { Other, Human, Assistant, System };

struct ShareGptTurn
{
    ShareGptRole role = ShareGptRole::Other;
    SourceSpan value;
};

// What the loader needs from one ShareGPT item; the text stays in the mapped file.
struct ShareGptConversation
{
    qint32 index = 0; // 0-based position in the top-level array
    qint32 turns = 0;
    bool hasPair = false;         // a human turn immediately followed by an assistant turn
    SourceSpan prompt;            // the first human turn's value
    SourceSpan reply;             // the assistant turn right after it
    QList<ShareGptTurn> allTurns; // every turn in order, only with setCollectTurns(true)
};

// A streaming reader of the ShareGPT layout — a JSON array of {id, conversations: [{from, value},
// …]} — over a mapped file. It validates the whole file as JSON (strings as UTF-8, escapes,
// numbers, nesting) but keeps nothing but spans: QJsonDocument on the 650 MB public file would
// hold the bytes, the parsed tree and its strings at once.
// Roles: "human"/"user" ask; "gpt"/"assistant"/"chatgpt"/"bard"/"bing"/"model" answer; any other
// role ("system", …) is neither.
class ShareGptReader
{
public:
    ShareGptReader(MappedFile *file, const QString &displayPath);

    // Also list every turn of each conversation (multi-turn sessions).
    void setCollectTurns(bool on) { m_collectTurns = on; }

    // Calls onItem for every item in file order. On bad input returns false with an error naming
    // the file, the position (line, column, byte offset) and, for layout errors, the item index
    // and field.
    bool read(const std::function<void(const ShareGptConversation &)> &onItem, QString *error);

    // Decodes a span the reader has validated: JSON escapes, \uXXXX with surrogate pairs. A lone
    // surrogate escape (valid JSON, invalid Unicode) becomes U+FFFD and is counted.
    static void decode(const char *data, SourceSpan span, QString *out, qint64 *replacedSurrogates);

private:
    bool readItem(qint32 index, const std::function<void(const ShareGptConversation &)> &onItem);
    bool readConversations(qint32 index, ShareGptConversation *conv);
    bool readTurn(qint32 index, qint32 turn, SourceSpan *from, SourceSpan *value);
    bool scanString(SourceSpan *span);
    // An object member's `"key":` (whitespace around it skipped); key may be null to skip it.
    bool readKey(SourceSpan *key);
    bool skipValue(int depth);
    // After a member or element of the object ('}') or array (']') being read: consumes the ','
    // before the next one or the closing bracket (*closed); false with the syntax error otherwise.
    bool nextInContainer(char close, bool *closed);
    bool skipLiteral(const char *word);
    bool skipNumber();
    void skipWs();
    bool atEnd() const { return m_pos >= m_size; }
    bool keyIs(SourceSpan key, const char *name) const;

    QString kindAt(qint64 offset) const;
    bool syntaxError(qint64 offset, const QString &what);
    bool unexpected(qint64 offset, const QString &expected);
    bool layoutError(qint64 offset, const QString &what);

    MappedFile *m_file;
    QString m_path;
    const char *m_data;
    qint64 m_size;
    qint64 m_pos = 0;
    QString m_error;
    bool m_collectTurns = false;
};

} // namespace sb
