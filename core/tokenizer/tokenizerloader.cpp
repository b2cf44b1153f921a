#include "tokenizer/tokenizerloader.h"

#include "tokenizer/bytelevelmap.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizerdata.h"
#include "tokenizer/unicodeclass.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <thread>

using namespace Qt::StringLiterals;

namespace sb::tok {

namespace {

std::string toStd(QStringView s)
{
    const QByteArray u = s.toUtf8();
    return std::string(u.constData(), size_t(u.size()));
}

QString quoted(const QString &s)
{
    QString q = s;
    if (q.size() > 60)
        q = q.left(60) + u"…"_s;
    return u"\""_s + q + u"\""_s;
}

// "line L, column C" of a byte offset, for JSON syntax errors.
QString position(const QByteArray &bytes, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return u"line %1, column %2 (byte %3)"_s.arg(line).arg(offset - lineStart + 1).arg(offset);
}

bool parseJson(const QString &file, const QByteArray &original, QJsonObject *out, QString *error)
{
    // Qt's JSON parser decodes each string with QString::fromUtf8, which drops a U+FEFF at the
    // start of a string (Gemma 3 has tokens such as "\uFEFF\uFEFF"): write those characters as
    // escapes first. Outside strings a U+FEFF is invalid JSON either way, except a leading BOM.
    QByteArray bytes = original;
    static const QByteArray bom("\xEF\xBB\xBF");
    if (bytes.indexOf(bom, 1) > 0) {
        const bool leading = bytes.startsWith(bom);
        bytes.replace(bom, QByteArrayLiteral("\\ufeff"));
        if (leading)
            bytes.replace(0, 6, bom);
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error =
            u"%1: invalid JSON at %2: %3"_s.arg(file, position(bytes, pe.offset), pe.errorString());
        return false;
    }
    if (!doc.isObject()) {
        *error = u"%1: expected a JSON object at the top level"_s.arg(file);
        return false;
    }
    *out = doc.object();
    return true;
}

// The model's key for a token written in the file: raw bytes for byte-level vocabularies.
bool modelKey(const TokenizerData &d, QStringView text, std::string *key)
{
    if (d.byteLevel)
        return ByteLevelMap::toBytes(text, key);
    *key = toStd(text);
    return true;
}

void setToken(TokenizerData *d, qint32 id, std::string text)
{
    if (size_t(id) >= d->tokenText.size()) {
        d->tokenText.resize(size_t(id) + 1);
        d->isAdded.resize(size_t(id) + 1, false);
        d->isSpecial.resize(size_t(id) + 1, false);
    }
    d->tokenText[size_t(id)] = std::move(text);
}

bool addAddedToken(TokenizerData *d, const QJsonObject &t, qint32 id, const QString &field,
                   QString *error)
{
    if (!t.value("content"_L1).isString() || t.value("content"_L1).toString().isEmpty()) {
        *error = u"%1.content: expected a non-empty string"_s.arg(field);
        return false;
    }
    const QString content = t.value("content"_L1).toString();
    for (const auto name : {"single_word"_L1, "lstrip"_L1, "rstrip"_L1}) {
        if (t.value(name).toBool()) {
            *error = u"%1.%2: added token %3 with %2 = true is not supported"_s.arg(
                field, name, quoted(content));
            return false;
        }
    }
    const bool special = t.value("special"_L1).toBool();
    const bool normalized = t.value("normalized"_L1).toBool(!special);
    const std::string text = toStd(content);
    setToken(d, id, text);
    d->isAdded[size_t(id)] = true;
    d->isSpecial[size_t(id)] = special;
    d->addedByContent.insert(text, id);
    if (normalized && !d->normalizer.isIdentity()) {
        std::string buffer;
        const std::string_view n = d->normalizer.apply(text, &buffer);
        d->normalizedAdded.add(n, id);
    } else {
        d->rawAdded.add(text, id);
    }
    return true;
}

struct Encoding
{
    const char *name;
    SplitPattern::Kind pattern;
    std::vector<std::pair<const char *, qint32>> specials;
};

const Encoding *tiktokenEncoding(const QString &name)
{
    static const Encoding encodings[] = {
        {"cl100k_base",
         SplitPattern::Kind::Cl100k,
         {{"<|endoftext|>", 100257},
          {"<|fim_prefix|>", 100258},
          {"<|fim_middle|>", 100259},
          {"<|fim_suffix|>", 100260},
          {"<|endofprompt|>", 100276}}},
        {"o200k_base",
         SplitPattern::Kind::O200k,
         {{"<|endoftext|>", 199999}, {"<|endofprompt|>", 200018}}},
    };
    for (const Encoding &e : encodings) {
        if (name == QLatin1StringView(e.name))
            return &e;
    }
    return nullptr;
}

} // namespace

bool TokenizerLoader::readFile(const QString &path, QByteArray *bytes, QString *error)
{
    QFile f(path);
    if (!f.exists()) {
        *error = u"tokenizer file not found: %1"_s.arg(path);
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot read tokenizer file %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    *bytes = f.readAll();
    if (f.error() != QFileDevice::NoError) {
        *error = u"cannot read tokenizer file %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    return true;
}

std::unique_ptr<Tokenizer> TokenizerLoader::load(const QString &path, QString *error)
{
    QString file = path;
    QString config;
    const QFileInfo info(path);
    if (info.isDir()) {
        file = QDir(path).filePath(u"tokenizer.json"_s);
        if (!QFileInfo::exists(file)) {
            *error = u"no tokenizer.json in folder %1"_s.arg(path);
            return nullptr;
        }
    }
    std::unique_ptr<Tokenizer> t(new Tokenizer);
    t->d->path = file;
    if (file.endsWith(".tiktoken"_L1)) {
        if (!loadTiktoken(file, t->d.get(), error))
            return nullptr;
        return t;
    }
    const QString beside = QFileInfo(file).dir().filePath(u"tokenizer_config.json"_s);
    if (QFileInfo::exists(beside))
        config = beside;
    if (!loadJson(file, config, t->d.get(), error))
        return nullptr;
    return t;
}

bool TokenizerLoader::loadJson(const QString &file, const QString &configFile, TokenizerData *d,
                               QString *error)
{
    QByteArray bytes;
    if (!readFile(file, &bytes, error))
        return false;
    // Qt's SHA-256 runs at about 120 MB/s: hash on a second thread while the JSON is parsed.
    QString hash;
    std::thread hasher([&hash, bytes] {
        hash = QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    });
    struct Join
    {
        std::thread &t;
        ~Join()
        {
            if (t.joinable())
                t.join();
        }
    } join{hasher};

    QJsonObject root;
    if (!parseJson(file, bytes, &root, error))
        return false;
    QString err;
    const auto fail = [&] {
        *error = u"%1: %2"_s.arg(file, err);
        return false;
    };
    for (const auto name : {"truncation"_L1, "padding"_L1}) {
        if (root.contains(name) && !root.value(name).isNull()) {
            err =
                u"%1: only null is supported (this tokenizer never truncates or pads)"_s.arg(name);
            return fail();
        }
    }
    if (!root.value("model"_L1).isObject()) {
        err = u"model: expected an object"_s;
        return fail();
    }
    if (!Normalizer::fromJson(root.value("normalizer"_L1), u"normalizer"_s, &d->normalizer, &err))
        return fail();
    if (!PreTokenizer::fromJson(root.value("pre_tokenizer"_L1), u"pre_tokenizer"_s,
                                &d->preTokenizer, &err))
        return fail();
    if (!TokenDecoder::fromJson(root.value("decoder"_L1), u"decoder"_s, &d->decoder, &err))
        return fail();
    d->byteLevel = d->preTokenizer.byteLevel();
    if (!loadModel(root.value("model"_L1).toObject(), d, &err))
        return fail();
    if (!loadAddedTokens(root, d, &err))
        return fail();
    if (!loadPostProcessor(root, d, &err))
        return fail();
    if (!configFile.isEmpty() && !loadConfig(configFile, d, error))
        return false;

    qsizetype added = 0;
    for (bool a : d->isAdded)
        added += a ? 1 : 0;
    d->identity =
        u"BPE %1; normalizer %2; pre-tokenizer %3; decoder %4; vocab %5; %6 added "
        u"tokens; %7"_s
            .arg(d->byteLevel ? u"byte-level"_s : u"characters"_s, d->normalizer.describe(),
                 d->preTokenizer.describe(), d->decoder.describe())
            .arg(d->tokenText.size())
            .arg(added)
            .arg(QFileInfo(file).fileName());
    hasher.join();
    d->sha256 = hash;
    return true;
}

bool TokenizerLoader::loadModel(const QJsonObject &model, TokenizerData *d, QString *error)
{
    const QString type = model.value("type"_L1).toString();
    if (!(type == "BPE"_L1 || (type.isEmpty() && model.contains("merges"_L1)))) {
        *error = u"model.type: model \"%1\" is not supported (supported: BPE)"_s.arg(type);
        return false;
    }
    if (model.value("dropout"_L1).toDouble() > 0) {
        *error = u"model.dropout: BPE dropout (random merges) is not supported"_s;
        return false;
    }
    for (const auto name : {"continuing_subword_prefix"_L1, "end_of_word_suffix"_L1}) {
        if (!model.value(name).toString().isEmpty()) {
            *error = u"model.%1: not supported (must be null or empty)"_s.arg(name);
            return false;
        }
    }
    if (!model.value("vocab"_L1).isObject()) {
        *error = u"model.vocab: expected an object of token: id"_s;
        return false;
    }
    if (!model.value("merges"_L1).isArray()) {
        *error = u"model.merges: expected an array"_s;
        return false;
    }
    const QJsonObject vocab = model.value("vocab"_L1).toObject();
    const QJsonArray merges = model.value("merges"_L1).toArray();
    d->model.reserve(size_t(vocab.size()), size_t(merges.size()));
    d->model.setSymbols(d->byteLevel ? BpeModel::Symbols::Bytes : BpeModel::Symbols::Characters);
    d->model.setIgnoreMerges(model.value("ignore_merges"_L1).toBool());
    d->model.setByteFallback(model.value("byte_fallback"_L1).toBool());

    std::string key;
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        const QJsonValue v = it.value();
        const qint64 id = v.isDouble() ? v.toInteger(-1) : -1;
        if (id < 0 || id > (1 << 30)) {
            *error = u"model.vocab[%1]: expected a non-negative integer id"_s.arg(quoted(it.key()));
            return false;
        }
        const QString tokenKey = it.key();
        std::string text = toStd(tokenKey);
        if (size_t(id) < d->tokenText.size() && !d->tokenText[size_t(id)].empty()) {
            *error = u"model.vocab[%1]: id %2 is already used by %3"_s.arg(
                quoted(it.key()), QString::number(id),
                quoted(utf8ToQString(d->tokenText[size_t(id)])));
            return false;
        }
        // A byte-level vocabulary entry outside the byte alphabet can never be produced (the
        // input is always mapped into it): it stays decodable but is not matched.
        if (modelKey(*d, tokenKey, &key))
            d->model.addToken(key, qint32(id));
        setToken(d, qint32(id), std::move(text));
    }

    const auto lookup = [&](QStringView token) -> qint32 {
        return modelKey(*d, token, &key) ? d->model.find(key) : -1;
    };
    for (qsizetype i = 0; i < merges.size(); ++i) {
        const QJsonValue m = merges.at(i);
        QString whole;
        QString second;
        QStringView left;
        QStringView right;
        if (m.isString()) {
            whole = m.toString();
            const qsizetype space = whole.indexOf(u' ');
            if (space < 0 || whole.indexOf(u' ', space + 1) >= 0) {
                *error =
                    u"model.merges[%1]: expected two tokens separated by one space, got %2"_s.arg(i)
                        .arg(quoted(whole));
                return false;
            }
            left = QStringView(whole).left(space);
            right = QStringView(whole).mid(space + 1);
        } else if (const QJsonArray pair = m.toArray();
                   pair.size() == 2 && pair.at(0).isString() && pair.at(1).isString()) {
            whole = pair.at(0).toString();
            second = pair.at(1).toString();
            left = whole;
            right = second;
        } else {
            *error = u"model.merges[%1]: expected \"a b\" or [\"a\", \"b\"]"_s.arg(i);
            return false;
        }
        std::string leftKey;
        std::string rightKey;
        const qint32 a = modelKey(*d, left, &leftKey) ? d->model.find(leftKey) : -1;
        const qint32 b = modelKey(*d, right, &rightKey) ? d->model.find(rightKey) : -1;
        qint32 merged = -1;
        if (a >= 0 && b >= 0) {
            leftKey += rightKey;
            merged = d->model.find(leftKey);
        }
        if (a < 0 || b < 0 || merged < 0) {
            const QString missing = a < 0   ? left.toString()
                                    : b < 0 ? right.toString()
                                            : left.toString() + right.toString();
            *error = u"model.merges[%1] (%2 %3): token %4 is not in model.vocab"_s.arg(
                QString::number(i), quoted(left.toString()), quoted(right.toString()),
                quoted(missing));
            return false;
        }
        d->model.addMerge(a, b, uint32_t(i), merged);
    }

    const QJsonValue unk = model.value("unk_token"_L1);
    if (unk.isString()) {
        const qint32 id = lookup(unk.toString());
        if (id < 0) {
            *error = u"model.unk_token: %1 is not in model.vocab"_s.arg(quoted(unk.toString()));
            return false;
        }
        d->model.setUnknown(id, model.value("fuse_unk"_L1).toBool());
    }
    d->model.finish();
    return true;
}

bool TokenizerLoader::loadAddedTokens(const QJsonObject &root, TokenizerData *d, QString *error)
{
    const QJsonValue v = root.value("added_tokens"_L1);
    if (v.isNull() || v.isUndefined())
        return true;
    if (!v.isArray()) {
        *error = u"added_tokens: expected an array"_s;
        return false;
    }
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString field = u"added_tokens[%1]"_s.arg(i);
        const QJsonObject t = a.at(i).toObject();
        const qint64 id = t.value("id"_L1).toInteger(-1);
        if (id < 0 || id > (1 << 30)) {
            *error = u"%1.id: expected a non-negative integer"_s.arg(field);
            return false;
        }
        if (!addAddedToken(d, t, qint32(id), field, error))
            return false;
    }
    return true;
}

bool TokenizerLoader::loadPostProcessor(const QJsonObject &root, TokenizerData *d, QString *error)
{
    std::vector<QJsonObject> processors;
    std::vector<QString> fields;
    const QJsonValue v = root.value("post_processor"_L1);
    if (v.isNull() || v.isUndefined())
        return true;
    const QJsonObject o = v.toObject();
    if (o.value("type"_L1).toString() == "Sequence"_L1) {
        const QJsonArray list = o.value("processors"_L1).toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            processors.push_back(list.at(i).toObject());
            fields.push_back(u"post_processor.processors[%1]"_s.arg(i));
        }
    } else {
        processors.push_back(o);
        fields.push_back(u"post_processor"_s);
    }
    for (size_t p = 0; p < processors.size(); ++p) {
        const QJsonObject &pp = processors[p];
        const QString type = pp.value("type"_L1).toString();
        if (type == "ByteLevel"_L1)
            continue; // only moves offsets
        if (type != "TemplateProcessing"_L1) {
            *error = u"%1.type: post-processor \"%2\" is not supported (supported: "
                     u"TemplateProcessing, ByteLevel, Sequence)"_s.arg(fields[p], type);
            return false;
        }
        const QJsonObject specials = pp.value("special_tokens"_L1).toObject();
        const QJsonArray single = pp.value("single"_L1).toArray();
        bool seenSequence = false;
        for (qsizetype i = 0; i < single.size(); ++i) {
            const QJsonObject item = single.at(i).toObject();
            const QString field = u"%1.single[%2]"_s.arg(fields[p]).arg(i);
            if (item.contains("Sequence"_L1)) {
                seenSequence = true;
                continue;
            }
            const QString name = item.value("SpecialToken"_L1).toObject().value("id"_L1).toString();
            const QJsonArray ids = specials.value(name).toObject().value("ids"_L1).toArray();
            if (name.isEmpty() || ids.isEmpty()) {
                *error =
                    u"%1: special token %2 is not in special_tokens"_s.arg(field, quoted(name));
                return false;
            }
            for (const QJsonValue &id : ids)
                (seenSequence ? d->suffixIds : d->prefixIds).push_back(qint32(id.toInteger()));
        }
    }
    return true;
}

bool TokenizerLoader::loadConfig(const QString &file, TokenizerData *d, QString *error)
{
    QByteArray bytes;
    if (!readFile(file, &bytes, error))
        return false;
    QJsonObject root;
    if (!parseJson(file, bytes, &root, error))
        return false;
    const QJsonObject decoder = root.value("added_tokens_decoder"_L1).toObject();
    for (auto it = decoder.begin(); it != decoder.end(); ++it) {
        const QString field = u"added_tokens_decoder[%1]"_s.arg(quoted(it.key()));
        bool ok = false;
        const qint32 id = it.key().toInt(&ok);
        if (!ok || id < 0) {
            *error = u"%1: %2: the key must be a token id"_s.arg(file, field);
            return false;
        }
        const QJsonObject t = it.value().toObject();
        const std::string content = toStd(t.value("content"_L1).toString());
        if (size_t(id) < d->isAdded.size() && d->isAdded[size_t(id)]) {
            if (d->tokenText[size_t(id)] != content) {
                *error = u"%1: %2.content: %3 differs from tokenizer.json's added token %4"_s.arg(
                    file, field, quoted(utf8ToQString(content)),
                    quoted(utf8ToQString(d->tokenText[size_t(id)])));
                return false;
            }
            continue;
        }
        QString err;
        if (!addAddedToken(d, t, id, field, &err)) {
            *error = u"%1: %2"_s.arg(file, err);
            return false;
        }
    }
    const auto tokenOf = [&](const char *name, qint32 *out) {
        const QJsonValue v = root.value(QLatin1StringView(name));
        const QString content =
            v.isObject() ? v.toObject().value("content"_L1).toString() : v.toString();
        if (content.isEmpty())
            return true;
        const qint32 id = d->addedByContent.find(toStd(content));
        if (id < 0) {
            *error = u"%1: %2: %3 is not an added token"_s.arg(file, QLatin1StringView(name),
                                                               quoted(content));
            return false;
        }
        *out = id;
        return true;
    };
    if (!tokenOf("bos_token", &d->bosId) || !tokenOf("eos_token", &d->eosId))
        return false;
    d->addBos = root.value("add_bos_token"_L1).toBool();
    return true;
}

bool TokenizerLoader::loadTiktoken(const QString &file, TokenizerData *d, QString *error)
{
    const QString name = QFileInfo(file).completeBaseName();
    const Encoding *enc = tiktokenEncoding(name);
    if (!enc) {
        *error = u"%1: unknown tiktoken encoding \"%2\" (the file name names the encoding: "
                 u"cl100k_base.tiktoken or o200k_base.tiktoken)"_s.arg(file, name);
        return false;
    }
    QByteArray bytes;
    if (!readFile(file, &bytes, error))
        return false;
    d->sha256 =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    std::vector<std::string> tokens;
    const QList<QByteArray> lines = bytes.split('\n');
    d->model.reserve(size_t(lines.size()), size_t(lines.size()) * 4);
    d->model.setSymbols(BpeModel::Symbols::Bytes);
    d->model.setIgnoreMerges(true); // tiktoken takes a word found whole in the ranks as is
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        bool ok = false;
        const qint64 rank = space > 0 ? line.mid(space + 1).toLongLong(&ok) : -1;
        const auto decoded = QByteArray::fromBase64Encoding(
            line.left(space), QByteArray::AbortOnBase64DecodingErrors);
        if (!ok || rank < 0 || rank > (1 << 30) || !decoded || decoded.decoded.isEmpty()) {
            *error = u"%1: line %2: expected \"<base64 token> <rank>\""_s.arg(file).arg(i + 1);
            return false;
        }
        const std::string token(decoded.decoded.constData(), size_t(decoded.decoded.size()));
        if (size_t(rank) < tokens.size() && !tokens[size_t(rank)].empty()) {
            *error = u"%1: line %2: rank %3 appears twice"_s.arg(file).arg(i + 1).arg(rank);
            return false;
        }
        if (!d->model.addToken(token, qint32(rank))) {
            *error = u"%1: line %2: token appears twice"_s.arg(file).arg(i + 1);
            return false;
        }
        if (size_t(rank) >= tokens.size())
            tokens.resize(size_t(rank) + 1);
        tokens[size_t(rank)] = token;
    }
    // tiktoken merges any adjacent pair whose concatenation has a rank, lowest rank first: the
    // same as a merges table with one entry per way of cutting each token in two known tokens.
    for (size_t id = 0; id < tokens.size(); ++id) {
        const std::string &t = tokens[id];
        for (size_t k = 1; k < t.size(); ++k) {
            const qint32 a = d->model.find(std::string_view(t).substr(0, k));
            if (a < 0)
                continue;
            const qint32 b = d->model.find(std::string_view(t).substr(k));
            if (b >= 0)
                d->model.addMerge(a, b, uint32_t(id), qint32(id));
        }
        if (!t.empty())
            setToken(d, qint32(id), ByteLevelMap::fromBytes(t));
    }
    d->model.finish();
    for (int b = 0; b < 256; ++b) {
        const char c = char(b);
        if (d->model.find(std::string_view(&c, 1)) < 0) {
            *error = u"%1: byte 0x%2 has no rank"_s.arg(file).arg(b, 2, 16, QChar(u'0'));
            return false;
        }
    }
    for (const auto &[content, id] : enc->specials) {
        setToken(d, id, content);
        d->isAdded[size_t(id)] = true;
        d->isSpecial[size_t(id)] = true;
        d->addedByContent.insert(content, id);
        d->rawAdded.add(content, id);
    }
    const SplitPattern pattern = SplitPattern::ofKind(enc->pattern);
    d->preTokenizer = PreTokenizer::split(pattern);
    d->decoder = TokenDecoder::byteLevel();
    d->byteLevel = true;
    d->identity = u"tiktoken %1; pre-tokenizer Split(%2); vocab %3; %4"_s.arg(
        name, pattern.name(), QString::number(d->tokenText.size()), QFileInfo(file).fileName());
    return true;
}

} // namespace sb::tok
