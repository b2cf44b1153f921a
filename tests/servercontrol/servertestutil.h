#pragma once

// Shared by the server-control tests: a free port, the independent FastAPI server as a child,
// one HTTP GET read with nothing of ServeBench's client (the witness's own view), and the runs a
// project stored.

#include "store/projectstore.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTimer>

namespace sb::test {

inline quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort(); // closed on return: free unless someone takes it meanwhile
}

inline QString python3()
{
    return QFile::exists(QStringLiteral("/usr/bin/python3")) ? QStringLiteral("/usr/bin/python3")
                                                              : QStringLiteral("python3");
}

// GET url; the body, or "" when no 200 came within 5 s.
inline QByteArray httpGet(const QString &url)
{
    QNetworkAccessManager nam;
    QNetworkRequest req{QUrl(url)};
    req.setTransferTimeout(5000);
    QNetworkReply *r = nam.get(req);
    QEventLoop loop;
    QObject::connect(r, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = r->error() == QNetworkReply::NoError ? r->readAll() : QByteArray();
    r->deleteLater();
    return body;
}

// The value of a Prometheus sample by name (any labels), summed; -1 when absent.
inline double promValue(const QByteArray &payload, const QString &name)
{
    double sum = -1;
    const QRegularExpression re(QStringLiteral("^") + QRegularExpression::escape(name) +
                                    QStringLiteral("(\\{[^}]*\\})? ([0-9.eE+-]+)$"),
                                QRegularExpression::MultilineOption);
    auto it = re.globalMatch(QString::fromUtf8(payload));
    while (it.hasNext())
        sum = std::max(sum, 0.0) + it.next().captured(2).toDouble();
    return sum;
}

// tests/servers/fastapi_server.py --port 0 with these arguments; url is empty when it did not
// come up (error says why).
class FastApiProcess
{
public:
    explicit FastApiProcess(const QStringList &args)
    {
        m_p.setProgram(python3());
        m_p.setArguments(QStringList{QString::fromUtf8(SB_FASTAPI_SERVER), QStringLiteral("--port"),
                                     QStringLiteral("0")} +
                         args);
        m_p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_p.start();
        if (!m_p.waitForStarted(10000)) {
            error = QStringLiteral("python3 did not start");
            return;
        }
        QByteArray line;
        for (int i = 0; i < 300 && !line.contains('\n'); ++i) {
            if (m_p.state() != QProcess::Running) {
                error = QStringLiteral("the FastAPI server exited (python3-fastapi and "
                                       "python3-uvicorn: ./scripts/deps.sh installs them)");
                return;
            }
            m_p.waitForReadyRead(100);
            line += m_p.readAllStandardOutput();
        }
        if (!line.startsWith("LISTENING ")) {
            error = QString::fromUtf8(line);
            return;
        }
        url = QStringLiteral("http://127.0.0.1:%1").arg(line.mid(10).trimmed().toInt());
    }
    ~FastApiProcess()
    {
        m_p.terminate();
        if (!m_p.waitForFinished(10000)) {
            m_p.kill();
            m_p.waitForFinished(2000);
        }
    }
    FastApiProcess(const FastApiProcess &) = delete;
    FastApiProcess &operator=(const FastApiProcess &) = delete;

    QString url;
    QString error;

private:
    QProcess m_p;
};

// Every run of a project, with its snapshot and summary (empty when it cannot be read).
inline QList<sb::RunInfo> storedRuns(const QString &project)
{
    sb::ProjectStore store;
    if (!store.open(project, sb::ProjectStore::OpenMode::ReadOnly))
        return {};
    QList<sb::RunInfo> out;
    for (const sb::RunInfo &r : store.listRuns())
        if (auto full = store.loadRun(r.id))
            out << *full;
    return out;
}

} // namespace sb::test
