#include "simulator.h"

#include "simserver.h"

#include <QThread>

using namespace Qt::StringLiterals;

namespace sb {

Simulator::Simulator(const SimConfig &config)
    : m_config(config), m_stats(std::make_unique<SimStats>())
{}

Simulator::~Simulator()
{
    stop();
}

bool Simulator::start()
{
    QMutexLocker lock(&m_mutex);
    if (m_thread)
        return true;
    m_error.clear();
    m_stats->reset();
    m_thread = new QThread;
    m_thread->setObjectName(u"sb-simulator"_s);
    m_server = new SimServer(m_stats.get());
    m_server->moveToThread(m_thread);
    m_thread->start();

    bool ok = false;
    QString error;
    quint16 port = 0;
    const SimConfig config = m_config;
    SimServer *server = m_server;
    QMetaObject::invokeMethod(
        m_server,
        [server, config, &ok, &error, &port] {
            ok = server->listen(config, &error);
            port = server->port();
        },
        Qt::BlockingQueuedConnection);
    if (!ok) {
        m_error = error;
        QMetaObject::invokeMethod(
            m_server, [server] { server->shutdown(); }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
        delete m_server;
        delete m_thread;
        m_server = nullptr;
        m_thread = nullptr;
        return false;
    }
    m_port = port;
    return true;
}

void Simulator::stop()
{
    QMutexLocker lock(&m_mutex);
    if (!m_thread)
        return;
    SimServer *server = m_server;
    // Everything the server's thread created (listener, sockets, timer) dies in that thread.
    QMetaObject::invokeMethod(
        m_server, [server] { server->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_server; // its thread has finished and it owns nothing thread-bound any more
    delete m_thread;
    m_server = nullptr;
    m_thread = nullptr;
    m_port = 0;
}

void Simulator::setRequestLogSink(std::function<void(const SimLogEntry &)> sink)
{
    QMutexLocker lock(&m_mutex);
    m_stats->setSink(std::move(sink));
}

bool Simulator::isRunning() const
{
    QMutexLocker lock(&m_mutex);
    return m_thread != nullptr;
}

QString Simulator::errorString() const
{
    QMutexLocker lock(&m_mutex);
    return m_error;
}

QString Simulator::host() const
{
    QMutexLocker lock(&m_mutex);
    return m_config.host;
}

quint16 Simulator::port() const
{
    QMutexLocker lock(&m_mutex);
    return m_port;
}

QUrl Simulator::baseUrl() const
{
    QMutexLocker lock(&m_mutex);
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(m_config.host);
    url.setPort(m_port);
    return url;
}

SimConfig Simulator::config() const
{
    QMutexLocker lock(&m_mutex);
    return m_config;
}

void Simulator::setConfig(const SimConfig &config)
{
    QMutexLocker lock(&m_mutex);
    m_config = config;
    if (m_server) {
        SimServer *server = m_server;
        QMetaObject::invokeMethod(
            m_server, [server, config] { server->setConfig(config); },
            Qt::BlockingQueuedConnection);
    }
}

SimCounters Simulator::counters() const
{
    return m_stats->counters();
}
int Simulator::openConnections() const
{
    return m_stats->counters().openConnections;
}
int Simulator::maxOpenConnections() const
{
    return m_stats->counters().maxOpenConnections;
}
int Simulator::activeStreams() const
{
    return m_stats->counters().activeStreams;
}
int Simulator::maxActiveStreams() const
{
    return m_stats->counters().maxActiveStreams;
}
QList<SimLogEntry> Simulator::requestLog() const
{
    return m_stats->entries();
}

bool Simulator::waitForLogEntries(qsizetype count, int timeoutMs) const
{
    return m_stats->waitForEntries(count, timeoutMs);
}

void Simulator::reset()
{
    m_stats->reset();
}

void Simulator::clearPrefixCache()
{
    QMutexLocker lock(&m_mutex);
    if (SimServer *server = m_server)
        QMetaObject::invokeMethod(
            server, [server] { server->clearPrefixCache(); }, Qt::BlockingQueuedConnection);
}

Simulator::PrefixCacheState Simulator::prefixCacheState() const
{
    QMutexLocker lock(&m_mutex);
    PrefixCacheState st;
    if (SimServer *server = m_server)
        QMetaObject::invokeMethod(
            server,
            [server, &st] { server->prefixCacheState(&st.blocks, &st.capacity, &st.evictions); },
            Qt::BlockingQueuedConnection);
    return st;
}

} // namespace sb
