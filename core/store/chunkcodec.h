#pragma once

#include <QByteArray>
#include <QList>

class QString;

namespace sb {

// Per-request chunk receive times and token counts, packed into one blob per request: millions
// of chunks per run would otherwise be millions of rows.
//
// Layout (all integers unsigned LEB128 varints unless noted):
//   byte 0   format version (1)
//   byte 1   flags: bits 0-3 time unit exponent e (unit = 10^e ns, e <= 9),
//                   bits 4-5 token mode (0 = every chunk carries 1 token, 1 = one varint per
//                   chunk, 2 = run-length pairs (value, length))
//   varint   chunk count n
//   n varints  zigzag(time delta / unit); the first delta is from baseNs (the request's tSend),
//              each next one from the previous chunk. Deltas are taken modulo 2^64, so any
//              qint64 sequence (out of order, before the base, huge gaps) round-trips exactly.
//   varint   token count m (equals n for every record the client makes; kept so that any pair of
//            lists round-trips)
//   tokens   as the token mode says; values are zigzag so a bogus negative count survives.
//
// Units: the encoder picks the largest unit that loses nothing (all deltas divisible by it), so
// the blob is always lossless. CLOCK_MONOTONIC nanoseconds nearly never divide evenly, so real
// runs use 1 ns: a 10-200 ms inter-token gap costs 4 varint bytes, against 3 bytes in 100 ns
// units. We keep the byte: the stored records are the evidence every metric is traced back to,
// a metric recomputed from a loaded run must equal the live one, and tFirst must stay equal to
// the first chunk time.
QByteArray encodeChunks(const QList<qint64> &timesNs, const QList<qint32> &tokens, qint64 baseNs);

// Returns false (and leaves the lists empty) for a blob that is truncated, has trailing bytes,
// an unknown version or mode, an oversized varint or a count the blob cannot hold. An empty
// blob decodes to no chunks.
bool decodeChunks(const QByteArray &blob, qint64 baseNs, QList<qint64> *timesNs,
                  QList<qint32> *tokens, QString *error = nullptr);

} // namespace sb
