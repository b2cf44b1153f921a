#include "mappedfile.h"

#include <QFileInfo>

#ifdef Q_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Release in large steps: madvise per step is cheap, and a smaller step would not lower the
// peak noticeably.
constexpr qint64 kReleaseStep = 16 * 1024 * 1024;
} // namespace

MappedFile::~MappedFile()
{
    if (m_map)
        m_file.unmap(m_map);
}

bool MappedFile::open(const QString &path, QString *error)
{
    const QFileInfo fi(path);
    if (!fi.exists()) {
        *error = u"dataset file not found: %1"_s.arg(path);
        return false;
    }
    if (!fi.isFile()) {
        *error = u"dataset path is not a regular file: %1"_s.arg(path);
        return false;
    }
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        *error = u"cannot open dataset file %1: %2"_s.arg(path, m_file.errorString());
        return false;
    }
    m_size = m_file.size();
    if (m_size == 0)
        return true; // mapping zero bytes fails; the readers report the empty file
    m_map = m_file.map(0, m_size);
    if (!m_map) {
        *error = u"cannot map dataset file %1: %2"_s.arg(path, m_file.errorString());
        return false;
    }
    m_data = reinterpret_cast<const char *>(m_map);
#ifdef Q_OS_UNIX
    ::madvise(m_map, size_t(m_size), MADV_SEQUENTIAL);
#endif
    return true;
}

void MappedFile::release(qint64 offset)
{
#ifdef Q_OS_UNIX
    offset = qMin(offset, m_size);
    if (offset - m_released < kReleaseStep)
        return;
    static const qint64 page = ::sysconf(_SC_PAGESIZE);
    // madvise wants page-aligned ranges; the map itself starts on a page boundary.
    const qint64 from = (m_released / page) * page;
    const qint64 to = (offset / page) * page;
    if (to > from)
        ::madvise(m_map + from, size_t(to - from), MADV_DONTNEED);
    m_released = offset;
#else
    Q_UNUSED(offset);
#endif
}

} // namespace sb
