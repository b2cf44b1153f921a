#include "filehasher.h"

#include <QCryptographicHash>
#include <QFile>

using namespace Qt::StringLiterals;

namespace sb {

FileHasher::~FileHasher()
{
    cancel();
}

void FileHasher::start(const QString &path)
{
    cancel();
    m_cancelled = false;
    m_ok = false;
    m_thread = std::thread([this, path] { m_ok = sha256(path, &m_hex, &m_error, &m_cancelled); });
}

bool FileHasher::result(QString *sha256Hex, QString *error)
{
    if (m_thread.joinable())
        m_thread.join();
    if (!m_ok) {
        if (error)
            *error = m_error;
        return false;
    }
    *sha256Hex = m_hex;
    return true;
}

void FileHasher::cancel()
{
    m_cancelled = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool FileHasher::sha256(const QString &path, QString *sha256Hex, QString *error,
                        const std::atomic<bool> *cancelled)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot open dataset file %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (;;) {
        if (cancelled && cancelled->load(std::memory_order_relaxed)) {
            *error = u"cancelled"_s;
            return false;
        }
        const qint64 n = f.read(block.data(), block.size());
        if (n < 0) {
            *error = u"cannot read dataset file %1: %2"_s.arg(path, f.errorString());
            return false;
        }
        if (n == 0)
            break;
        hash.addData(QByteArrayView(block.constData(), n));
    }
    *sha256Hex = QString::fromLatin1(hash.result().toHex());
    return true;
}

} // namespace sb
