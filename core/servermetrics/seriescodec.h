#pragma once

#include <QByteArray>

class QString;

namespace sb {

class MetricSeriesStore;

// One target's scrapes for one run, packed into one blob (the store keeps it per target per
// run). Lossless: decode(encode(store)) == store, every double bit for bit.
//
// Layout (integers are unsigned LEB128 varints unless noted; strings are a varint byte length
// and UTF-8 bytes):
//   byte     format version (1)
//   string   target name, string URL (no user-info: see MetricSeriesStore::setIdentity)
//   varint   detail string count d, then d strings (scrape details are stored once each)
//   varint   scrape count s; per scrape:
//              zigzag(tNs - previous tNs) (the first from 0), zigzag(durationNs),
//              byte outcome, varint httpStatus, varint bytes, varint samples,
//              varint malformed lines, varint detail index + 1 (0: none)
//   varint   series count; per series:
//              string key (name{labels}, PromParser::seriesKey), byte type, varint n points,
//              n varints: scrape index - previous index - 1 (the first from -1): a series present
//              in every scrape costs one 0 byte per point,
//              n values, each relative to the previous value (the first to 0.0), by whichever
//              of two exact forms is shorter:
//              - XOR of the bits: a zero XOR (value unchanged) is one 0 byte; otherwise a
//                control byte 1 + 8 x (leading zero bytes) + (trailing zero bytes) and the
//                remaining middle bytes, least significant first;
//              - when both values are integers below 2^53 (counters, histogram counts): the
//                control byte 65 and zigzag(value - previous) as a varint.
// Counters that grow by small steps and gauges that rarely move cost 1-4 bytes a point instead
// of 16. The series names, labels and types are the canonical key; nothing else is implied.
QByteArray encodeSeriesStore(const MetricSeriesStore &store);

// False (and an explanation) for a blob that is truncated, has trailing bytes, an unknown
// version, an out-of-range index or count, or a key that is not a series key.
bool decodeSeriesStore(const QByteArray &blob, MetricSeriesStore *store, QString *error = nullptr);

} // namespace sb
