#pragma once

#include <QString>
#include <atomic>
#include <thread>

namespace sb {

// The sha256 of a file, computed on its own thread while the loader parses. Qt 6.4's SHA-256 is
// software-only (about 120 MB/s on the reference machine, where the parse runs at about
// 200 MB/s), so on the 650 MB ShareGPT file hashing in line would more than double the load
// time. It reads with plain read() calls in 1 MiB blocks: page cache, not resident memory.
class FileHasher
{
public:
    FileHasher() = default;
    ~FileHasher(); // cancels and joins
    FileHasher(const FileHasher &) = delete;
    FileHasher &operator=(const FileHasher &) = delete;

    void start(const QString &path);
    // Waits for the hash. Returns false with *error if the file could not be read.
    bool result(QString *sha256Hex, QString *error);
    void cancel();

    // The same, synchronously.
    static bool sha256(const QString &path, QString *sha256Hex, QString *error,
                       const std::atomic<bool> *cancelled = nullptr);

private:
    std::thread m_thread;
    std::atomic<bool> m_cancelled{false};
    QString m_hex;
    QString m_error;
    bool m_ok = false;
};

} // namespace sb
