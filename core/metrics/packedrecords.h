#pragma once

#include "metrics/requestrecord.h"

#include <QtGlobal>

#include <vector>

namespace sb {

// Request records held as bytes: every field of RequestRecord, each integer as a zigzag varint
// (the times as differences from the record's previous non-zero time, the index from the
// previous record's), the texts as UTF-16. A stored run's chunkless record is ~57 bytes here
// against 368 in a RequestRecord, so a million-request run's derivation holds ~57 MB instead of
// ~370 (docs/performance.md, "The workbench at scale"). Records are read back in order only,
// decoded one at a time into a RequestRecord that the reader reuses; decode(encode(r)) == r for
// every field (tst_packedrecords).
class PackedRecords
{
public:
    // Where the next record to decode starts, and what its differences are relative to.
    struct Cursor
    {
        qsizetype block = 0;
        qsizetype offset = 0;
        qint64 prevIndex = 0;
        qint64 prevTime = 0;
    };

    void append(const RequestRecord &r);
    qsizetype size() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    // The bytes held (blocks' capacity), for memory accounting.
    qsizetype capacityBytes() const;

    // Decodes the record at *c into *out (overwriting every field; out's buffers are reused) and
    // moves *c to the next one. *c must be at a record: at most size() calls from a new Cursor.
    void decode(Cursor *c, RequestRecord *out) const;

private:
    std::vector<std::vector<uchar>> m_blocks;
    std::vector<uchar> m_scratch;
    qsizetype m_count = 0;
    qint64 m_prevIndex = 0;
    qint64 m_prevTime = 0;
};

} // namespace sb
