#include "metrics/recordset.h"

namespace sb {

RecordSet RecordSet::packed(PackedRecords records)
{
    RecordSet s;
    s.m_packed = std::make_shared<const PackedRecords>(std::move(records));
    return s;
}

QList<RequestRecord> RecordSet::list() const
{
    if (!m_packed)
        return m_list;
    QList<RequestRecord> all;
    all.reserve(m_packed->size());
    for (const RequestRecord &r : *this)
        all.append(r);
    return all;
}

RecordSet::const_iterator RecordSet::begin() const
{
    const_iterator it;
    if (!m_packed) {
        it.m_list = m_list.constData();
        return it;
    }
    it.m_packed = m_packed.get();
    if (!m_packed->isEmpty())
        m_packed->decode(&it.m_cursor, &it.m_current);
    return it;
}

RecordSet::const_iterator RecordSet::end() const
{
    const_iterator it;
    it.m_list = m_packed ? nullptr : m_list.constData();
    it.m_packed = m_packed.get();
    it.m_i = size();
    return it;
}

} // namespace sb
