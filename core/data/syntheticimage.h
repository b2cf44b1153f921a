#pragma once

#include <QByteArray>
#include <QString>

namespace sb {

// Images in prompts (docs/datasets.md, "Images in prompts"). The core links no Qt GUI module, so
// its images are PNG written here: 8-bit RGB, no interlace, one zlib stream (qCompress) of
// scanlines with filter type 0, and the CRC-32 of every chunk. JPEG would need Qt GUI's image
// plugins and is not offered.

// The version of the generator below, part of a dataset's identity: bytes made by another
// version would be other images.
inline constexpr char kSyntheticImageGenerator[] = "servebench-png-noise-1";

// The PNG file of `width` x `height` pixels of seeded noise: every byte of the RGB samples is
// drawn from splitmix64 over `seed` (vLLM's random-mm images are uniform noise too). The same
// arguments give the same bytes on every machine. width and height must be at least 1.
QByteArray syntheticPng(int width, int height, quint64 seed);

// The seed of image `image` (0-based) of request-list item `item`, from the dataset's image
// seed: distinct for every (item, image), so no two requests share an image a server could
// cache.
quint64 syntheticImageSeed(quint64 imageSeed, qint64 item, int image);

// A PNG file from raw 8-bit RGB samples (width * height * 3 bytes, rows top to bottom).
QByteArray encodePngRgb(int width, int height, const QByteArray &rgb);

// CRC-32 (ISO 3309, as PNG and zlib's crc32 compute it) of `data`.
quint32 crc32(const char *data, qsizetype size);

// "data:<mime>;base64,<the bytes>": the form chat and Responses requests carry images in.
QByteArray imageDataUrl(const QByteArray &bytes, const char *mime);

// The MIME type of an image file from its first bytes (PNG, JPEG, GIF, WebP); null when it is
// none of them.
const char *imageMimeType(const QByteArray &bytes);

} // namespace sb
