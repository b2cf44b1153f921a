// The client's parse ceiling against nginx serving a static SSE file (needs the nginx binary,
// Debian: nginx-light): a server that costs almost nothing per event, so the figure is the
// client's. Each request gets the same file (Content-Length body: `events` completion chunks,
// vLLM-shaped, then usage and [DONE]); closed loop at each concurrency for `seconds`.
//   bench_nginx_ceiling [seconds=3] [runs=3] [streams=64,256] [events=256] [transport=socket]
//   bench_nginx_ceiling --requests N [streams] [events] [transport]   (a fixed amount of work,
//                        one run: for valgrind --tool=callgrind)
// Prints per run: token events/s, requests/s, client CPU µs per event (getrusage of this
// process: every client thread), nginx's CPU share, and the load average.
#include "benchutil.h"

#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

using namespace bench;
using namespace Qt::StringLiterals;

namespace {

QByteArray sseFile(int events)
{
    QByteArray out;
    for (int i = 0; i < events; ++i) {
        out += "data: {\"id\":\"cmpl-0123456789abcdef\",\"object\":\"text_completion\",\"created\":"
               "1718031302,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":"
               "0,\"text\":\" tok" +
               QByteArray::number(i) + "\",\"logprobs\":null,\"finish_reason\":" +
               (i + 1 == events ? "\"length\"" : "null") +
               ",\"stop_reason\":null}],\"usage\":null}\n\n";
    }
    out += "data: {\"id\":\"cmpl-0123456789abcdef\",\"object\":\"text_completion\",\"created\":"
           "1718031302,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],\"usage\":"
           "{\"prompt_tokens\":4,\"total_tokens\":" +
           QByteArray::number(events + 4) + ",\"completion_tokens\":" + QByteArray::number(events) +
           "}}\n\ndata: [DONE]\n\n";
    return out;
}

double processCpuS(qint64 pid)
{
    QFile f(u"/proc/%1/stat"_s.arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray st = f.readAll();
    const QList<QByteArray> fields = st.mid(st.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12
               ? (fields[11].toDouble() + fields[12].toDouble()) / double(sysconf(_SC_CLK_TCK))
               : 0;
}

class Nginx
{
public:
    bool start(int events, QString *error)
    {
        if (!m_dir.isValid())
            return false;
        QFile sse(m_dir.filePath(u"v1/completions"_s));
        QDir(m_dir.path()).mkpath(u"v1"_s);
        if (!sse.open(QIODevice::WriteOnly) || sse.write(sseFile(events)) < 0)
            return false;
        sse.close();
        QTcpServer probe; // a free port
        probe.listen(QHostAddress::LocalHost);
        m_port = probe.serverPort();
        probe.close();
        const QString conf =
            u"daemon off; master_process off; worker_processes 1; pid %1/nginx.pid;\n"
            "error_log %1/error.log;\n"
            "events { worker_connections 8192; }\n"
            "http { access_log off; default_type text/event-stream; sendfile on;\n"
            "  tcp_nodelay on; keepalive_requests 100000000; keepalive_timeout 600s;\n"
            "  client_body_temp_path %1; proxy_temp_path %1; fastcgi_temp_path %1;\n"
            "  uwsgi_temp_path %1; scgi_temp_path %1;\n"
            // The static module answers POST with 405; this turns that into the file.
            "  server { listen 127.0.0.1:%2; root %1; location / { error_page 405 =200 $uri; } }\n"
            "}\n"_s.arg(m_dir.path())
                .arg(m_port);
        QFile c(m_dir.filePath(u"nginx.conf"_s));
        if (!c.open(QIODevice::WriteOnly) || c.write(conf.toUtf8()) < 0)
            return false;
        c.close();
        m_process.setProgram(u"nginx"_s);
        m_process.setArguments({u"-c"_s, c.fileName(), u"-p"_s, m_dir.path()});
        m_process.setProcessChannelMode(QProcess::ForwardedChannels);
        m_process.start();
        if (!m_process.waitForStarted(5000)) {
            *error = u"cannot start nginx (Debian: apt install nginx-light): "_s +
                     m_process.errorString();
            return false;
        }
        for (int i = 0; i < 100; ++i) { // until it accepts connections
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, quint16(m_port));
            if (s.waitForConnected(100))
                return true;
            QThread::msleep(20);
        }
        *error = u"nginx did not start listening"_s;
        return false;
    }
    ~Nginx()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
    }
    QString url() const { return u"http://127.0.0.1:%1"_s.arg(m_port); }
    qint64 pid() const { return m_process.processId(); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    QStringList args = app.arguments().mid(1);
    qint64 fixedRequests = 0;
    if (!args.isEmpty() && args.first() == "--requests"_L1) {
        fixedRequests = args.value(1).toLongLong();
        args = args.mid(2);
        args.prepend(u"0"_s);   // seconds (unused)
        args.insert(1, u"1"_s); // runs
    }
    const double seconds = args.value(0, u"3"_s).toDouble();
    const int runs = args.value(1, u"3"_s).toInt();
    const QStringList streamsList = args.value(2, u"64,256"_s).split(u',');
    const int events = args.value(3, u"256"_s).toInt();
    const TransportKind kind =
        args.value(4, u"socket"_s) == "qnam"_L1 ? TransportKind::Qnam : TransportKind::Socket;
    printHost();
    Nginx nginx;
    QString error;
    if (!nginx.start(events, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("# nginx static SSE file, %d token events per response, %s transport\n", events,
                transportKindName(kind));
    std::printf("# %6s %3s %6s %14s %10s %14s %12s\n", "streams", "run", "load", "events/s",
                "req/s", "client us/ev", "nginx share");
    for (const QString &st : streamsList) {
        const int streams = st.toInt();
        std::vector<double> rate, cpu, share;
        for (int run = 0; run < runs; ++run) {
            RunPlan p = plan(nginx.url());
            p.profile.closedLoopConcurrency = streams;
            if (fixedRequests > 0) {
                p.profile.numPrompts = int(fixedRequests);
            } else {
                p.profile.durationS = seconds;
                p.profile.numPrompts = 0;
            }
            QFile la(u"/proc/loadavg"_s);
            la.open(QIODevice::ReadOnly);
            const double load = la.readAll().split(' ').value(0).toDouble();
            const double n0 = processCpuS(nginx.pid());
            const EngineRun r = runEngine(p, items(1000, events), kind, 600000);
            const double nginxCpu = processCpuS(nginx.pid()) - n0;
            const double evs = r.seconds > 0 ? double(r.events) / r.seconds : 0;
            const double us = r.events ? r.cpuS / double(r.events) * 1e6 : 0;
            rate.push_back(evs);
            cpu.push_back(us);
            share.push_back(r.seconds > 0 ? nginxCpu / r.seconds : 0);
            std::printf("  %6d %3d %6.2f %14.0f %10.0f %14.3f %12.2f   (%lld ok, %lld failed)\n",
                        streams, run, load, evs, r.seconds > 0 ? double(r.ok) / r.seconds : 0, us,
                        share.back(), r.ok, r.failed);
            std::fflush(stdout);
        }
        std::printf("= %d streams: events/s %s; client us/event %s; nginx share %s\n", streams,
                    mmm(rate, 0).constData(), mmm(cpu, 3).constData(), mmm(share, 2).constData());
        std::fflush(stdout);
    }
    return 0;
}
