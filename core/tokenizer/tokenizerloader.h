#pragma once

#include <QString>

#include <memory>

class QByteArray;
class QJsonObject;

namespace sb {
class Tokenizer;
}

namespace sb::tok {

struct TokenizerData;

// Builds a Tokenizer from its files. Every check happens before the Tokenizer is handed out, so
// a failed load leaves nothing behind; errors name the file and the JSON field (or line).
class TokenizerLoader
{
public:
    static std::unique_ptr<Tokenizer> load(const QString &path, QString *error);

private:
    static bool readFile(const QString &path, QByteArray *bytes, QString *error);
    static bool loadJson(const QString &file, const QString &configFile, TokenizerData *d,
                         QString *error);
    static bool loadTiktoken(const QString &file, TokenizerData *d, QString *error);
    static bool loadConfig(const QString &file, TokenizerData *d, QString *error);
    static bool loadModel(const QJsonObject &model, TokenizerData *d, QString *error);
    static bool loadAddedTokens(const QJsonObject &root, TokenizerData *d, QString *error);
    static bool loadPostProcessor(const QJsonObject &root, TokenizerData *d, QString *error);
};

} // namespace sb::tok
