#include "managedserver.h"

#include "client/endpointprobe.h"
#include "common/clock.h"
#include "store/projectstore.h"

#include <QRegularExpression>
#include <QUuid>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

void sleepMs(int ms)
{
    ::usleep(useconds_t(ms) * 1000);
}

QString isoUtc(const QDateTime &t)
{
    return t.isValid() ? t.toString(Qt::ISODateWithMs) : QString();
}

} // namespace

ManagedServer::ManagedServer(ManagedServerConfig config, const SutConfig &sut,
                             const QByteArray &apiKey, const TransportOptions &options)
    : m_config(std::move(config)), m_probeSut(sut), m_apiKey(apiKey), m_options(options),
      m_instance(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    // The default is where every probe of the SUT's server goes (a base URL's /v1 dropped).
    m_healthUrl = m_config.healthUrl.isEmpty()
                      ? EndpointProbe(sut, {}, options, 0).url(u"/health"_s)
                      : QUrl(m_config.healthUrl);
    // The probe's base is the health URL's origin; its path is asked for in start().
    m_probeSut.baseUrl = m_healthUrl.adjusted(QUrl::RemovePath | QUrl::RemoveQuery |
                                              QUrl::RemoveFragment)
                             .toString();
}

ManagedServer::~ManagedServer()
{
    if (m_state == State::Starting || m_state == State::Healthy || m_state == State::Failed)
        stop();
    if (m_reader.joinable())
        m_reader.join();
}

bool ManagedServer::start(const std::atomic<bool> *cancelled,
                          const std::function<void(const QString &)> &progress)
{
    if (m_state != State::NotStarted) {
        m_error = u"a managed server starts once; make a new one to start again"_s;
        return false;
    }
    const QString path = m_healthUrl.path(QUrl::FullyEncoded).isEmpty()
                             ? u"/"_s
                             : m_healthUrl.path(QUrl::FullyEncoded) +
                                   (m_healthUrl.hasQuery() ? u'?' + m_healthUrl.query() : QString());
    {
        // Something already answering there would pass for the server about to start (and the
        // run would measure it): refused before anything is started.
        EndpointProbe probe(m_probeSut, m_apiKey, m_options, 1000);
        const ProbeReply r = probe.get(path);
        if (r.answered) {
            m_state = State::Failed;
            m_error = u"%1 already answers (HTTP %2) before the server is started: another "
                      "server holds its port; stop it or choose another port"_s.arg(
                          m_healthUrl.toString(), QString::number(r.status));
            return false;
        }
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        m_state = State::Failed;
        m_error = u"cannot create a pipe for the server's output: %1"_s.arg(
            QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    // Everything the child needs is made before fork(): after it, only async-signal-safe calls.
    const QByteArray command = m_config.startCommand.toLocal8Bit();
    const QByteArray dir = m_config.workingDirectory.toLocal8Bit();
    m_startNs = monotonicNs();
    m_startedUtc = QDateTime::currentDateTimeUtc();
    m_state = State::Starting;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        m_state = State::Failed;
        m_error = u"cannot start the server: fork failed: %1"_s.arg(
            QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    if (pid == 0) {
        ::setsid(); // a process group of its own: stop() signals the whole group
        ::dup2(fds[1], 1);
        ::dup2(fds[1], 2);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            ::dup2(devnull, 0);
        if (!dir.isEmpty() && ::chdir(dir.constData()) != 0) {
            static const char msg[] = "servebench: cannot enter the server's working directory\n";
            (void)!::write(2, msg, sizeof msg - 1);
            ::_exit(126);
        }
        ::execl("/bin/sh", "sh", "-c", command.constData(), static_cast<char *>(nullptr));
        ::_exit(127);
    }
    ::close(fds[1]);
    m_pid = pid;
    m_reader = std::thread([this, fd = fds[0]] { readLoop(fd); });

    const qint64 deadline = m_startNs + qint64(m_config.startTimeoutS * 1e9);
    qint64 nextProgress = m_startNs + 1'000'000'000;
    QString lastAnswer = u"no answer yet"_s;
    for (;;) {
        if (reap(false)) {
            m_state = State::Failed;
            m_error = u"the server exited during start-up (%1) before %2 answered"_s.arg(
                exitText(), m_healthUrl.toString());
            break;
        }
        {
            EndpointProbe probe(m_probeSut, m_apiKey, m_options, 2000);
            const ProbeReply r = probe.get(path);
            if (r.answered && r.status >= 200 && r.status < 300) {
                m_startupMs = (monotonicNs() - m_startNs) / 1'000'000;
                m_healthyUtc = QDateTime::currentDateTimeUtc();
                m_state = State::Healthy;
                return true;
            }
            lastAnswer = r.answered ? u"HTTP %1"_s.arg(r.status) : r.error;
        }
        const qint64 now = monotonicNs();
        if (cancelled && cancelled->load()) {
            m_state = State::Failed;
            m_error = u"the server's start was cancelled"_s;
            break;
        }
        if (now >= deadline) {
            m_state = State::Failed;
            m_error = u"the server did not become healthy within %1 s (%2: %3)"_s.arg(
                QString::number(m_config.startTimeoutS), m_healthUrl.toString(), lastAnswer);
            break;
        }
        if (progress && now >= nextProgress) {
            progress(u"Waiting for the managed server to become healthy (%1 s) …"_s.arg(
                (now - m_startNs) / 1'000'000'000));
            nextProgress = now + 1'000'000'000;
        }
        // Every 50 ms for the first 2 s (the start-up time is then exact to 50 ms for a quick
        // server), every 250 ms afterwards (a server loading weights for minutes).
        sleepMs(now - m_startNs < 2'000'000'000 ? 50 : 250);
    }
    // Failed: stop what is left and say what the server last printed.
    stop();
    m_state = State::Failed;
    const QStringList lines = lastLines(20);
    if (!lines.isEmpty())
        m_error += u"; its last output:\n"_s + lines.join(u'\n');
    else
        m_error += u"; it printed nothing"_s;
    return false;
}

void ManagedServer::readLoop(int fd)
{
    char buf[16384];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        std::lock_guard lock(m_outMutex);
        m_total += n;
        qint64 used = 0;
        if (m_head.size() < kHeadBytes) {
            used = std::min<qint64>(n, kHeadBytes - m_head.size());
            m_head.append(buf, used);
        }
        if (used < n) {
            m_tail.append(buf + used, n - used);
            if (m_tail.size() > kTailBytes)
                m_tail.remove(0, m_tail.size() - kTailBytes);
        }
    }
    ::close(fd);
}

bool ManagedServer::reap(bool wait)
{
    if (m_reaped)
        return true;
    if (m_pid <= 0)
        return false;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, wait ? 0 : WNOHANG);
    if (r == m_pid) {
        m_reaped = true;
        m_exitStatus = status;
        return true;
    }
    return false;
}

bool ManagedServer::exited() const
{
    return m_reaped;
}

bool ManagedServer::alive()
{
    return m_state == State::Healthy && !reap(false);
}

bool ManagedServer::groupAlive() const
{
    // The group id is the leader's pid (setsid). A zombie leader still counts: reap() first.
    return m_pid > 0 && (::kill(-m_pid, 0) == 0 || errno == EPERM);
}

bool ManagedServer::waitGroupGone(int ms)
{
    const qint64 deadline = monotonicNs() + qint64(ms) * 1'000'000;
    for (;;) {
        reap(false);
        if (!groupAlive())
            return true;
        if (monotonicNs() >= deadline)
            return false;
        sleepMs(20);
    }
}

bool ManagedServer::stop()
{
    if (m_pid <= 0 || m_stoppedUtc.isValid() || m_state == State::NotStarted)
        return !m_left;
    const qint64 t0 = monotonicNs();
    reap(false);
    m_exitedBeforeStop = m_exitedBeforeStop || m_reaped;
    if (!m_config.stopCommand.trimmed().isEmpty() && groupAlive()) {
        // The user's own stop (docker stop, systemctl stop …), in its own group, bounded.
        const QByteArray command = m_config.stopCommand.toLocal8Bit();
        const pid_t s = ::fork();
        if (s == 0) {
            ::setsid();
            const int devnull = ::open("/dev/null", O_RDWR);
            if (devnull >= 0) {
                ::dup2(devnull, 0);
                ::dup2(devnull, 1);
                ::dup2(devnull, 2);
            }
            ::execl("/bin/sh", "sh", "-c", command.constData(), static_cast<char *>(nullptr));
            ::_exit(127);
        }
        if (s > 0) {
            const qint64 deadline = monotonicNs() + qint64(kTermGraceMs) * 1'000'000;
            int status = 0;
            while (::waitpid(s, &status, WNOHANG) == 0 && monotonicNs() < deadline)
                sleepMs(20);
            if (::waitpid(s, &status, WNOHANG) == 0) {
                ::kill(-s, SIGKILL);
                ::waitpid(s, &status, 0);
            }
        }
        m_stopHow = u"stop command"_s;
        if (!waitGroupGone(kTermGraceMs))
            m_stopHow += u", then SIGTERM"_s;
    }
    if (groupAlive()) {
        ::kill(-m_pid, SIGTERM);
        if (m_stopHow.isEmpty())
            m_stopHow = u"SIGTERM to the process group"_s;
        if (!waitGroupGone(kTermGraceMs)) {
            ::kill(-m_pid, SIGKILL);
            m_stopHow += u", SIGKILL after %1 s"_s.arg(kTermGraceMs / 1000);
            waitGroupGone(kKillWaitMs);
        }
    } else if (m_stopHow.isEmpty()) {
        m_stopHow = m_exitedBeforeStop ? u"had already exited"_s : u"nothing left to stop"_s;
    }
    reap(false);
    m_left = groupAlive();
    m_stopMs = (monotonicNs() - t0) / 1'000'000;
    m_stoppedUtc = QDateTime::currentDateTimeUtc();
    if (m_state != State::Failed)
        m_state = State::Stopped;
    // The pipe ends when the last process holding it is gone; a process that left the group
    // (setsid or double fork) may still hold it, so the reader is joined only when none is left.
    if (!m_left && m_reader.joinable())
        m_reader.join();
    return !m_left;
}

QString ManagedServer::exitText() const
{
    if (!m_reaped)
        return u"still running"_s;
    if (WIFEXITED(m_exitStatus))
        return u"exit code %1"_s.arg(WEXITSTATUS(m_exitStatus));
    if (WIFSIGNALED(m_exitStatus))
        return u"killed by signal %1"_s.arg(WTERMSIG(m_exitStatus));
    return u"status %1"_s.arg(m_exitStatus);
}

QByteArray ManagedServer::output() const
{
    std::lock_guard lock(m_outMutex);
    QByteArray out = m_head;
    const qint64 left = m_total - m_head.size() - m_tail.size();
    if (left > 0)
        out += "\n[servebench: " + QByteArray::number(left) + " bytes of output left out]\n";
    out += m_tail;
    return out;
}

qint64 ManagedServer::outputBytes() const
{
    std::lock_guard lock(m_outMutex);
    return m_total;
}

QStringList ManagedServer::lastLines(int n) const
{
    const QString text = QString::fromUtf8(output());
    QStringList lines = text.split(u'\n');
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    return lines.mid(std::max<qsizetype>(0, lines.size() - n));
}

QJsonObject ManagedServer::info() const
{
    QJsonObject o{
        {u"instance"_s, m_instance},
        {u"start_command"_s, m_config.startCommand},
        {u"stop_command"_s, m_config.stopCommand},
        {u"health_url"_s, m_healthUrl.toString(QUrl::RemoveUserInfo)},
        {u"start_timeout_s"_s, m_config.startTimeoutS},
        {u"lifetime"_s, m_config.lifetime},
        {u"pid"_s, qint64(m_pid)},
        {u"started_utc"_s, isoUtc(m_startedUtc)},
        {u"healthy_utc"_s, isoUtc(m_healthyUtc)},
        {u"startup_ms"_s, m_startupMs},
        {u"state"_s, m_state == State::Healthy   ? u"healthy"_s
                     : m_state == State::Stopped ? u"stopped"_s
                     : m_state == State::Failed  ? u"failed"_s
                                                 : u"starting"_s},
        {u"output_bytes"_s, outputBytes()},
    };
    if (!m_config.workingDirectory.isEmpty())
        o.insert(u"working_directory"_s, m_config.workingDirectory);
    if (!m_error.isEmpty())
        o.insert(u"error"_s, m_error.section(u'\n', 0, 0));
    if (m_stoppedUtc.isValid()) {
        o.insert(u"stopped_utc"_s, isoUtc(m_stoppedUtc));
        o.insert(u"stop"_s, m_stopHow);
        o.insert(u"stop_ms"_s, m_stopMs);
        o.insert(u"exit"_s, exitText());
        o.insert(u"exited_before_stop"_s, m_exitedBeforeStop);
        o.insert(u"processes_left"_s, m_left);
    }
    return o;
}

QString literalSecretIn(const QString &command)
{
    // NAME=value with a NAME ending in TOKEN, KEY, SECRET or PASSWORD, and --flag value /
    // --flag=value with a flag ending so (--api-key, --hf-token; not --max-num-batched-tokens or
    // --tokenizer); a value starting with $ is a reference the shell expands.
    static const QRegularExpression assign(
        u"(?<![A-Za-z0-9_-])([A-Za-z0-9_]*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD))="
        "['\"]?([^\\s'\"$][^\\s'\"]*)"_s,
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression flag(
        u"(?<![A-Za-z0-9-])(--?(?:[A-Za-z0-9]+-)*(?:token|key|secret|password|passwd))(?:=|\\s+)"
        "['\"]?([^\\s'\"$-][^\\s'\"]*)"_s,
        QRegularExpression::CaseInsensitiveOption);
    for (const QRegularExpression *re : {&assign, &flag}) {
        const QRegularExpressionMatch m = re->match(command);
        if (m.hasMatch())
            return m.captured(1) + (re == &assign ? u"=…"_s : u" …"_s);
    }
    return {};
}

bool saveManagedServerLog(const QString &projectPath, const ManagedServer &server,
                          const QString &sut, QString *note)
{
    StoredServerLog log;
    log.instance = server.instanceId();
    log.sut = sut;
    log.info = server.info();
    log.startedUtc = log.info.value(u"started_utc"_s).toString();
    log.output = server.output();
    ProjectStore store;
    if (!store.open(projectPath) || !store.saveServerLog(log)) {
        if (note)
            *note = u"the managed server's log could not be stored: %1"_s.arg(store.lastError());
        return false;
    }
    return true;
}

} // namespace sb
