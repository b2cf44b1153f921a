#pragma once

#include <QString>

class QSqlError;

namespace sb {

// What a path holds, found without modifying it, and the one way connections to a project
// file are opened (both ProjectStore and RunWriter use it, each in its own thread).
class ProjectFile
{
public:
    enum class State {
        Missing,    // no file: a new project is created there
        Empty,      // zero bytes, or an SQLite file with no tables and no ids: initialised
        Project,    // a ServeBench project at a version this build can open (maybe older)
        Newer,      // a ServeBench project from a newer version: refused
        Foreign,    // an SQLite database that is not a ServeBench project: refused
        Corrupt,    // not SQLite, truncated or damaged: refused
        Unreadable, // permission denied or an I/O error
    };

    struct Probe
    {
        State state = State::Missing;
        int version = 0;         // PRAGMA user_version (Project, Newer)
        bool writable = false;   // the file and its directory accept writes (-wal and -shm)
        bool walPending = false; // a -wal with content lies beside it (a run was killed)
        QString message;         // for every refusal: says which it is
    };

    // Reads the 100-byte header with plain file I/O and, only when a -wal file with content
    // could hold newer header values (after a crash), asks SQLite through a read-only
    // connection. Never writes the database file; an intact file opened read-only gets no side
    // files either (immutable open).
    static Probe probe(const QString &path);

    // Opens connection `connectionName` in the calling thread: WAL, synchronous=FULL,
    // foreign_keys=ON, busy timeout. Read-only connections use SQLite's read-only mode;
    // `immutable` also promises SQLite that nobody writes the file, so it needs no -shm (for a
    // file in a folder we cannot write; wrong while a -wal holds data).
    static bool openConnection(const QString &connectionName, const QString &path, bool readOnly,
                               QString *error, bool immutable = false);
    static void closeConnection(const QString &connectionName);

    // A sentence for the user: says "the disk is full", "read-only", "damaged" when SQLite did.
    static QString describe(const QSqlError &error);

    static QString stateName(State s);
};

} // namespace sb
