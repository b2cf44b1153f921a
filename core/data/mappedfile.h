#pragma once

#include <QFile>

namespace sb {

// A dataset file mapped read-only, read front to back once. The public ShareGPT file is about
// 650 MB: mapping it keeps the bytes in the page cache only (no heap copy), and release() drops
// the pages already parsed from the process's resident set, so peak RSS stays near the data the
// loader keeps rather than the file size.
class MappedFile
{
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    // Errors name the path: "dataset file not found: …" / "cannot open dataset file …: …".
    bool open(const QString &path, QString *error);

    const char *data() const { return m_data; }
    qint64 size() const { return m_size; }
    QString path() const { return m_file.fileName(); }

    // Everything before `offset` has been read: let the kernel drop its pages from this
    // process. They can still be read again later (they fault back in from the page cache).
    void release(qint64 offset);

private:
    QFile m_file;
    uchar *m_map = nullptr;
    const char *m_data = "";
    qint64 m_size = 0;
    qint64 m_released = 0;
};

} // namespace sb
