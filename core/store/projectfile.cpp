#include "projectfile.h"

#include "projectschema.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QtEndian>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr int kHeaderSize = 100;

// SQLite locks the project file with POSIX advisory locks, and POSIX drops every lock a process
// holds on a file as soon as the process closes ANY descriptor of that file. Reading the header
// with QFile while a connection of this process has the file open would silently unlock that
// connection: another process (a CLI run recording into the project the workbench has open)
// could then checkpoint the WAL under it, and this process would read a damaged database. So the
// files this process has open are counted here, and probe() leaves their bytes to SQLite.
struct OpenFiles
{
    QMutex mutex;
    QHash<QString, int> count;            // canonical path -> connections open on it
    QHash<QString, QString> byConnection; // connection name -> canonical path
};

OpenFiles &openFiles()
{
    static OpenFiles f;
    return f;
}

QString canonical(const QString &path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

bool openInThisProcess(const QString &path)
{
    OpenFiles &f = openFiles();
    QMutexLocker lock(&f.mutex);
    return f.count.value(canonical(path)) > 0;
}

quint32 be32(const QByteArray &h, int offset)
{
    return qFromBigEndian<quint32>(reinterpret_cast<const uchar *>(h.constData()) + offset);
}

ProjectFile::Probe refuse(ProjectFile::State s, const QString &path, const QString &why)
{
    ProjectFile::Probe p;
    p.state = s;
    p.message = u"%1: %2"_s.arg(QFileInfo(path).fileName(), why);
    return p;
}

struct SqlProbe
{
    bool ok = false;
    qint32 applicationId = 0;
    int userVersion = 0;
    int objects = 0;
    QString error;
};

// A throw-away read-only connection. immutable=1 tells SQLite the file cannot change, so it
// takes no locks and creates no -wal/-shm; it must not be used when a -wal holds data.
SqlProbe sqlProbe(const QString &path, bool immutable)
{
    SqlProbe r;
    const QString name = u"sb-probe-%1"_s.arg(quintptr(&r), 0, 16);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        QString uri =
            QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded) +
            u"?mode=ro"_s;
        if (immutable)
            uri += u"&immutable=1"_s;
        db.setDatabaseName(uri);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"_s);
        if (!db.open()) {
            r.error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            if (q.exec(u"SELECT (SELECT application_id FROM pragma_application_id),"
                       " (SELECT user_version FROM pragma_user_version),"
                       " (SELECT count(*) FROM sqlite_schema)"_s) &&
                q.next()) {
                r.ok = true;
                r.applicationId = q.value(0).toInt();
                r.userVersion = q.value(1).toInt();
                r.objects = q.value(2).toInt();
            } else {
                r.error = q.lastError().text();
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return r;
}

bool execPragma(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery q(db);
    if (q.exec(sql))
        return true;
    if (error)
        *error = ProjectFile::describe(q.lastError());
    return false;
}

} // namespace

QString ProjectFile::stateName(State s)
{
    switch (s) {
    case State::Missing:
        return u"missing"_s;
    case State::Empty:
        return u"empty"_s;
    case State::Project:
        return u"project"_s;
    case State::Newer:
        return u"newer"_s;
    case State::Foreign:
        return u"foreign"_s;
    case State::Corrupt:
        return u"corrupt"_s;
    case State::Unreadable:
        return u"unreadable"_s;
    }
    return u"unreadable"_s;
}

ProjectFile::Probe ProjectFile::probe(const QString &path)
{
    const QFileInfo info(path);
    const QFileInfo dir(info.absolutePath());
    if (!info.exists()) {
        Probe p;
        p.state = State::Missing;
        p.writable = dir.isWritable();
        if (!dir.exists())
            p.message = u"%1: the folder %2 does not exist (create it first)"_s.arg(
                info.fileName(), info.absolutePath());
        else if (!p.writable)
            p.message =
                u"%1: the folder %2 is not writable"_s.arg(info.fileName(), info.absolutePath());
        return p;
    }
    if (!info.isFile())
        return refuse(State::Unreadable, path, u"not a regular file"_s);
    const bool writable = info.isWritable() && dir.isWritable();
    if (openInThisProcess(path)) {
        // A connection of ours has it open, so it was a project when it opened; closing a
        // descriptor of our own here would drop that connection's locks (see OpenFiles).
        const QFileInfo wal(path + u"-wal"_s);
        const SqlProbe s = sqlProbe(path, false);
        if (!s.ok)
            return refuse(State::Corrupt, path,
                          u"damaged: SQLite cannot read it (%1)"_s.arg(s.error));
        Probe p;
        p.state = s.userVersion > ProjectSchema::currentVersion() ? State::Newer : State::Project;
        p.writable = writable;
        p.walPending = wal.exists() && wal.size() > 0;
        p.version = s.userVersion;
        return p;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return refuse(State::Unreadable, path, u"cannot be read (%1)"_s.arg(f.errorString()));
    const qint64 size = f.size();
    if (size == 0) {
        Probe p;
        p.state = State::Empty;
        p.writable = writable;
        return p;
    }
    const QByteArray h = f.read(kHeaderSize);
    f.close();
    if (h.size() < kHeaderSize || !h.startsWith(QByteArrayView("SQLite format 3\0", 16)))
        return refuse(State::Corrupt, path,
                      u"not a ServeBench project: not an SQLite database (damaged, truncated or "
                      "another kind of file)"_s);

    quint32 pageSize = qFromBigEndian<quint16>(reinterpret_cast<const uchar *>(h.constData()) + 16);
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)
        return refuse(State::Corrupt, path, u"damaged: invalid SQLite page size"_s);
    // The in-header page count is valid when the change counter matches "version-valid-for".
    const quint32 pages = be32(h, 28);
    const bool countValid = be32(h, 24) == be32(h, 92) && pages > 0;
    if (size % pageSize != 0 || (countValid && size < qint64(pages) * pageSize))
        return refuse(
            State::Corrupt, path,
            u"damaged or truncated: the file is %1 bytes, its header says %2"_s.arg(size).arg(
                countValid ? qint64(pages) * pageSize : size / pageSize * pageSize));

    // After a crash the newest header may still sit in the -wal; only then do we need SQLite's
    // own view (a read-only connection, which may create an -shm beside the file).
    const QFileInfo wal(path + u"-wal"_s);
    const bool walHasData = wal.exists() && wal.size() > 0;
    SqlProbe s = sqlProbe(path, !walHasData);
    if (!s.ok)
        return refuse(State::Corrupt, path, u"damaged: SQLite cannot read it (%1)"_s.arg(s.error));

    Probe p;
    p.writable = writable;
    p.walPending = walHasData;
    p.version = s.userVersion;
    if (s.applicationId != ProjectSchema::applicationId) {
        if (s.applicationId == 0 && s.userVersion == 0 && s.objects == 0) {
            p.state = State::Empty;
            return p;
        }
        return refuse(State::Foreign, path,
                      u"not a ServeBench project: an SQLite database of another application "
                      "(application_id %1, %2 schema objects)"_s.arg(s.applicationId)
                          .arg(s.objects));
    }
    if (s.userVersion > ProjectSchema::currentVersion()) {
        Probe r = refuse(State::Newer, path,
                         u"written by a newer ServeBench (project schema version %1; this build "
                         "reads up to %2): update ServeBench to open it"_s.arg(s.userVersion)
                             .arg(ProjectSchema::currentVersion()));
        r.version = s.userVersion;
        return r;
    }
    p.state = State::Project;
    return p;
}

bool ProjectFile::openConnection(const QString &connectionName, const QString &path, bool readOnly,
                                 QString *error, bool immutable)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, connectionName);
    // Waits for the other connection (GUI reads vs. the writer thread) instead of failing.
    QString options = u"QSQLITE_BUSY_TIMEOUT=10000"_s;
    if (readOnly)
        options += u";QSQLITE_OPEN_READONLY"_s;
    if (readOnly && immutable) {
        options += u";QSQLITE_OPEN_URI"_s;
        db.setDatabaseName(
            QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded) +
            u"?mode=ro&immutable=1"_s);
    } else {
        db.setDatabaseName(path);
    }
    db.setConnectOptions(options);
    if (!db.open()) {
        if (error)
            *error = describe(db.lastError());
        return false;
    }
    {
        OpenFiles &f = openFiles();
        QMutexLocker lock(&f.mutex);
        const QString c = canonical(path);
        ++f.count[c];
        f.byConnection.insert(connectionName, c);
    }
    // synchronous=FULL: in WAL mode that is one fsync of the WAL per commit, and commits come
    // in batches (a few per second), so it costs little; in exchange a power loss or OS crash,
    // not only a killed process, loses at most the last batch. NORMAL would only sync at
    // checkpoints and could lose several seconds of a run.
    if (!execPragma(db, u"PRAGMA foreign_keys = ON"_s, error) ||
        !execPragma(db, u"PRAGMA synchronous = FULL"_s, error))
        return false;
    if (!readOnly && !execPragma(db, u"PRAGMA journal_mode = WAL"_s, error))
        return false;
    return true;
}

void ProjectFile::closeConnection(const QString &connectionName)
{
    {
        QSqlDatabase db = QSqlDatabase::database(connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
    OpenFiles &f = openFiles();
    QMutexLocker lock(&f.mutex);
    const QString c = f.byConnection.take(connectionName);
    if (!c.isEmpty() && --f.count[c] <= 0)
        f.count.remove(c);
}

QString ProjectFile::describe(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok) & 0xff;
    QString what;
    if (ok) {
        switch (code) {
        case 13: // SQLITE_FULL
            what = u"the disk is full (or the project file reached its size limit)"_s;
            break;
        case 8: // SQLITE_READONLY
            what = u"the project file is read-only"_s;
            break;
        case 10: // SQLITE_IOERR
            what = u"an I/O error occurred while writing the project file"_s;
            break;
        case 11: // SQLITE_CORRUPT
        case 26: // SQLITE_NOTADB
            what = u"the project file is damaged"_s;
            break;
        case 5: // SQLITE_BUSY
        case 6: // SQLITE_LOCKED
            what = u"the project file is locked by another program"_s;
            break;
        case 14: // SQLITE_CANTOPEN
            what = u"the project file cannot be opened"_s;
            break;
        default:
            break;
        }
    }
    const QString detail = error.text().trimmed();
    if (what.isEmpty())
        return detail;
    return u"%1 (%2)"_s.arg(what, detail);
}

} // namespace sb
