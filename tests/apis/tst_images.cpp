// Images in prompts (docs/datasets.md, "Images in prompts"): the core's own PNG writer (decoded
// here by Qt GUI's PNG reader, an implementation that shares nothing with it; signature, IHDR and
// every chunk's CRC checked by hand too), the synthetic images a dataset draws from its seed
// (same seed, same bytes; the dataset hash follows the image seed, size and count), a custom
// JSONL dataset naming image files (a missing file is an error naming the file and line), the
// chat and Responses bodies that carry them as data URLs, and the flags and plan checks.

#include "client/requestbuilder.h"
#include "config/runplan.h"
#include "data/dataset.h"
#include "data/syntheticimage.h"
#include "run/planvalidation.h"
#include "run/runflags.h"
#include "run/runrequest.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <functional>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

quint32 be32(const QByteArray &b, qsizetype at)
{
    return qFromBigEndian<quint32>(b.constData() + at);
}

struct Chunk
{
    QByteArray type;
    QByteArray data;
    bool crcOk = false;
};

// The chunks of a PNG file, each with whether its stored CRC-32 is right (computed here with
// zlib's polynomial bit by bit, not with the writer's table).
QList<Chunk> chunks(const QByteArray &png)
{
    QList<Chunk> out;
    qsizetype at = 8;
    while (at + 12 <= png.size()) {
        const quint32 len = be32(png, at);
        Chunk c;
        c.type = png.mid(at + 4, 4);
        c.data = png.mid(at + 8, len);
        quint32 crc = 0xFFFFFFFFu;
        for (qsizetype i = at + 4; i < at + 8 + qsizetype(len); ++i) {
            crc ^= uchar(png.at(i));
            for (int k = 0; k < 8; ++k)
                crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
        c.crcOk = (crc ^ 0xFFFFFFFFu) == be32(png, at + 8 + len);
        out.append(c);
        at += 12 + len;
    }
    return out;
}

QByteArray decodeDataUrl(const QByteArray &url, QByteArray *mime = nullptr)
{
    const qsizetype comma = url.indexOf(',');
    if (mime)
        *mime = url.left(comma);
    return QByteArray::fromBase64(url.mid(comma + 1));
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QJsonObject parse(const QByteArray &json)
{
    QJsonParseError e;
    const QJsonObject o = QJsonDocument::fromJson(json, &e).object();
    if (e.error != QJsonParseError::NoError)
        qWarning("bad JSON: %s", qPrintable(e.errorString()));
    return o;
}

} // namespace

class TestImages : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void crc32KnownValue()
    {
        // The check value of CRC-32/ISO-HDLC (zlib's crc32, PNG's).
        QCOMPARE(crc32("123456789", 9), 0xCBF43926u);
        QCOMPARE(crc32("", 0), 0u);
    }

    void pngIsValid_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("512x512") << 512 << 512;
        QTest::newRow("1x1") << 1 << 1;
        QTest::newRow("3x700") << 3 << 700; // scanlines that are not a multiple of 8 bytes
        QTest::newRow("1000x90") << 1000 << 90; // more than one stored deflate block
    }
    void pngIsValid()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        const QByteArray png = syntheticPng(width, height, 42);
        QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        QCOMPARE(imageMimeType(png), "image/png");
        const QList<Chunk> cs = chunks(png);
        QCOMPARE(cs.size(), 3);
        QCOMPARE(cs.at(0).type, QByteArray("IHDR"));
        QCOMPARE(cs.at(1).type, QByteArray("IDAT"));
        QCOMPARE(cs.at(2).type, QByteArray("IEND"));
        for (const Chunk &c : cs)
            QVERIFY2(c.crcOk, c.type.constData());
        const QByteArray &ihdr = cs.at(0).data;
        QCOMPARE(ihdr.size(), 13);
        QCOMPARE(be32(ihdr, 0), quint32(width));
        QCOMPARE(be32(ihdr, 4), quint32(height));
        QCOMPARE(int(ihdr.at(8)), 8); // bit depth
        QCOMPARE(int(ihdr.at(9)), 2); // RGB
        QCOMPARE(int(ihdr.at(12)), 0); // no interlace
        // Qt GUI's reader (libpng or Qt's own) decodes it.
        const QImage img = QImage::fromData(png, "PNG");
        QVERIFY(!img.isNull());
        QCOMPARE(img.width(), width);
        QCOMPARE(img.height(), height);
        QVERIFY(!img.hasAlphaChannel());
    }

    // The pixels read back are the pixels written.
    void encodePixels()
    {
        const int w = 3, h = 2;
        QByteArray rgb;
        for (int i = 0; i < w * h; ++i) {
            rgb += char(10 * i);
            rgb += char(255 - i);
            rgb += char(i * 37 % 256);
        }
        const QImage img = QImage::fromData(encodePngRgb(w, h, rgb), "PNG");
        QCOMPARE(img.size(), QSize(w, h));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int i = y * w + x;
                QCOMPARE(img.pixel(x, y), qRgb(uchar(rgb[3 * i]), uchar(rgb[3 * i + 1]),
                                               uchar(rgb[3 * i + 2])));
            }
        // The noise image decodes to the noise: two seeds, two different pictures.
        const QImage a = QImage::fromData(syntheticPng(16, 16, 1), "PNG");
        const QImage b = QImage::fromData(syntheticPng(16, 16, 2), "PNG");
        QVERIFY(a != b);
    }

    void deterministic()
    {
        QCOMPARE(syntheticPng(64, 32, 7), syntheticPng(64, 32, 7));
        QVERIFY(syntheticPng(64, 32, 7) != syntheticPng(64, 32, 8));
        // 512 x 512 RGB noise: 786,944 bytes of scanlines stored in 13 deflate blocks.
        QCOMPARE(syntheticPng(512, 512, 1).size(), qsizetype(787072));
        QSet<quint64> seeds;
        for (int item = 0; item < 50; ++item)
            for (int k = 0; k < 4; ++k)
                seeds.insert(syntheticImageSeed(5, item, k));
        QCOMPARE(seeds.size(), 200);
        QCOMPARE(syntheticImageSeed(5, 3, 1), syntheticImageSeed(5, 3, 1));
    }

    // A dataset draws its images from its seed; the hash follows the image seed, size and count.
    void syntheticDataset()
    {
        DatasetSpec spec;
        spec.randomInputLen = 8;
        spec.randomOutputLen = 4;
        spec.imageCount = 2;
        spec.imageWidth = 256;
        spec.imageHeight = 128;
        LoadedDataset a, b;
        QString error;
        QVERIFY2(loadDataset(spec, 3, 7, &a, &error), qPrintable(error));
        QVERIFY2(loadDataset(spec, 3, 7, &b, &error), qPrintable(error));
        QCOMPARE(a.items.size(), 3);
        QSet<QByteArray> distinct;
        for (qsizetype i = 0; i < a.items.size(); ++i) {
            const PromptItem &item = a.items.at(i);
            QCOMPARE(item.images.size(), 2);
            QCOMPARE(item.images, b.items.at(i).images); // same seed, same bytes
            qint64 bytes = 0;
            for (const QByteArray &url : item.images) {
                QByteArray mime;
                const QByteArray png = decodeDataUrl(url, &mime);
                QCOMPARE(mime, QByteArray("data:image/png;base64"));
                QCOMPARE(QImage::fromData(png, "PNG").size(), QSize(256, 128));
                bytes += png.size();
                distinct.insert(png);
            }
            QCOMPARE(item.imageBytes, bytes);
        }
        QCOMPARE(distinct.size(), 6); // no two requests share an image
        QCOMPARE(a.info.sha256, b.info.sha256);

        const auto hashWith = [&](const std::function<void(DatasetSpec *)> &change) {
            DatasetSpec s = spec;
            change(&s);
            LoadedDataset d;
            QString e;
            if (!loadDataset(s, 3, 7, &d, &e))
                return e;
            return d.info.sha256;
        };
        const QString base = a.info.sha256;
        QVERIFY(hashWith([](DatasetSpec *s) { s->imageSeed = 99; }) != base);
        QVERIFY(hashWith([](DatasetSpec *s) { s->imageCount = 1; }) != base);
        QVERIFY(hashWith([](DatasetSpec *s) { s->imageWidth = 255; }) != base);
        QVERIFY(hashWith([](DatasetSpec *s) { s->imageHeight = 129; }) != base);
        // The image seed given as the run's seed names the same images.
        QCOMPARE(hashWith([](DatasetSpec *s) { s->imageSeed = 7; }), base);
        // A dataset without images keeps the identity it had before images existed.
        DatasetSpec plain = spec;
        plain.imageCount = 0;
        LoadedDataset p;
        QVERIFY(loadDataset(plain, 3, 7, &p, &error));
        QVERIFY(!p.info.parameters.contains(u"images"_s));
        QCOMPARE(p.info.sha256, datasetIdentityHash(QString(), p.info.parameters));
        QVERIFY(p.items.at(0).images.isEmpty());
        // Another image seed draws other images.
        DatasetSpec other = spec;
        other.imageSeed = 99;
        LoadedDataset o;
        QVERIFY(loadDataset(other, 3, 7, &o, &error));
        QVERIFY(o.items.at(0).images != a.items.at(0).images);
        QCOMPARE(o.items.at(0).prompt, a.items.at(0).prompt); // the text stays
    }

    void jsonlImages()
    {
        QVERIFY(m_dir.isValid());
        const QString root = m_dir.filePath(u"jsonl"_s);
        const QByteArray one = syntheticPng(8, 8, 1);
        const QByteArray two = syntheticPng(4, 2, 2);
        writeFile(root + u"/img/one.png"_s, one);
        writeFile(root + u"/two.png"_s, two);
        const QString path = root + u"/data.jsonl"_s;
        writeFile(path, QByteArray(R"({"prompt": "first", "images": ["img/one.png"]})"
                                   "\n\n"
                                   R"({"prompt": "second", "images": ["two.png", "img/one.png"]})"
                                   "\n"
                                   R"({"prompt": "third"})"
                                   "\n"));
        DatasetSpec spec;
        spec.kind = DatasetKind::Custom;
        spec.path = path;
        LoadedDataset d;
        QString error;
        QVERIFY2(loadDataset(spec, 0, 1, &d, &error), qPrintable(error));
        QCOMPARE(d.items.size(), 3);
        int withImages = 0;
        for (const PromptItem &item : std::as_const(d.items)) {
            if (item.sourceIndex == 1) {
                QCOMPARE(item.images.size(), 1);
                QCOMPARE(decodeDataUrl(item.images.at(0)), one);
                QCOMPARE(item.imageBytes, qint64(one.size()));
                ++withImages;
            } else if (item.sourceIndex == 3) {
                QCOMPARE(item.images.size(), 2);
                QCOMPARE(decodeDataUrl(item.images.at(0)), two);
                QCOMPARE(decodeDataUrl(item.images.at(1)), one);
                QCOMPARE(item.imageBytes, qint64(one.size() + two.size()));
                ++withImages;
            } else {
                QVERIFY(item.images.isEmpty());
                QCOMPARE(item.imageBytes, qint64(0));
            }
        }
        QCOMPARE(withImages, 2);
        QVERIFY(!d.info.imageFilesSha256.isEmpty());
        QCOMPARE(d.info.parameters.value(u"image_files_sha256"_s).toString(),
                 d.info.imageFilesSha256);

        // The images are part of the identity: the same JSONL with another image is another
        // dataset.
        const QString before = d.info.sha256;
        writeFile(root + u"/two.png"_s, syntheticPng(4, 2, 3));
        LoadedDataset changed;
        QVERIFY2(loadDataset(spec, 0, 1, &changed, &error), qPrintable(error));
        QVERIFY(changed.info.sha256 != before);
        QCOMPARE(changed.info.sourceSha256, d.info.sourceSha256); // the JSONL itself is the same
    }

    void jsonlImageErrors_data()
    {
        QTest::addColumn<QByteArray>("line3");
        QTest::addColumn<QString>("said");
        QTest::newRow("missing file")
            << QByteArray(R"({"prompt": "x", "images": ["pics/nope.png"]})")
            << u"data.jsonl:3: image file \"pics/nope.png\" not found"_s;
        QTest::newRow("not a list") << QByteArray(R"({"prompt": "x", "images": "a.png"})")
                                    << u"data.jsonl:3: field \"images\" must be an array"_s;
        QTest::newRow("not a name") << QByteArray(R"({"prompt": "x", "images": [3]})")
                                    << u"data.jsonl:3: field \"images[0]\""_s;
        QTest::newRow("not an image") << QByteArray(R"({"prompt": "x", "images": ["text.txt"]})")
                                      << u"data.jsonl:3: image file"_s;
    }
    void jsonlImageErrors()
    {
        QFETCH(QByteArray, line3);
        QFETCH(QString, said);
        const QString root = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())
                                                 .replace(u' ', u'_'));
        writeFile(root + u"/text.txt"_s, "not an image");
        const QString path = root + u"/data.jsonl"_s;
        writeFile(path, QByteArray(R"({"prompt": "a"})"
                                   "\n"
                                   R"({"prompt": "b"})"
                                   "\n") +
                            line3 + '\n');
        DatasetSpec spec;
        spec.kind = DatasetKind::Custom;
        spec.path = path;
        LoadedDataset d;
        QString error;
        QVERIFY(!loadDataset(spec, 0, 1, &d, &error));
        QVERIFY2(error.contains(said), qPrintable(error));
        QVERIFY2(error.contains(QFileInfo(path).fileName()), qPrintable(error));
    }

    void bodies_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::addColumn<bool>("withMessages");
        QTest::newRow("chat") << int(ApiFlavour::Chat) << false;
        QTest::newRow("chat, messages") << int(ApiFlavour::Chat) << true;
        QTest::newRow("responses") << int(ApiFlavour::Responses) << false;
        QTest::newRow("responses, messages") << int(ApiFlavour::Responses) << true;
    }
    void bodies()
    {
        QFETCH(int, flavour);
        QFETCH(bool, withMessages);
        const bool responses = flavour == int(ApiFlavour::Responses);
        SutConfig sut;
        sut.flavour = ApiFlavour(flavour);
        sut.model = u"vl"_s;
        const QList<QByteArray> images = {imageDataUrl(syntheticPng(4, 4, 1), "image/png"),
                                          imageDataUrl(syntheticPng(4, 4, 2), "image/png")};
        const QJsonArray messages =
            withMessages ? QJsonArray{QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"sys"_s}},
                                      QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"look"_s}},
                                      QJsonObject{{u"role"_s, u"assistant"_s},
                                                  {u"content"_s, u"ok"_s}}}
                         : QJsonArray();
        const QByteArray body = buildRequestBody(sut, {}, u"look"_s, messages, 16, images);
        const QJsonObject o = parse(body);
        const QJsonArray sent = o.value(responses ? u"input"_s : u"messages"_s).toArray();
        // The images go with the (last) user message, after its text.
        QJsonObject user;
        for (const QJsonValue &m : sent)
            if (m.toObject().value(u"role"_s).toString() == "user"_L1)
                user = m.toObject();
        const QJsonArray parts = user.value(u"content"_s).toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts.at(0).toObject().value(u"type"_s).toString(),
                 responses ? u"input_text"_s : u"text"_s);
        QCOMPARE(parts.at(0).toObject().value(u"text"_s).toString(), u"look"_s);
        for (int k = 0; k < 2; ++k) {
            const QJsonObject part = parts.at(k + 1).toObject();
            if (responses) {
                QCOMPARE(part.value(u"type"_s).toString(), u"input_image"_s);
                QCOMPARE(part.value(u"image_url"_s).toString().toLatin1(), images.at(k));
            } else {
                QCOMPARE(part.value(u"type"_s).toString(), u"image_url"_s);
                QCOMPARE(part.value(u"image_url"_s).toObject().value(u"url"_s).toString().toLatin1(),
                         images.at(k));
            }
        }
        QCOMPARE(o.value(u"stream"_s).toBool(), true);
        if (withMessages)
            QCOMPARE(sent.at(0).toObject().value(u"content"_s).toString(), u"sys"_s);
    }

    // A prompt that holds the writer's own marker still gets its images, in their places.
    void markerInPrompt()
    {
        SutConfig sut;
        sut.flavour = ApiFlavour::Chat;
        const QString tricky = QChar(0) + u"sb-image-0"_s + QChar(0);
        const QList<QByteArray> images = {"data:image/png;base64,QUJD"};
        const QJsonObject o = parse(buildRequestBody(sut, {}, tricky, {}, 4, images));
        const QJsonArray parts =
            o.value(u"messages"_s).toArray().at(0).toObject().value(u"content"_s).toArray();
        QCOMPARE(parts.at(0).toObject().value(u"text"_s).toString(), tricky);
        QCOMPARE(parts.at(1).toObject().value(u"image_url"_s).toObject().value(u"url"_s).toString(),
                 u"data:image/png;base64,QUJD"_s);
    }

    void flags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<qint64>("seed");
        QTest::newRow("--image-count") << QStringList{u"--image-count"_s, u"2"_s, u"--image-width"_s,
                                                      u"640"_s, u"--image-seed"_s, u"9"_s}
                                       << 2 << 640 << 512 << qint64(9);
        QTest::newRow("vLLM's names")
            << QStringList{u"--num-prompts"_s, u"50"_s, u"--random-mm-base-items-per-request"_s, u"3"_s,
                           u"--random-mm-bucket-config"_s, u"{(720, 1280, 1): 1.0}"_s}
            << 3 << 1280 << 720 << qint64(-1);
    }
    void flags()
    {
        QFETCH(QStringList, args);
        QFETCH(int, count);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(qint64, seed);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags(QStringList{u"--backend"_s, u"openai-chat"_s} + args, &r, &opts,
                               &error),
                 qPrintable(error));
        const DatasetSpec &d = r.plan.dataset;
        QCOMPARE(d.imageCount, count);
        QCOMPARE(d.imageWidth, width);
        QCOMPARE(d.imageHeight, height);
        QCOMPARE(d.imageSeed, seed);
        QVERIFY(validateRunRequest(r).isEmpty());
        RunRequest again;
        QVERIFY2(parseRunFlags(runFlags(r), &again, &opts, &error), qPrintable(error));
        QCOMPARE(again.plan.dataset.toJson(), d.toJson());
        QCOMPARE(DatasetSpec::fromJson(d.toJson()).toJson(), d.toJson());
    }

    void planChecks_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("field");
        QTest::newRow("completions") << QStringList{u"--image-count"_s, u"1"_s}
                                     << u"image-count"_s;
        QTest::newRow("embeddings") << QStringList{u"--backend"_s, u"openai-embeddings"_s,
                                                   u"--image-count"_s, u"1"_s}
                                    << u"image-count"_s;
        QTest::newRow("jpeg") << QStringList{u"--backend"_s, u"openai-chat"_s, u"--image-count"_s,
                                             u"1"_s, u"--image-format"_s, u"jpeg"_s}
                              << u"image-format"_s;
        QTest::newRow("memory") << QStringList{u"--backend"_s, u"openai-chat"_s,
                                               u"--image-count"_s, u"8"_s, u"--image-width"_s,
                                               u"4096"_s, u"--image-height"_s, u"4096"_s}
                                << u"image-count"_s;
    }
    void planChecks()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, field);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags(args, &r, &opts, &error), qPrintable(error));
        bool found = false;
        for (const PlanIssue &i : validateRunRequest(r))
            found = found || i.field == field;
        QVERIFY(found);
    }
};

QTEST_MAIN(TestImages)
#include "tst_images.moc"
