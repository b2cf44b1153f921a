// Which receive time each token chunk gets, whatever way the response head, the chunk framing and
// the SSE events are cut into TCP segments. A scripted server writes the response in pieces, each
// a write() of its own on a TCP_NODELAY socket after a pause, and notes CLOCK_MONOTONIC right
// before each write; so the piece that completed an event's data line is known, and that event's
// receive time must lie between that piece's write and the next one's. Both transports, and the
// socket transport with kernel and with user-space receive times.
//
// Rule under test (docs/metrics.md): a token chunk is stamped with the receive time of the read
// that brought the end of its (last) data line; the blank line that dispatches the SSE event may
// come later (some servers send it with the next event) without moving the stamp.
#include "client/qnamtransport.h"
#include "client/sockettransport.h"
#include "common/clock.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// The pause before every piece: long against this machine's scheduling delays, so a piece is
// read before the next one is written (kernel receive times stay per segment only then).
constexpr int kPauseMs = 30;
// The byte-at-a-time row would take minutes at that pace; its bytes come this fast instead.
constexpr int kBytePauseMs = 12;

QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

QByteArray token(const char *text)
{
    return "data: {\"choices\":[{\"text\":\"" + QByteArray(text) + "\"}]}\n";
}

const QByteArray kHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n";
const QByteArray kEnd = chunk("data: [DONE]\n\n") + "0\r\n\r\n";

struct Script
{
    QList<QByteArray> pieces;
    QList<int> pauseMs; // before each piece
};

// Serves one connection: reads one request, then writes the pieces, each after its pause.
class PieceServer
{
public:
    explicit PieceServer(Script script) : m_script(std::move(script))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_listen, 8);
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~PieceServer()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
        m_thread.join();
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(m_port)); }
    // Right before each piece's write(); complete once the record has arrived.
    QList<qint64> writes() const
    {
        QList<qint64> out;
        for (int i = 0; i < m_written.load(); ++i)
            out.append(m_writes[size_t(i)]);
        return out;
    }

private:
    void serve()
    {
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            return;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        QByteArray in;
        char buf[4096];
        while (!in.contains("\r\n\r\n") || !requestComplete(in)) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) {
                ::close(fd);
                return;
            }
            in.append(buf, n);
        }
        m_writes.resize(size_t(m_script.pieces.size()));
        for (qsizetype i = 0; i < m_script.pieces.size() && !m_stop; ++i) {
            QThread::msleep(ulong(m_script.pauseMs[i]));
            m_writes[size_t(i)] = monotonicNs();
            // Counted before the send: once the piece is out, the client may finish its record
            // and the test read the writes before this thread runs again (seen beside a full
            // suite: 4 of 5 writes listed).
            m_written = int(i + 1);
            const QByteArray &p = m_script.pieces[i];
            ::send(fd, p.constData(), size_t(p.size()), MSG_NOSIGNAL);
        }
        // Hold the connection until the client is done with it.
        while (!m_stop && ::recv(fd, buf, sizeof buf, 0) > 0) {
        }
        ::close(fd);
    }
    static bool requestComplete(const QByteArray &in)
    {
        const qsizetype end = in.indexOf("\r\n\r\n");
        const qsizetype cl = in.toLower().indexOf("content-length:");
        if (cl < 0)
            return true;
        const int length = in.mid(cl + 15, in.indexOf('\r', cl) - cl - 15).trimmed().toInt();
        return in.size() >= end + 4 + length;
    }

    Script m_script;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_written{0};
    std::vector<qint64> m_writes;
    std::thread m_thread;
};

enum class Client { SocketKernel, SocketUser, Qnam };

std::unique_ptr<Transport> makeTransport(Client client)
{
    if (client == Client::Qnam)
        return std::make_unique<QnamTransport>();
    auto t = std::make_unique<SocketTransport>();
    t->setKernelTimestamps(client == Client::SocketKernel);
    return t;
}

} // namespace

Q_DECLARE_METATYPE(Script)

class TestReceiveStamps : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<sb::RequestRecord>(); }

    void eachChunkHasItsPiecesTime_data()
    {
        QTest::addColumn<int>("client");
        QTest::addColumn<Script>("script");
        // For each token chunk, the piece whose write completed its data line.
        QTest::addColumn<QList<int>>("expected");

        auto uniform = [](const QList<QByteArray> &pieces) {
            return Script{pieces, QList<int>(pieces.size(), kPauseMs)};
        };
        QList<QPair<const char *, QPair<Script, QList<int>>>> rows;
        rows.append(
            {"head, then each event",
             {uniform({kHead, chunk(token("A") + "\n"), chunk(token("B") + "\n"), kEnd}), {1, 2}}});
        rows.append({"head and first event in one segment",
                     {uniform({kHead + chunk(token("A") + "\n"), chunk(token("B") + "\n"), kEnd}),
                      {0, 1}}});
        rows.append({"head cut before its last CRLF, which comes with the first event",
                     {uniform({kHead.chopped(2), "\r\n" + chunk(token("A") + "\n"),
                               chunk(token("B") + "\n"), kEnd}),
                      {1, 2}}});
        {
            const QByteArray data = token("A") + "\n";
            const QByteArray sizeLine = QByteArray::number(data.size(), 16) + "\r\n";
            rows.append({"chunk-size line apart from its data",
                         {uniform({kHead, sizeLine, data + "\r\n", chunk(token("B") + "\n"), kEnd}),
                          {2, 3}}});
            rows.append(
                {"chunk data apart from its closing CRLF",
                 {uniform({kHead, sizeLine + data, "\r\n" + chunk(token("B") + "\n"), kEnd}),
                  {1, 2}}});
        }
        rows.append(
            {"data line, then the blank line that ends the event",
             {uniform({kHead, chunk(token("A")), chunk("\n"), chunk(token("B") + "\n"), kEnd}),
              {1, 3}}});
        rows.append({"each event's blank line sent with the next event",
                     {uniform({kHead, chunk(token("A")), chunk("\n" + token("B")),
                               chunk("\ndata: [DONE]\n\n") + "0\r\n\r\n"}),
                      {1, 2}}});
        rows.append({"line ended by CR, its LF in the next segment",
                     {uniform({kHead, chunk(token("A").chopped(1) + "\r"), chunk("\n\r\n"),
                               chunk(token("B") + "\n"), kEnd}),
                      {1, 3}}});
        rows.append(
            {"event of two data lines, one per segment",
             {uniform({kHead, chunk("data: {\"choices\":[\n"), chunk("data: {\"text\":\"A\"}]}\n"),
                       chunk("\n"), chunk(token("B") + "\n"), kEnd}),
              {2, 4}}});
        {
            const QByteArray body = token("A") + "\n" + token("B") + "\n" + "data: [DONE]\n\n";
            const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                    "Content-Length: " +
                                    QByteArray::number(body.size()) + "\r\n\r\n";
            const qsizetype a = token("A").size() + 1;
            const qsizetype b = a + token("B").size() + 1;
            rows.append(
                {"Content-Length body",
                 {uniform({head, body.first(a), body.mid(a, b - a), body.mid(b)}), {1, 2}}});
        }
        {
            // Every byte of the first chunk (size line, data, CRLF) a segment of its own.
            Script s;
            s.pieces.append(kHead);
            s.pauseMs.append(kPauseMs);
            const QByteArray first = chunk(token("A") + "\n");
            int lineEnd = -1;
            for (qsizetype i = 0; i < first.size(); ++i) {
                s.pieces.append(first.mid(i, 1));
                s.pauseMs.append(kBytePauseMs);
                // The data line's \n is the first \n after the size line's CRLF.
                if (lineEnd < 0 && i > first.indexOf("\r\n") + 1 && first[i] == '\n')
                    lineEnd = int(s.pieces.size() - 1);
            }
            s.pieces.append(chunk(token("B") + "\n"));
            s.pauseMs.append(kPauseMs);
            s.pieces.append(kEnd);
            s.pauseMs.append(kPauseMs);
            rows.append(
                {"first chunk split at every byte", {s, {lineEnd, int(s.pieces.size() - 2)}}});
        }
        for (Client c : {Client::SocketKernel, Client::SocketUser, Client::Qnam}) {
            const char *name = c == Client::SocketKernel ? "socket-kernel"
                               : c == Client::SocketUser ? "socket-user"
                                                         : "qnam";
            for (const auto &row : rows)
                QTest::addRow("%s: %s", name, row.first)
                    << int(c) << row.second.first << row.second.second;
        }
    }

    void eachChunkHasItsPiecesTime()
    {
        QFETCH(int, client);
        QFETCH(Script, script);
        QFETCH(QList<int>, expected);
        PieceServer server(script);
        std::unique_ptr<Transport> t = makeTransport(Client(client));
        TransportOptions options;
        options.connectionMode = ConnectionMode::Lazy;
        t->setOptions(options);
        t->prepare(1);
        QSignalSpy spy(t.get(), &Transport::requestFinished);
        RequestJob job;
        job.url = server.url();
        job.body = "{\"prompt\":\"x\",\"stream\":true}";
        job.headers = {{"Content-Type", "application/json"}};
        job.timeoutNs = 20'000'000'000;
        job.record.requestId = u"r"_s;
        t->submit(job);
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), 1, 30000);
        const RequestRecord r = spy.at(0).at(0).value<RequestRecord>();
        QVERIFY2(r.ok(), qPrintable(r.errorMessage));
        const QList<qint64> writes = server.writes();
        QCOMPARE(writes.size(), script.pieces.size());
        QCOMPARE(r.chunkTimes.size(), expected.size());
        for (qsizetype k = 0; k < expected.size(); ++k) {
            const int p = expected[k];
            const qint64 from = writes[p];
            const qint64 to = p + 1 < writes.size() ? writes[p + 1] : from + 1'000'000'000;
            const qint64 got = r.chunkTimes[k];
            QVERIFY2(got >= from && got < to,
                     qPrintable(u"chunk %1 stamped %2 ms after piece %3 was written; it must lie "
                                "before piece %4 (+%5 ms)"_s.arg(k)
                                    .arg(nsToMs(got - from), 0, 'f', 3)
                                    .arg(p)
                                    .arg(p + 1)
                                    .arg(nsToMs(to - from), 0, 'f', 3)));
        }
        QCOMPARE(r.tFirst, r.chunkTimes.first());
    }
};

QTEST_GUILESS_MAIN(TestReceiveStamps)
#include "tst_receivestamps.moc"
