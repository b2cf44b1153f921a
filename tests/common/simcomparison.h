#pragma once

// Two simulator configurations that differ by a known amount, run end to end through
// servebench-cli (SB_CLI) into one project: `servebench-cli simulate` with TTFT 50 ms and with
// 55 ms, each with Gaussian jitter (sigma 10 ms) from the same seed, one output token per request
// (so every jitter draw is a TTFT and the draws go to the requests in arrival order).
//
//   run 1: the 50 ms simulator          run 2: the 55 ms simulator
//   run 3: a fresh 50 ms simulator (same seed as run 1): one configuration run twice
//
// With the same seed the three runs draw the same jitter: the true difference between runs 1
// and 2 is exactly 5 ms in every quantile, and runs 1 and 3 differ only by the machine's timing
// noise. That keeps the end-to-end checks deterministic; how often two runs of one configuration
// are called different when their draws differ is a property of the tests themselves, checked
// by simulation in tests/metrics/tst_significance.cpp.

#include "clirun.h"

#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace sb::test {

// `servebench-cli simulate` in a child process; stopped when it goes out of scope.
class SimulatorProcess
{
public:
    explicit SimulatorProcess(const QStringList &args)
    {
        m_p.start(QString::fromUtf8(SB_CLI),
                  QStringList{QStringLiteral("simulate"), QStringLiteral("--port"),
                              QStringLiteral("0"), QStringLiteral("--duration"),
                              QStringLiteral("600")} +
                      args);
        if (!m_p.waitForStarted())
            return;
        QByteArray line;
        for (int i = 0; i < 100 && !line.contains('\n'); ++i) {
            m_p.waitForReadyRead(100);
            line += m_p.readAllStandardOutput();
        }
        const auto m = QRegularExpression(QStringLiteral("http://[0-9.]+:(\\d+)"))
                           .match(QString::fromUtf8(line));
        if (m.hasMatch())
            url = QStringLiteral("http://127.0.0.1:") + m.captured(1);
    }
    ~SimulatorProcess()
    {
        m_p.terminate();
        if (!m_p.waitForFinished(5000)) {
            m_p.kill();
            m_p.waitForFinished();
        }
    }
    SimulatorProcess(const SimulatorProcess &) = delete;
    SimulatorProcess &operator=(const SimulatorProcess &) = delete;
    QString url;

private:
    QProcess m_p;
};

inline constexpr int kSimComparisonRequests = 400;

// Runs one simulator configuration once into `project`; empty on success, else what failed.
inline QString runSimulatorConfiguration(const QString &project, double ttftMs)
{
    SimulatorProcess sim({QStringLiteral("--ttft-ms"), QString::number(ttftMs),
                          QStringLiteral("--jitter-ms"), QStringLiteral("10"),
                          QStringLiteral("--jitter-dist"), QStringLiteral("gaussian"),
                          QStringLiteral("--seed"), QStringLiteral("7")});
    if (sim.url.isEmpty())
        return QStringLiteral("the simulator did not start");
    const CliResult r = runCli(
        {QStringLiteral("run"), QStringLiteral("--base-url"), sim.url, QStringLiteral("--model"),
         QStringLiteral("servebench-sim"), QStringLiteral("--num-prompts"),
         QString::number(kSimComparisonRequests), QStringLiteral("--random-input-len"),
         QStringLiteral("8"), QStringLiteral("--random-output-len"), QStringLiteral("1"),
         QStringLiteral("--ignore-eos"), QStringLiteral("--request-rate"), QStringLiteral("80"),
         QStringLiteral("--project"), project},
        300000);
    return r.code == 0 ? QString() : r.describe();
}

// Runs 1 (50 ms), 2 (55 ms) and 3 (50 ms again) into `project`.
inline QString buildSimulatorComparison(const QString &project)
{
    for (double ttft : {50.0, 55.0, 50.0}) {
        const QString error = runSimulatorConfiguration(project, ttft);
        if (!error.isEmpty())
            return error;
    }
    return QString();
}

} // namespace sb::test
