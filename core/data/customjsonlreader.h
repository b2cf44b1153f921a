#pragma once

#include "tokencounter.h"

#include <QJsonArray>
#include <QString>
#include <QStringList>
#include <functional>

namespace sb {

class MappedFile;

// One line of a custom JSONL dataset:
//   {"prompt": "…", "output_tokens": 128}
//   {"messages": [{"role": "system", "content": "…"}, {"role": "user", "content": "…"}]}
// "prompt" (a non-empty string) or "messages" (a non-empty array of {role, content} string
// pairs) is required; with both, messages are what a chat request sends. "output_tokens" is an
// optional positive integer. "images" is an optional list of image files (PNG, JPEG, GIF, WebP)
// sent with the prompt to a chat or Responses endpoint, each relative to the JSONL file's folder
// (docs/datasets.md, "Images in prompts"); a missing file is an error naming the file and line.
// Other fields are ignored.
struct CustomLine
{
    qint64 line = 0;   // 1-based
    qint64 offset = 0; // of the line's first byte
    qint64 length = 0; // without the line break
    QString prompt;    // the prompt, or the messages' contents joined by blank lines
    QJsonArray messages;
    // TokenCounter::count() of prompt, or the sum of countPart() over the message contents
    qint32 inputTokens = 0;
    qint32 outputTokens = -1; // -1: not given
    QStringList images;       // absolute paths of the line's image files, in order
};

// Reads a JSONL file line by line over a mapped file; blank lines are ignored. Errors name the
// file and line ("file.jsonl:7: …") and, where there is one, the field.
class CustomJsonlReader
{
public:
    CustomJsonlReader(MappedFile *file, const QString &displayPath);
    // How inputTokens are counted (default: approximately).
    void setTokenCounter(const TokenCounter &counter) { m_counter = counter; }

    bool read(const std::function<void(const CustomLine &)> &onLine, QString *error);
    // Parses one line again (it was validated by read()).
    bool parseLine(qint64 lineNumber, qint64 offset, qint64 length, CustomLine *out,
                   QString *error) const;

private:
    MappedFile *m_file;
    QString m_path;
    TokenCounter m_counter;
};

} // namespace sb
