#include "syntheticimage.h"

#include <QtEndian>

#include <array>
#include <cstring>

namespace sb {

namespace {

constexpr quint64 splitmix64(quint64 *state)
{
    quint64 z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr std::array<quint32, 256> crcTable()
{
    std::array<quint32, 256> t{};
    for (quint32 n = 0; n < 256; ++n) {
        quint32 c = n;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
    return t;
}

constexpr std::array<quint32, 256> kCrcTable = crcTable();

void appendBigEndian(QByteArray *out, quint32 v)
{
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out->append(b, 4);
}

// length, type, data, CRC-32 over type and data (PNG specification, 5.3).
void appendChunk(QByteArray *out, const char type[4], const QByteArray &data)
{
    appendBigEndian(out, quint32(data.size()));
    const qsizetype start = out->size();
    out->append(type, 4);
    out->append(data);
    appendBigEndian(out, crc32(out->constData() + start, out->size() - start));
}

} // namespace

quint32 crc32(const char *data, qsizetype size)
{
    quint32 c = 0xFFFFFFFFu;
    const auto *p = reinterpret_cast<const uchar *>(data);
    for (qsizetype i = 0; i < size; ++i)
        c = kCrcTable[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

QByteArray encodePngRgb(int width, int height, const QByteArray &rgb)
{
    const qsizetype row = qsizetype(width) * 3;
    // Every scanline starts with its filter type: 0 (none).
    QByteArray raw(qsizetype(height) * (row + 1), Qt::Uninitialized);
    for (int y = 0; y < height; ++y) {
        char *line = raw.data() + qsizetype(y) * (row + 1);
        line[0] = 0;
        std::memcpy(line + 1, rgb.constData() + qsizetype(y) * row, size_t(row));
    }
    // qCompress writes the zlib stream behind a 4-byte length of its own. Level 0 stores the
    // bytes: noise does not compress, and the stream stays as valid as any level's.
    const QByteArray zlib = qCompress(raw, 0).mid(4);

    QByteArray ihdr;
    appendBigEndian(&ihdr, quint32(width));
    appendBigEndian(&ihdr, quint32(height));
    ihdr.append(char(8)); // bit depth
    ihdr.append(char(2)); // colour type: RGB
    ihdr.append(char(0)); // compression: deflate
    ihdr.append(char(0)); // filter method 0
    ihdr.append(char(0)); // no interlace

    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    png.reserve(8 + 25 + zlib.size() + 12 + 12);
    appendChunk(&png, "IHDR", ihdr);
    appendChunk(&png, "IDAT", zlib);
    appendChunk(&png, "IEND", QByteArray());
    return png;
}

QByteArray syntheticPng(int width, int height, quint64 seed)
{
    const qsizetype size = qsizetype(width) * height * 3;
    QByteArray rgb(size, Qt::Uninitialized);
    quint64 state = seed;
    char *p = rgb.data();
    qsizetype i = 0;
    for (; i + 8 <= size; i += 8) {
        const quint64 v = qToLittleEndian(splitmix64(&state));
        std::memcpy(p + i, &v, 8);
    }
    if (i < size) {
        const quint64 v = qToLittleEndian(splitmix64(&state));
        std::memcpy(p + i, &v, size_t(size - i));
    }
    return encodePngRgb(width, height, rgb);
}

quint64 syntheticImageSeed(quint64 imageSeed, qint64 item, int image)
{
    quint64 state = imageSeed ^ 0x5EB1A6E5u;
    quint64 s = splitmix64(&state);
    state = s ^ quint64(item);
    s = splitmix64(&state);
    state = s ^ quint64(image);
    return splitmix64(&state);
}

QByteArray imageDataUrl(const QByteArray &bytes, const char *mime)
{
    return QByteArray("data:") + mime + ";base64," + bytes.toBase64();
}

const char *imageMimeType(const QByteArray &b)
{
    if (b.startsWith("\x89PNG\r\n\x1a\n"))
        return "image/png";
    if (b.startsWith("\xFF\xD8\xFF"))
        return "image/jpeg";
    if (b.startsWith("GIF87a") || b.startsWith("GIF89a"))
        return "image/gif";
    if (b.size() >= 12 && b.startsWith("RIFF") && b.mid(8, 4) == "WEBP")
        return "image/webp";
    return nullptr;
}

} // namespace sb
