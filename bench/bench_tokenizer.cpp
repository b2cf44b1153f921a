// Tokenizer throughput and load time, beside the reference implementations measured in the same
// run (bench_tokenizer_reference.mjs: @huggingface/tokenizers and tiktoken under Node.js).
//
//   bench_tokenizer [reference-dir] [megabytes=2] [runs=3]
//
// reference-dir holds the npm packages and the expected files of the tokenizer tests; by default
// the build tree's tests/tokenizer/reference, filled by `ctest -R tokenizer`. One core: every
// figure is one thread encoding chunks of about 2 KB one after another.

#include "common/clock.h"
#include "tokenizer/tokenizer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString findUp(const QString &rel)
{
    QDir dir(QCoreApplication::applicationDirPath());
    for (int i = 0; i < 6; ++i) {
        if (QFileInfo::exists(dir.filePath(rel)))
            return dir.filePath(rel);
        if (!dir.cdUp())
            break;
    }
    return {};
}

std::vector<QByteArray> readChunks(const QString &path)
{
    std::vector<QByteArray> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        // Wrap in an array so QJsonDocument accepts the bare string; escape U+FEFF (Qt's parser
        // drops one at the start of a string).
        QByteArray escaped = line;
        escaped.replace("\xEF\xBB\xBF", "\\ufeff");
        const QJsonDocument d = QJsonDocument::fromJson("[" + escaped + "]");
        out.push_back(d.array().at(0).toString().toUtf8());
    }
    return out;
}

struct Figure
{
    double median = 0;
    double min = 0;
    double max = 0;
};

Figure summarize(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

Figure encodeRate(const Tokenizer &t, const std::vector<QByteArray> &chunks, int runs,
                  qint64 *tokens)
{
    qint64 bytes = 0;
    for (const QByteArray &c : chunks)
        bytes += c.size();
    std::vector<double> rates;
    for (int r = -1; r < runs; ++r) { // run -1 warms the caches and is not counted
        qint64 n = 0;
        const qint64 t0 = monotonicNs();
        for (const QByteArray &c : chunks)
            n += t.countUtf8(std::string_view(c.constData(), size_t(c.size())));
        const double s = nsToS(monotonicNs() - t0);
        *tokens = n;
        if (r >= 0)
            rates.push_back(double(bytes) / 1e6 / s);
    }
    return summarize(rates);
}

QByteArray loadavg()
{
    QFile f(u"/proc/loadavg"_s);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray("?");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QString refDir = args.size() > 1 ? args.at(1) : findUp(u"tests/tokenizer/reference"_s);
    const int megabytes = args.size() > 2 ? args.at(2).toInt() : 2;
    const int runs = args.size() > 3 ? args.at(3).toInt() : 3;
    const QString manifestPath = QDir(refDir).filePath(u"expected/manifest.json"_s);
    if (refDir.isEmpty() || !QFileInfo::exists(manifestPath)) {
        std::fprintf(stderr,
                     "no reference dir with expected/manifest.json (got \"%s\"): run `ctest -R "
                     "tokenizer` in the build tree first, or pass the directory\n",
                     qPrintable(refDir));
        return 1;
    }
    const QString corpus = findUp(u"tests/data/tokenizer/corpus.jsonl"_s);
    const QString script = findUp(u"bench/bench_tokenizer_reference.mjs"_s);
    if (corpus.isEmpty() || script.isEmpty()) {
        std::fprintf(stderr, "cannot find the source tree (corpus.jsonl, bench script)\n");
        return 1;
    }
    const QString benchDir = QDir(refDir).filePath(u"bench"_s);
    std::printf("load before: %s\n", loadavg().constData());

    // The reference side first: it also writes the corpora both sides encode.
    QProcess node;
    node.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    node.start(u"node"_s, {script, refDir, corpus, benchDir, QString::number(megabytes),
                           QString::number(runs)});
    if (!node.waitForFinished(-1) || node.exitCode() != 0) {
        std::fprintf(stderr, "node %s failed: %s\n", qPrintable(script),
                     qPrintable(node.errorString()));
        return 1;
    }
    const QJsonObject reference = QJsonDocument::fromJson(node.readAllStandardOutput()).object();
    const std::vector<QByteArray> english = readChunks(QDir(benchDir).filePath(u"english.jsonl"_s));
    const std::vector<QByteArray> mixed = readChunks(QDir(benchDir).filePath(u"mixed.jsonl"_s));
    qint64 englishBytes = 0;
    qint64 mixedBytes = 0;
    for (const QByteArray &c : english)
        englishBytes += c.size();
    for (const QByteArray &c : mixed)
        mixedBytes += c.size();
    std::printf("corpora: english %.2f MB in %zu chunks, mixed %.2f MB in %zu chunks; %d runs, "
                "median [min - max]\n\n",
                double(englishBytes) / 1e6, english.size(), double(mixedBytes) / 1e6, mixed.size(),
                runs);

    QFile manifestFile(manifestPath);
    manifestFile.open(QIODevice::ReadOnly);
    const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
    std::printf("%-12s %9s %22s %10s %22s %10s %8s %8s %s\n", "tokenizer", "file MB",
                "load s (ours)", "(ref)", "english MB/s (ours)", "(ref)", "mixed", "(ref)",
                "tokens/MB en");
    for (const QString &name :
         {u"qwen3"_s, u"llama3"_s, u"llama2"_s, u"gemma3"_s, u"cl100k_base"_s, u"o200k_base"_s}) {
        const QString path = manifest.value(name).toString();
        const QString file =
            QFileInfo(path).isDir() ? QDir(path).filePath(u"tokenizer.json"_s) : path;
        std::vector<double> loads;
        std::unique_ptr<Tokenizer> t;
        for (int r = 0; r < runs; ++r) {
            QString error;
            const qint64 t0 = monotonicNs();
            t = Tokenizer::load(path, &error);
            loads.push_back(nsToS(monotonicNs() - t0));
            if (!t) {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                return 1;
            }
        }
        qint64 tokens = 0;
        const Figure load = summarize(loads);
        const Figure en = encodeRate(*t, english, runs, &tokens);
        const double tokensPerMb = double(tokens) / (double(englishBytes) / 1e6);
        const Figure mx = encodeRate(*t, mixed, runs, &tokens);
        const QJsonObject ref = reference.value(name).toObject();
        std::printf("%-12s %9.1f %6.3f [%.3f-%.3f] %10.3f %6.1f [%.1f-%.1f] %10.2f %8.1f %8.2f "
                    "%.0f\n",
                    qPrintable(name), double(QFileInfo(file).size()) / 1e6, load.median, load.min,
                    load.max, ref.value("load_s"_L1).toDouble(), en.median, en.min, en.max,
                    ref.value("english"_L1).toDouble(), mx.median, ref.value("mixed"_L1).toDouble(),
                    tokensPerMb);
    }
    std::printf(
        "\n(ref): %s for the tokenizer.json files, %s for cl100k_base/o200k_base;\n"
        "its load time is the JavaScript constructor after JSON.parse (tiktoken: "
        "building the encoder from its rank data).\n",
        qPrintable(reference.value("qwen3"_L1).toObject().value("implementation"_L1).toString()),
        qPrintable(
            reference.value("cl100k_base"_L1).toObject().value("implementation"_L1).toString()));
    std::printf("load after: %s\n", loadavg().constData());
    return 0;
}
