#pragma once

// `servebench-cli simulate` in a child process on a free port (the test target defines SB_CLI);
// stopped when it goes out of scope. `url` is the base URL it printed, `banner` its first line.
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

namespace sb::test {

class SimProcess
{
public:
    // args follow `simulate --port 0`; give --duration longer than the test needs.
    explicit SimProcess(const QStringList &args)
    {
        using namespace Qt::StringLiterals;
        m_p.start(QString::fromUtf8(SB_CLI),
                  QStringList{u"simulate"_s, u"--port"_s, u"0"_s} + args);
        if (!m_p.waitForStarted())
            return;
        for (int i = 0; i < 100 && !banner.contains('\n'); ++i) {
            m_p.waitForReadyRead(100);
            banner += m_p.readAllStandardOutput();
        }
        const auto m =
            QRegularExpression(u"http://[0-9.]+:(\\d+)"_s).match(QString::fromUtf8(banner));
        if (m.hasMatch())
            url = u"http://127.0.0.1:"_s + m.captured(1);
    }
    ~SimProcess()
    {
        m_p.terminate();
        if (!m_p.waitForFinished(5000)) {
            m_p.kill();
            m_p.waitForFinished();
        }
    }
    SimProcess(const SimProcess &) = delete;
    SimProcess &operator=(const SimProcess &) = delete;

    QString url;
    QByteArray banner;

private:
    QProcess m_p;
};

} // namespace sb::test
