#include "dataset.h"

#include "customjsonlreader.h"
#include "datasetsampling.h"
#include "filehasher.h"
#include "mappedfile.h"
#include "seededrng.h"
#include "sharegptreader.h"
#include "syntheticimage.h"
#include "syntheticprompt.h"
#include "syntheticvocabulary.h"
#include "tokencount.h"
#include "tokencounter.h"

#include "config/runplan.h"
#include "tokenizer/tokenizer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// A usable item, kept small: the text stays in the mapped file until the item is sampled.
struct Candidate
{
    qint64 offset = 0;
    qint64 length = 0;
    qint32 inputTokens = 0;
    qint32 outputTokens = 0;
    qint32 sourceIndex = 0;
};

// Seeds for the independent random streams of one load, so that e.g. changing the output-length
// distribution of a synthetic dataset does not change which words its prompts hold.
constexpr quint64 kWordStream = 0x9E3779B97F4A7C15ULL;

qint32 clampToInt32(qint64 v)
{
    return qint32(qBound<qint64>(0, v, qint64(std::numeric_limits<qint32>::max())));
}

bool validateRandom(const DatasetSpec &spec, int numPrompts, QString *error)
{
    if (numPrompts <= 0) {
        *error =
            u"random dataset: the number of prompts must be positive (got %1)"_s.arg(numPrompts);
        return false;
    }
    if (spec.randomInputLen < 1 || spec.randomOutputLen < 1) {
        *error =
            u"random dataset: random_input_len and random_output_len must be at least 1 (got %1, %2)"_s
                .arg(spec.randomInputLen)
                .arg(spec.randomOutputLen);
        return false;
    }
    if (spec.randomPrefixLen < 0) {
        *error = u"random dataset: random_prefix_len must not be negative (got %1)"_s.arg(
            spec.randomPrefixLen);
        return false;
    }
    if (spec.randomDistribution == LengthDistribution::Uniform &&
        !(spec.randomRangeRatio >= 0 && spec.randomRangeRatio < 1)) {
        *error = u"random dataset: random_range_ratio must be in [0, 1) (got %1)"_s.arg(
            spec.randomRangeRatio);
        return false;
    }
    if (spec.randomDistribution == LengthDistribution::Normal) {
        if (spec.randomInputStdev < 0 || spec.randomOutputStdev < 0) {
            *error = u"random dataset: the standard deviations must not be negative"_s;
            return false;
        }
        if ((spec.randomInputMax > 0 && spec.randomInputMax < qMax(spec.randomInputMin, 1)) ||
            (spec.randomOutputMax > 0 && spec.randomOutputMax < qMax(spec.randomOutputMin, 1))) {
            *error = u"random dataset: a maximum length is below its minimum"_s;
            return false;
        }
    }
    if (!(spec.tokensPerWord > 0) || !std::isfinite(spec.tokensPerWord)) {
        *error = u"random dataset: tokens_per_word must be a positive number (got %1)"_s.arg(
            spec.tokensPerWord);
        return false;
    }
    return true;
}

bool loadRandom(const DatasetSpec &spec, int numPrompts, quint64 seed,
                const SyntheticVocabulary &vocab, LoadedDataset *ds, QString *error)
{
    if (!validateRandom(spec, numPrompts, error))
        return false;
    SeededRng lengths(seed);
    SeededRng words(seed ^ kWordStream);
    // With a tokenizer a word is a token (checked), and each prompt is counted whole.
    const bool exact = vocab.tokenizer() != nullptr;
    const double tpw = exact ? 1.0 : spec.tokensPerWord;
    // vLLM's convention: the length counts the special tokens the tokenizer adds, so the text
    // holds that many fewer (the prefix is part of the text).
    const int special = vocab.specialTokens();
    QString prefix;
    vocab.appendWords(&prefix, wordsForTokens(spec.randomPrefixLen, tpw), words);
    ds->items.reserve(numPrompts);
    for (int i = 0; i < numPrompts; ++i) {
        PromptItem item;
        const qint32 in = drawLength(lengths, spec, spec.randomInputLen, spec.randomInputStdev,
                                     spec.randomInputMin, spec.randomInputMax);
        item.outputTokens = drawLength(lengths, spec, spec.randomOutputLen, spec.randomOutputStdev,
                                       spec.randomOutputMin, spec.randomOutputMax);
        item.prompt = prefix;
        vocab.appendWords(&item.prompt, wordsForTokens(std::max(0, in - special), tpw), words);
        item.inputTokens = clampToInt32(qint64(spec.randomPrefixLen) + in);
        if (exact) {
            const int fitted =
                vocab.fitToTokens(&item.prompt, std::max(0, item.inputTokens - special), words);
            if (fitted < 0) {
                *error = u"random dataset: prompt %1 cannot be made exactly %2 tokens long under "
                         "the tokenizer %3"_s.arg(i)
                             .arg(item.inputTokens)
                             .arg(vocab.tokenizer()->path());
                return false;
            }
            if (fitted > 0)
                ++ds->info.fittedPrompts;
        }
        item.sourceIndex = i;
        ds->items.append(item);
    }
    ds->info.itemCount = numPrompts;
    return true;
}

bool loadShareGpt(const DatasetSpec &spec, int numPrompts, quint64 seed,
                  const TokenCounter &counter, LoadedDataset *ds, QString *error)
{
    MappedFile file;
    if (!file.open(spec.path, error))
        return false;
    FileHasher hasher; // runs beside the parse; cancelled if the parse fails
    hasher.start(spec.path);
    ShareGptReader reader(&file, spec.path);
    const bool fixed = spec.sharegptOutputLen > 0;
    QList<Candidate> candidates;
    QString text; // one buffer reused for every decode: its capacity grows to the longest turn
    DatasetInfo &info = ds->info;
    auto skip = [&](const QString &reason) {
        ++info.skipped;
        ++info.skipReasons[reason];
    };
    const bool ok = reader.read(
        [&](const ShareGptConversation &c) {
            ++info.sourceItems;
            if (c.turns < 2)
                return skip(u"fewer_than_two_turns"_s);
            if (!c.hasPair)
                return skip(u"no_assistant_reply"_s);
            ShareGptReader::decode(file.data(), c.prompt, &text, &info.replacedSurrogates);
            const qint32 in = counter.count(text);
            qint32 out = spec.sharegptOutputLen;
            if (!fixed) {
                ShareGptReader::decode(file.data(), c.reply, &text, &info.replacedSurrogates);
                out = counter.count(text);
            }
            if (in < kShareGptMinLen)
                return skip(u"prompt_too_short"_s);
            if (!fixed && out < kShareGptMinLen)
                return skip(u"output_too_short"_s);
            if (!fixed && in > kShareGptMaxPromptLen)
                return skip(u"prompt_too_long"_s);
            if (!fixed && qint64(in) + out > kShareGptMaxTotalLen)
                return skip(u"total_too_long"_s);
            candidates.append(Candidate{c.prompt.offset, c.prompt.length, in, out, c.index});
        },
        error);
    if (!ok)
        return false;
    if (info.sourceItems == 0) {
        *error = u"%1: the dataset holds no conversations (an empty array)"_s.arg(spec.path);
        return false;
    }
    if (candidates.isEmpty()) {
        *error = u"%1: no usable conversations: all %2 were skipped (%3)"_s.arg(spec.path)
                     .arg(info.sourceItems)
                     .arg(describeSkips(info.skipReasons));
        return false;
    }
    info.itemCount = candidates.size();
    if (!hasher.result(&info.sourceSha256, error))
        return false;
    info.sourceBytes = file.size();

    SeededRng rng(seed);
    QList<qint32> picks;
    if (!sampleIndices(candidates.size(), numPrompts, spec.withReplacement, rng, &picks,
                       &info.oversampled, error, spec.path))
        return false;
    // Decoding again is cheaper than holding every prompt: most are never sampled.
    qint64 replacedAgain = 0;
    ds->items.reserve(picks.size());
    for (qint32 k : picks) {
        const Candidate &c = candidates[k];
        PromptItem item;
        ShareGptReader::decode(file.data(), SourceSpan{c.offset, c.length}, &item.prompt,
                               &replacedAgain);
        item.inputTokens = c.inputTokens;
        item.outputTokens = c.outputTokens;
        item.sourceIndex = c.sourceIndex;
        ds->items.append(item);
    }
    return true;
}

bool loadCustom(const DatasetSpec &spec, int numPrompts, quint64 seed, const TokenCounter &counter,
                LoadedDataset *ds, QString *error)
{
    MappedFile file;
    if (!file.open(spec.path, error))
        return false;
    FileHasher hasher; // runs beside the parse; cancelled if the parse fails
    hasher.start(spec.path);
    CustomJsonlReader reader(&file, spec.path);
    reader.setTokenCounter(counter);
    auto outputLen = [&](const CustomLine &l) {
        if (spec.sharegptOutputLen > 0)
            return qint32(spec.sharegptOutputLen);
        return l.outputTokens > 0 ? l.outputTokens : qint32(kCustomDefaultOutputLen);
    };
    QList<Candidate> candidates;
    DatasetInfo &info = ds->info;
    const bool ok = reader.read(
        [&](const CustomLine &l) {
            ++info.sourceItems;
            candidates.append(
                Candidate{l.offset, l.length, l.inputTokens, outputLen(l), qint32(l.line)});
        },
        error);
    if (!ok)
        return false;
    if (candidates.isEmpty()) {
        *error = u"%1: the dataset holds no items (only blank lines)"_s.arg(spec.path);
        return false;
    }
    info.itemCount = candidates.size();
    if (!hasher.result(&info.sourceSha256, error))
        return false;
    info.sourceBytes = file.size();

    SeededRng rng(seed);
    QList<qint32> picks;
    if (!sampleIndices(candidates.size(), numPrompts, spec.withReplacement, rng, &picks,
                       &info.oversampled, error, spec.path))
        return false;
    ds->items.reserve(picks.size());
    CustomLine line;
    // Image files (docs/datasets.md, "Images in prompts"): read once each, sent as data URLs,
    // and their bytes hashed with the dataset in the order the request list sends them.
    struct ImageFile
    {
        QByteArray url;
        QByteArray sha256;
        qint64 bytes = 0;
    };
    QHash<QString, ImageFile> files;
    QCryptographicHash imageHash(QCryptographicHash::Sha256);
    bool anyImage = false;
    for (qint32 k : picks) {
        const Candidate &c = candidates[k];
        if (!reader.parseLine(c.sourceIndex, c.offset, c.length, &line, error))
            return false;
        PromptItem item;
        item.prompt = line.prompt;
        item.messages = line.messages;
        item.inputTokens = c.inputTokens;
        item.outputTokens = c.outputTokens;
        item.sourceIndex = c.sourceIndex;
        for (const QString &path : std::as_const(line.images)) {
            auto it = files.find(path);
            if (it == files.end()) {
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly)) {
                    *error = u"%1:%2: image file %3: %4"_s.arg(spec.path)
                                 .arg(c.sourceIndex)
                                 .arg(path, f.errorString());
                    return false;
                }
                const QByteArray bytes = f.readAll();
                const char *mime = imageMimeType(bytes);
                if (!mime) {
                    *error = u"%1:%2: image file %3 is not a PNG, JPEG, GIF or WebP image"_s
                                 .arg(spec.path)
                                 .arg(c.sourceIndex)
                                 .arg(path);
                    return false;
                }
                it = files.insert(
                    path, ImageFile{imageDataUrl(bytes, mime),
                                    QCryptographicHash::hash(bytes, QCryptographicHash::Sha256),
                                    bytes.size()});
            }
            item.images.append(it->url);
            item.imageBytes += it->bytes;
            imageHash.addData(it->sha256);
            anyImage = true;
        }
        ds->items.append(item);
    }
    if (anyImage)
        info.imageFilesSha256 = QString::fromLatin1(imageHash.result().toHex());
    return true;
}

// Synthetic images (docs/datasets.md, "Images in prompts"): spec.imageCount PNGs of seeded
// noise appended to every item of the request list, image k of item i drawn from
// syntheticImageSeed(seed, i, k).
void attachSyntheticImages(const DatasetSpec &spec, quint64 seed, QList<PromptItem> *items)
{
    if (spec.imageCount <= 0)
        return;
    const quint64 imageSeed = spec.imageSeed >= 0 ? quint64(spec.imageSeed) : seed;
    for (qsizetype i = 0; i < items->size(); ++i) {
        PromptItem &item = (*items)[i];
        for (int k = 0; k < spec.imageCount; ++k) {
            const QByteArray png = syntheticPng(spec.imageWidth, spec.imageHeight,
                                                syntheticImageSeed(imageSeed, i, k));
            item.images.append(imageDataUrl(png, "image/png"));
            item.imageBytes += png.size();
        }
    }
}

} // namespace

QJsonObject DatasetInfo::toJson() const
{
    QJsonObject skips;
    for (auto it = skipReasons.cbegin(); it != skipReasons.cend(); ++it)
        skips.insert(it.key(), it.value());
    QJsonObject o{
        {u"kind"_s, QString::fromLatin1(datasetKindName(kind))},
        {u"path"_s, path},
        {u"version_label"_s, versionLabel},
        {u"sha256"_s, sha256},
        {u"source_sha256"_s, sourceSha256},
        {u"source_bytes"_s, sourceBytes},
        {u"parameters"_s, parameters},
        {u"source_items"_s, sourceItems},
        {u"item_count"_s, itemCount},
        {u"skipped"_s, skipped},
        {u"skip_reasons"_s, skips},
        {u"sampled"_s, sampled},
        {u"oversampled"_s, oversampled},
        {u"replaced_surrogates"_s, replacedSurrogates},
        {u"token_counter"_s, tokenCounter},
        {u"approximate_tokens"_s, approximateTokens},
        {u"input_tokens"_s, inputStats.toJson()},
        {u"output_tokens"_s, outputStats.toJson()},
    };
    if (!tokenizer.isEmpty()) {
        QJsonObject t{{u"description"_s, tokenizer}, {u"sha256"_s, tokenizerSha256}};
        if (kind == DatasetKind::Random) {
            t.insert(u"synthetic_words"_s, syntheticWords);
            t.insert(u"fitted_prompts"_s, fittedPrompts);
        }
        o.insert(u"tokenizer"_s, t);
    }
    if (sessions)
        o.insert(u"sessions"_s, QJsonObject{{u"count"_s, sampled}, {u"turns"_s, turns}});
    if (!traceReuse.isEmpty())
        o.insert(u"trace_prefix_reuse"_s, traceReuse);
    if (!imageFilesSha256.isEmpty())
        o.insert(u"image_files_sha256"_s, imageFilesSha256);
    return o;
}

QJsonObject canonicalDatasetParameters(const DatasetSpec &spec, int numPrompts, quint64 seed,
                                       const Tokenizer *tokenizer)
{
    // Only what changes the request list; the seed as a string because JSON numbers are doubles.
    QJsonObject p{
        {u"format"_s, u"servebench-dataset-1"_s},
        {u"kind"_s, QString::fromLatin1(datasetKindName(spec.kind))},
        {u"num_prompts"_s, numPrompts},
        {u"seed"_s, QString::number(seed)},
        {u"token_counter"_s, TokenCounter(tokenizer).name()},
    };
    // Only a tokenizer adds a key: datasets counted without one keep the identity they had.
    if (tokenizer)
        p.insert(u"tokenizer_sha256"_s, tokenizer->sha256());
    switch (spec.kind) {
    case DatasetKind::ShareGpt:
        p.insert(u"output_len"_s, spec.sharegptOutputLen > 0 ? spec.sharegptOutputLen : -1);
        p.insert(u"min_len"_s, kShareGptMinLen);
        p.insert(u"max_prompt_len"_s, kShareGptMaxPromptLen);
        p.insert(u"max_total_len"_s, kShareGptMaxTotalLen);
        p.insert(u"with_replacement"_s, spec.withReplacement);
        break;
    case DatasetKind::Custom:
        p.insert(u"output_len"_s, spec.sharegptOutputLen > 0 ? spec.sharegptOutputLen : -1);
        p.insert(u"default_output_len"_s, kCustomDefaultOutputLen);
        p.insert(u"with_replacement"_s, spec.withReplacement);
        break;
    case DatasetKind::Random:
        p.insert(u"word_list"_s, QString::fromLatin1(SyntheticPromptBuilder::kWordListVersion));
        if (!tokenizer) // with one, words are tokens: the calibration changes nothing
            p.insert(u"tokens_per_word"_s, spec.tokensPerWord);
        p.insert(u"input_len"_s, spec.randomInputLen);
        p.insert(u"output_len"_s, spec.randomOutputLen);
        p.insert(u"prefix_len"_s, spec.randomPrefixLen);
        p.insert(u"distribution"_s,
                 QString::fromLatin1(lengthDistributionName(spec.randomDistribution)));
        if (spec.randomDistribution == LengthDistribution::Uniform) {
            p.insert(u"range_ratio"_s, spec.randomRangeRatio);
        } else {
            p.insert(u"input_stdev"_s, spec.randomInputStdev);
            p.insert(u"output_stdev"_s, spec.randomOutputStdev);
            p.insert(u"input_min"_s, spec.randomInputMin);
            p.insert(u"input_max"_s, spec.randomInputMax);
            p.insert(u"output_min"_s, spec.randomOutputMin);
            p.insert(u"output_max"_s, spec.randomOutputMax);
        }
        break;
    }
    if (spec.imageCount > 0) {
        // Only images add keys: a dataset without them keeps the identity it always had. The
        // generator's version, size and seed determine every image's bytes.
        p.insert(u"images"_s,
                 QJsonObject{{u"generator"_s, QString::fromLatin1(kSyntheticImageGenerator)},
                             {u"count"_s, spec.imageCount},
                             {u"width"_s, spec.imageWidth},
                             {u"height"_s, spec.imageHeight},
                             {u"format"_s, spec.imageFormat},
                             {u"seed"_s, QString::number(spec.imageSeed >= 0
                                                             ? quint64(spec.imageSeed)
                                                             : seed)}});
    }
    if (spec.multiTurn) {
        // Only sessions add keys: a single-request dataset keeps the identity it always had.
        p.insert(u"multi_turn"_s, true);
        p.insert(u"session_format"_s, u"servebench-sessions-1"_s);
        if (spec.kind == DatasetKind::Random) {
            p.insert(u"session_turns"_s, spec.sessionTurns);
            p.insert(u"session_prefix_len"_s, spec.sessionPrefixLen);
        } else
            p.insert(u"max_turns"_s, spec.maxTurns);
    }
    return p;
}

QString datasetIdentityHash(const QString &sourceSha256, const QJsonObject &parameters)
{
    // QJsonDocument writes object keys sorted, so the text is canonical.
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData("servebench-dataset\n");
    h.addData(sourceSha256.toLatin1());
    h.addData("\n");
    h.addData(QJsonDocument(parameters).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(h.result().toHex());
}

bool loadDataset(const DatasetSpec &spec, int numPrompts, quint64 seed, LoadedDataset *out,
                 QString *error, const Tokenizer *tokenizer)
{
    QString err;
    LoadedDataset ds;
    ds.info.kind = spec.kind;
    ds.info.path = spec.path;
    ds.info.versionLabel = spec.versionLabel;
    const TokenCounter counter(tokenizer);
    ds.info.tokenCounter = counter.name();
    ds.info.approximateTokens = !counter.exact();
    SyntheticVocabulary vocab;
    if (tokenizer) {
        ds.info.tokenizer = tokenizer->describe();
        ds.info.tokenizerSha256 = tokenizer->sha256();
        if (spec.kind == DatasetKind::Random && !vocab.build(tokenizer, &err)) {
            if (error)
                *error = err;
            return false;
        }
        ds.info.syntheticWords = vocab.size();
    }
    bool ok = false;
    if (spec.multiTurn && (spec.kind == DatasetKind::Random || !spec.path.isEmpty())) {
        ok = loadSessions(spec, numPrompts, seed, &ds.sessions, &ds.info, &err, counter, vocab);
    } else if (spec.kind != DatasetKind::Random && spec.path.isEmpty()) {
        err = u"no dataset path given for a %1 dataset"_s.arg(
            QString::fromLatin1(datasetKindName(spec.kind)));
    } else {
        switch (spec.kind) {
        case DatasetKind::Random:
            ok = loadRandom(spec, numPrompts, seed, vocab, &ds, &err);
            break;
        case DatasetKind::ShareGpt:
            ok = loadShareGpt(spec, numPrompts, seed, counter, &ds, &err);
            break;
        case DatasetKind::Custom:
            ok = loadCustom(spec, numPrompts, seed, counter, &ds, &err);
            break;
        }
    }
    if (!ok) {
        if (error)
            *error = err;
        return false;
    }
    DatasetInfo &info = ds.info;
    if (spec.imageCount > 0 && !spec.multiTurn) {
        if (spec.imageWidth < 1 || spec.imageHeight < 1 || spec.imageFormat != "png"_L1) {
            if (error)
                *error = u"images must be png of at least 1x1 pixels, got %1 %2x%3"_s.arg(
                    spec.imageFormat, QString::number(spec.imageWidth),
                    QString::number(spec.imageHeight));
            return false;
        }
        attachSyntheticImages(spec, seed, &ds.items);
    }
    info.parameters = canonicalDatasetParameters(spec, numPrompts, seed, tokenizer);
    // Image files a custom dataset names are part of its identity by their bytes.
    if (!info.imageFilesSha256.isEmpty())
        info.parameters.insert(u"image_files_sha256"_s, info.imageFilesSha256);
    info.sha256 = datasetIdentityHash(info.sourceSha256, info.parameters);
    info.sampled = spec.multiTurn ? ds.sessions.size() : ds.items.size();
    QList<qint32> in, outLens;
    in.reserve(ds.items.size());
    outLens.reserve(ds.items.size());
    for (const PromptItem &item : std::as_const(ds.items)) {
        in.append(item.inputTokens);
        outLens.append(item.outputTokens);
    }
    info.sessions = spec.multiTurn;
    for (const SessionItem &s : std::as_const(ds.sessions)) {
        for (const SessionTurn &t : s.turns) {
            in.append(t.userTokens);
            outLens.append(t.outputTokens);
        }
        info.turns += s.turns.size();
    }
    info.inputStats = LengthStats::of(in);
    info.outputStats = LengthStats::of(outLens);
    *out = std::move(ds);
    return true;
}

} // namespace sb
