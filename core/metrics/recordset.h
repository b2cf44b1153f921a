#pragma once

#include "metrics/packedrecords.h"
#include "metrics/requestrecord.h"

#include <QList>

#include <iterator>
#include <memory>

namespace sb {

// A run's records as the derivation reads them: either a list of RequestRecords or, for a large
// stored run, the same records packed (PackedRecords: a fifth of the memory). Either way they
// are read in order with range-for; a record read from a packed set is decoded into the
// iterator, so its reference (and the addresses of its fields) hold only until the iterator
// moves on: keep values, not addresses. Code that needs a list asks for list(), which a packed
// set has to build.
class RecordSet
{
public:
    RecordSet() = default;
    RecordSet(QList<RequestRecord> records) : m_list(std::move(records)) {} // NOLINT: implicit
    static RecordSet packed(PackedRecords records);

    qsizetype size() const { return m_packed ? m_packed->size() : m_list.size(); }
    bool isEmpty() const { return size() == 0; }
    bool isPacked() const { return m_packed != nullptr; }

    // The records as a list: shared with a list-backed set; a packed set decodes all of them
    // into a new one (full size in memory) on every call.
    QList<RequestRecord> list() const;

    class const_iterator
    {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = RequestRecord;
        using difference_type = qsizetype;
        using pointer = const RequestRecord *;
        using reference = const RequestRecord &;

        const_iterator() = default;
        reference operator*() const { return m_packed ? m_current : m_list[m_i]; }
        pointer operator->() const { return &**this; }
        const_iterator &operator++()
        {
            ++m_i;
            if (m_packed && m_i < m_packed->size())
                m_packed->decode(&m_cursor, &m_current);
            return *this;
        }
        bool operator==(const const_iterator &o) const { return m_i == o.m_i; }

    private:
        friend class RecordSet;
        const RequestRecord *m_list = nullptr;
        const PackedRecords *m_packed = nullptr;
        qsizetype m_i = 0;
        PackedRecords::Cursor m_cursor;
        RequestRecord m_current;
    };
    using iterator = const_iterator;

    const_iterator begin() const;
    const_iterator end() const;
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

private:
    QList<RequestRecord> m_list;
    std::shared_ptr<const PackedRecords> m_packed;
};

} // namespace sb
