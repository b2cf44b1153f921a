#pragma once

// Runs servebench-cli (the SB_CLI path each CLI test target defines) as a user would: a real
// process, its exit code and both output streams. Shared by the CLI, cost, shard and TLS/proxy
// suites.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sb::test {

struct CliResult
{
    int code = -1; // -1: crashed or timed out
    QString out;
    QString err;

    QString describe() const
    {
        return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(code).arg(out, err);
    }
};

// Waits for a started process; kills it after timeoutMs.
inline CliResult finishCli(QProcess &p, int timeoutMs = 180000)
{
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline CliResult runCli(const QStringList &args, int timeoutMs = 180000,
                        const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QString::fromUtf8(SB_CLI), args);
    return finishCli(p, timeoutMs);
}

} // namespace sb::test
