#pragma once

#include "client/transport.h"
#include "config/runplan.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include <sys/types.h>

namespace sb {

// A serving process ServeBench starts, waits for, watches and stops itself
// (docs/managed-servers.md): the SUT is then a server configuration, not an endpoint someone else
// keeps running.
//
// The start command runs as `/bin/sh -c COMMAND` in a new session (its own process group), with
// the client's environment, so `$HF_TOKEN` in a stored command stays a reference and the shell
// expands it. Its stdout and stderr go to one pipe that a reader thread drains into memory (the
// first kHeadBytes and the last kTailBytes are kept, the total is counted), so a chatty server
// never blocks on a full pipe.
//
// Every call blocks (start() until healthy, exited or timed out; stop() until the group is gone):
// the CLI calls it on its thread, the workbench and the study from worker threads. Not copyable;
// one thread at a time.
class ManagedServer
{
public:
    static constexpr qint64 kHeadBytes = 64 * 1024;
    static constexpr qint64 kTailBytes = 448 * 1024;
    static constexpr int kTermGraceMs = 10000; // SIGTERM to SIGKILL
    static constexpr int kKillWaitMs = 5000;   // SIGKILL to giving up

    enum class State { NotStarted, Starting, Healthy, Failed, Stopped };

    // healthUrl: where health is polled (2xx = healthy); the SUT's /health when config gives none.
    // options and apiKey: the route and credentials of the SUT's own requests (a health URL behind
    // the same proxy or CA); the key goes out as the probes send it, never into the log.
    ManagedServer(ManagedServerConfig config, const SutConfig &sut, const QByteArray &apiKey,
                  const TransportOptions &options);
    ~ManagedServer(); // stops the server when still running (blocking, bounded)
    ManagedServer(const ManagedServer &) = delete;
    ManagedServer &operator=(const ManagedServer &) = delete;

    // Starts the command and polls the health URL (every 50 ms for the first 2 s, then every
    // 250 ms) until it answers 2xx (true), the process exits, the start timeout passes or
    // *cancelled turns true (false; error() says which, with the last lines of the output).
    // progress, when set, is told once a second.
    bool start(const std::atomic<bool> *cancelled = nullptr,
               const std::function<void(const QString &)> &progress = {});
    // Runs the stop command when there is one (it may take the grace period), then SIGTERM to the
    // process group, SIGKILL after kTermGraceMs. True when no process of the group is left.
    bool stop();

    State state() const { return m_state; }
    bool exited() const; // the start command's process has ended (reaped)
    // Healthy and its process still running (reaps it when it has ended).
    bool alive();
    QString error() const { return m_error; }
    qint64 startupMs() const { return m_startupMs; } // start to first healthy answer; -1 before
    QUrl healthUrl() const { return m_healthUrl; }
    pid_t pid() const { return m_pid; }
    // A random id for this start: runs it served name it in their snapshot, its log row carries it.
    QString instanceId() const { return m_instance; }

    // The captured output (head, a marker line when bytes were left out, tail) and its total size.
    QByteArray output() const;
    qint64 outputBytes() const;
    QStringList lastLines(int n) const;

    // What happened, for the snapshot and the stored log: commands as written, health URL,
    // instance, pid, start and stop times, startup ms, exit status, how it was stopped, whether
    // processes were left. No output (see output()).
    QJsonObject info() const;

private:
    void readLoop(int fd);
    bool reap(bool wait); // waitpid on the leader; true once it has exited
    bool groupAlive() const;
    bool waitGroupGone(int ms);
    QString exitText() const;

    ManagedServerConfig m_config;
    SutConfig m_probeSut; // the health URL's origin, the SUT's headers, CA and proxy
    QByteArray m_apiKey;
    TransportOptions m_options;
    QUrl m_healthUrl;
    QString m_instance;
    State m_state = State::NotStarted;
    QString m_error;
    pid_t m_pid = -1;
    int m_exitStatus = -1; // waitpid status once reaped
    bool m_reaped = false;
    qint64 m_startNs = 0;
    qint64 m_startupMs = -1;
    QDateTime m_startedUtc, m_healthyUtc, m_stoppedUtc;
    QString m_stopHow;
    qint64 m_stopMs = -1;
    bool m_left = false;
    bool m_exitedBeforeStop = false;

    mutable std::mutex m_outMutex;
    QByteArray m_head, m_tail;
    qint64 m_total = 0;
    std::thread m_reader;
};

// A credential written out in a server command ("HF_TOKEN=hf_x…", "--api-key sk-…"), which the
// project would store: the name it was given to, with the value left out; empty when the command
// names its secrets only by reference ($VARIABLE, ${VARIABLE}).
QString literalSecretIn(const QString &command);

// Stores the server's facts and output in the project file (table server_logs, replacing an
// earlier row of the same instance). False with *note saying why.
bool saveManagedServerLog(const QString &projectPath, const ManagedServer &server,
                          const QString &sut, QString *note);

} // namespace sb
