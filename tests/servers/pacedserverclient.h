#pragma once

// Drives tests/servers/pacedserver from a test or a benchmark: starts it as a child process,
// reads its per-request log, and pairs that log with the client's records by request id into
// the client's timing errors. Header-only, shared by tests/engine and bench/.

#include "common/clock.h"
#include "metrics/requestrecord.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <vector>

namespace sb::paced {

struct LogEntry
{
    QString id;
    int conn = -1;
    int reqOnConn = -1;
    qint64 tAccept = 0;
    qint64 tReqFirst = 0; // kernel arrival of the request's first segment (monotonic)
    qint64 tReqLast = 0;  // ... of the segment that completed it
    bool reqKernel = false;
    qint64 tParsed = 0;
    qint64 tHeadWrite = 0;
    QList<qint64> writes; // right before each token chunk's write()
    int tokens = 0;
    bool aborted = false;
    int backlog = 0;
};

class PacedServer
{
public:
    ~PacedServer() { stop(); }

    // args: pacedserver's options besides --port and --log.
    bool start(const QString &program, const QStringList &args, QString *error)
    {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary directory");
            return false;
        }
        m_process.setProgram(program);
        m_process.setArguments(QStringList{QStringLiteral("--port"), QStringLiteral("0"),
                                           QStringLiteral("--log"), logPath()} +
                               args);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start();
        if (!m_process.waitForStarted(10000)) {
            *error = QStringLiteral("cannot start %1: %2").arg(program, m_process.errorString());
            return false;
        }
        QByteArray line;
        const qint64 deadline = monotonicNs() + 10'000'000'000;
        while (!line.contains('\n') && monotonicNs() < deadline &&
               m_process.state() == QProcess::Running) {
            m_process.waitForReadyRead(100);
            line += m_process.readAllStandardOutput();
        }
        if (!line.startsWith("LISTENING ")) {
            *error = QStringLiteral("pacedserver did not start listening: %1")
                         .arg(QString::fromLatin1(line));
            return false;
        }
        m_port = line.mid(10).trimmed().toInt();
        return m_port > 0;
    }

    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString logPath() const { return m_dir.filePath(QStringLiteral("paced.jsonl")); }
    qint64 pid() const { return m_process.processId(); }

    // Ends the server; its log is complete afterwards.
    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished(2000);
    }

    QHash<QString, LogEntry> log() const
    {
        QHash<QString, LogEntry> out;
        QFile f(logPath());
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray &l : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(l).object();
            if (o.isEmpty())
                continue;
            LogEntry e;
            e.id = o.value(u"id").toString();
            e.conn = o.value(u"conn").toInt();
            e.reqOnConn = o.value(u"req_on_conn").toInt();
            e.tAccept = o.value(u"t_accept_ns").toInteger();
            e.tReqFirst = o.value(u"t_req_first_ns").toInteger();
            e.tReqLast = o.value(u"t_req_last_ns").toInteger();
            e.reqKernel = o.value(u"req_kernel").toBool();
            e.tParsed = o.value(u"t_parsed_ns").toInteger();
            e.tHeadWrite = o.value(u"t_head_write_ns").toInteger();
            for (const QJsonValue v : o.value(u"writes_ns").toArray())
                e.writes.append(v.toInteger());
            e.tokens = o.value(u"tokens").toInt();
            e.aborted = o.value(u"aborted").toBool();
            e.backlog = o.value(u"backlog").toInt();
            out.insert(e.id, e);
        }
        return out;
    }

private:
    QProcess m_process;
    QTemporaryDir m_dir;
    int m_port = 0;
};

inline double percentileOf(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double pos = p / 100.0 * double(v.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

inline double maxOf(const std::vector<double> &v)
{
    return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end());
}

// The client's timing errors against the server's own clock readings, in ms (both sides read
// CLOCK_MONOTONIC on one host):
//   send      request arrival (kernel, the segment that completed it) − t_send
//   receive   client receive time of token chunk k − right before the server's write() of it,
//             for every chunk of every paired request
//   ttft      (t_first − t_send) − (first write − request arrival): the client's TTFT minus the
//             server's own = send + first receive error
// Only requests that succeeded and whose chunk count matches the server's writes are paired;
// the rest are counted.
struct TimingErrors
{
    std::vector<double> sendMs, receiveMs, firstReceiveMs, ttftMs, firstWaveTtftMs;
    std::vector<double> connectMs; // t_connected − t_connect_start of requests on new connections
    int paired = 0;
    int failed = 0;     // records that did not succeed
    int unmatched = 0;  // no log entry, or another chunk count
    int lateChunks = 0; // chunks received more than lateMs after they were written
    int kernelRequests = 0;
};

inline TimingErrors pairWithLog(const QList<RequestRecord> &records,
                                const QHash<QString, LogEntry> &log, qint64 firstWaveBelow,
                                double lateMs)
{
    TimingErrors t;
    for (const RequestRecord &r : records) {
        if (!r.ok()) {
            ++t.failed;
            continue;
        }
        const auto it = log.constFind(r.requestId);
        if (it == log.constEnd() || it->writes.size() != r.chunkTimes.size() ||
            it->writes.isEmpty()) {
            ++t.unmatched;
            continue;
        }
        ++t.paired;
        t.kernelRequests += it->reqKernel ? 1 : 0;
        const double send = nsToMs(it->tReqLast - r.tSend);
        t.sendMs.push_back(send);
        for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
            const double e = nsToMs(r.chunkTimes[k] - it->writes[k]);
            t.receiveMs.push_back(e);
            if (e > lateMs)
                ++t.lateChunks;
        }
        t.firstReceiveMs.push_back(nsToMs(r.tFirst - it->writes[0]));
        const double ttft = nsToMs((r.tFirst - r.tSend) - (it->writes[0] - it->tReqLast));
        t.ttftMs.push_back(ttft);
        if (r.index < firstWaveBelow)
            t.firstWaveTtftMs.push_back(ttft);
        if (r.tConnectStart > 0 && r.tConnected >= r.tConnectStart)
            t.connectMs.push_back(nsToMs(r.tConnected - r.tConnectStart));
    }
    return t;
}

} // namespace sb::paced
