// pacedserver: an OpenAI-compatible streaming server that shares no code with ServeBench (plain
// POSIX and the C++ standard library; it links nothing of the project), so the client's timing
// can be checked against an implementation of its own.
//
// One thread, one epoll loop. Every request gets an SSE completion on an absolute schedule: the
// response head at once (as uvicorn sends it for vLLM), token chunk k (0-based) due at
//   t_parsed + ttft + k * itl
// where t_parsed is when the request was complete; a late wake-up does not shift later chunks.
// Each token chunk is one write() of its own (the last one also carries the usage chunk,
// data: [DONE] and the terminating chunk), so every token event is a segment of its own.
//
// The log (--log FILE, one JSON line per request, written when the loop is idle, on SIGUSR1 and on
// exit) holds, on CLOCK_MONOTONIC (the clock ServeBench's records use):
//   id              the request's x-request-id
//   conn, req_on_conn   the connection's accept order (from 0) and the request's position on it
//   t_accept_ns     accept() returned the connection (user space)
//   t_req_first_ns  kernel receive time of the first segment of the request (SO_TIMESTAMPNS,
//                   CLOCK_REALTIME mapped to CLOCK_MONOTONIC by an offset sampled between two
//                   monotonic readings, at most ~20 us wide), or the time before the read when
//                   the kernel gave none (then req_kernel is false)
//   t_req_last_ns   the same for the segment that completed the request
//   t_parsed_ns     the request was parsed (the schedule's origin)
//   t_head_write_ns right before the response head's write()
//   writes_ns       right before each token chunk's write(), one per token
//   tokens, aborted (the client went away first), backlog (chunks that found unsent bytes
//   queued on the connection, so their write time is not when they left)
//
// Usage: pacedserver [--port N] [--ttft-ms 50] [--itl-ms 10] [--tokens 16] [--log FILE]
//                    [--head-with-first]
// The token count is the request body's "max_tokens" when it has one, else --tokens.
// --head-with-first holds the head back and sends it in the first token's write.
// Prints "LISTENING <port>" on stdout once it accepts connections.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

namespace {

using i64 = long long;

i64 nowNs(clockid_t clock)
{
    timespec ts;
    clock_gettime(clock, &ts);
    return i64(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
i64 monoNs()
{
    return nowNs(CLOCK_MONOTONIC);
}

struct Options
{
    int port = 0;
    double ttftMs = 50;
    double itlMs = 10;
    int tokens = 16;
    std::string log;
    bool headWithFirst = false;
};

struct Conn
{
    int fd = -1;
    int index = 0;
    int requests = 0;
    unsigned gen = 0; // bumped per request: stale timer entries are recognised
    i64 tAccept = 0;
    std::string in;
    std::string out; // bytes write() did not take yet
    bool watchingOut = false;
    bool closeAfter = false;
    // The request being read.
    i64 reqFirst = 0;
    i64 reqLast = 0;
    bool reqKernel = true;
    // The response being streamed.
    bool streaming = false;
    bool chat = false;
    bool headSent = false;
    int tokens = 0;
    int sent = 0;
    i64 base = 0;
    std::string id;
    std::string log; // the log line's fields so far
    std::vector<i64> writes;
    i64 tParsed = 0;
    i64 tHeadWrite = 0;
    int backlog = 0;
};

struct Due
{
    i64 at;
    int fd;
    unsigned gen;
    bool operator>(const Due &o) const { return at > o.at; }
};

class Server
{
public:
    explicit Server(Options o) : m_o(std::move(o)) {}
    int run();

private:
    void sampleOffset();
    void acceptAll();
    void onReadable(Conn *c);
    void onWritable(Conn *c);
    bool parseRequest(Conn *c); // false: the connection was closed
    // These return false when the connection was closed (c is gone).
    bool startStream(Conn *c, const std::string &head, const std::string &body, i64 parsed);
    void writeDue(i64 now);
    bool writeChunk(Conn *c);
    bool send(Conn *c, const std::string &bytes);
    void finishLog(Conn *c, bool aborted);
    void closeConn(Conn *c);
    void armTimer();
    void flushLog();

    Options m_o;
    int m_epoll = -1;
    int m_listen = -1;
    int m_timer = -1;
    int m_signals = -1;
    int m_accepted = 0;
    i64 m_realMinusMono = 0;
    i64 m_offsetWindow = 1LL << 62;
    i64 m_armedAt = 0;
    std::vector<std::unique_ptr<Conn>> m_conns; // by descriptor
    std::priority_queue<Due, std::vector<Due>, std::greater<>> m_due;
    std::string m_pendingLog;
    FILE *m_log = nullptr;
};

void Server::sampleOffset()
{
    // The true offset lies in [rt - m2, rt - m1]; the tighter the window, the better. A wider
    // sample never replaces a tighter one (the offset moves only when the wall clock is stepped).
    for (int i = 0; i < 3; ++i) {
        const i64 m1 = monoNs();
        const i64 rt = nowNs(CLOCK_REALTIME);
        const i64 m2 = monoNs();
        if (m2 - m1 < 20000 || m2 - m1 < m_offsetWindow) {
            m_realMinusMono = rt - m2;
            m_offsetWindow = std::max<i64>(m2 - m1, 1);
            if (m2 - m1 < 20000)
                return;
        }
    }
}

int Server::run()
{
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    // Timer expiry on the dot: the default 50 us of slack would be schedule error.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    signal(SIGPIPE, SIG_IGN);

    if (!m_o.log.empty()) {
        m_log = std::fopen(m_o.log.c_str(), "a");
        if (!m_log) {
            std::fprintf(stderr, "pacedserver: cannot open %s: %s\n", m_o.log.c_str(),
                         std::strerror(errno));
            return 1;
        }
    }
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    // Inherited by every accepted socket; asking early also switches the kernel's receive
    // timestamping on before the first request arrives.
    ::setsockopt(m_listen, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(uint16_t(m_o.port));
    if (::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        ::listen(m_listen, 65535) != 0) {
        std::fprintf(stderr, "pacedserver: cannot listen on port %d: %s\n", m_o.port,
                     std::strerror(errno));
        return 1;
    }
    socklen_t len = sizeof a;
    ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);

    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGUSR1);
    sigprocmask(SIG_BLOCK, &mask, nullptr);
    m_signals = ::signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    m_timer = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    for (int fd : {m_listen, m_signals, m_timer}) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    }
    sampleOffset();
    std::printf("LISTENING %d\n", ntohs(a.sin_port));
    std::fflush(stdout);

    std::vector<epoll_event> events(512);
    for (;;) {
        // Idle: nothing due within 2 ms, so writing the log delays no chunk.
        const bool idle = m_due.empty() || m_due.top().at - monoNs() > 2000000;
        if (idle && !m_pendingLog.empty())
            flushLog();
        const int n = ::epoll_wait(m_epoll, events.data(), int(events.size()), idle ? 100 : -1);
        sampleOffset();
        for (int i = 0; i < n; ++i) {
            const int fd = events[size_t(i)].data.fd;
            if (fd == m_listen) {
                acceptAll();
            } else if (fd == m_timer) {
                uint64_t expirations;
                [[maybe_unused]] ssize_t r = ::read(m_timer, &expirations, sizeof expirations);
                m_armedAt = 0;
            } else if (fd == m_signals) {
                signalfd_siginfo si;
                while (::read(m_signals, &si, sizeof si) == ssize_t(sizeof si)) {
                    flushLog();
                    if (si.ssi_signo != SIGUSR1) {
                        if (m_log)
                            std::fclose(m_log);
                        return 0;
                    }
                }
            } else if (size_t(fd) < m_conns.size() && m_conns[size_t(fd)]) {
                Conn *c = m_conns[size_t(fd)].get();
                if (events[size_t(i)].events & EPOLLOUT)
                    onWritable(c);
                if (size_t(fd) < m_conns.size() && m_conns[size_t(fd)].get() == c &&
                    (events[size_t(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                    onReadable(c);
            }
        }
        writeDue(monoNs());
        armTimer();
    }
}

void Server::acceptAll()
{
    for (;;) {
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
        if (m_conns.size() <= size_t(fd))
            m_conns.resize(size_t(fd) + 1);
        auto c = std::make_unique<Conn>();
        c->fd = fd;
        c->index = m_accepted++;
        c->tAccept = monoNs();
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
        m_conns[size_t(fd)] = std::move(c);
    }
}

void Server::onReadable(Conn *c)
{
    char buf[65536];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + 64];
    for (;;) {
        iovec iov{buf, sizeof buf};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        const i64 before = monoNs();
        const ssize_t n = ::recvmsg(c->fd, &msg, 0);
        if (n > 0) {
            i64 t = before;
            bool kernel = false;
            for (cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
                if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
                    timespec ts;
                    std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
                    t = i64(ts.tv_sec) * 1000000000LL + ts.tv_nsec - m_realMinusMono;
                    kernel = true;
                }
            }
            if (c->in.empty() && !c->streaming) {
                c->reqFirst = t;
                c->reqKernel = kernel;
            }
            c->reqKernel = c->reqKernel && kernel;
            c->reqLast = t;
            c->in.append(buf, size_t(n));
            if (c->in.size() > (1u << 24)) { // a request larger than 16 MB is not ours to serve
                closeConn(c);
                return;
            }
            if (!c->streaming && !parseRequest(c))
                return;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        closeConn(c); // end of stream or error
        return;
    }
}

std::string headerValue(const std::string &head, const char *name)
{
    // Case-insensitive search for "\r\nname:".
    const size_t nameLen = std::strlen(name);
    size_t pos = 0;
    while ((pos = head.find("\r\n", pos)) != std::string::npos) {
        pos += 2;
        if (head.size() - pos > nameLen && strncasecmp(head.c_str() + pos, name, nameLen) == 0 &&
            head[pos + nameLen] == ':') {
            size_t v = pos + nameLen + 1;
            const size_t end = head.find("\r\n", v);
            while (v < end && (head[v] == ' ' || head[v] == '\t'))
                ++v;
            size_t e = end;
            while (e > v && (head[e - 1] == ' ' || head[e - 1] == '\t'))
                --e;
            return head.substr(v, e - v);
        }
    }
    return {};
}

bool Server::parseRequest(Conn *c)
{
    const size_t end = c->in.find("\r\n\r\n");
    if (end == std::string::npos)
        return true;
    const std::string head = c->in.substr(0, end + 2);
    const std::string lengthText = headerValue(head, "content-length");
    const size_t length =
        lengthText.empty() ? 0 : size_t(std::strtoull(lengthText.c_str(), nullptr, 10));
    if (c->in.size() < end + 4 + length)
        return true;
    const i64 parsed = monoNs();
    const std::string body = c->in.substr(end + 4, length);
    c->in.erase(0, end + 4 + length);
    std::string connection = headerValue(head, "connection");
    for (char &ch : connection)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    c->closeAfter = connection.find("close") != std::string::npos;
    return startStream(c, head, body, parsed);
}

void appendJsonString(std::string *out, const std::string &s)
{
    out->push_back('"');
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out->push_back('\\');
            out->push_back(ch);
        } else if (u < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", u);
            out->append(esc);
        } else {
            out->push_back(ch);
        }
    }
    out->push_back('"');
}

std::string chunked(const std::string &data)
{
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
}

bool Server::startStream(Conn *c, const std::string &head, const std::string &body, i64 parsed)
{
    c->streaming = true;
    ++c->gen;
    c->id = headerValue(head, "x-request-id");
    c->chat = head.find(" /v1/chat/completions ") != std::string::npos;
    c->tokens = m_o.tokens;
    // The client sends max_tokens (chat also max_completion_tokens, same value).
    const size_t mt = body.find("\"max_tokens\":");
    if (mt != std::string::npos) {
        const int v = std::atoi(body.c_str() + mt + 13);
        if (v > 0)
            c->tokens = v;
    }
    c->sent = 0;
    c->writes.clear();
    c->writes.reserve(size_t(c->tokens));
    c->backlog = 0;
    c->headSent = false;
    c->tParsed = parsed;
    c->base = parsed + i64(m_o.ttftMs * 1e6);
    c->log.clear();
    c->log += "{\"id\":";
    appendJsonString(&c->log, c->id);
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  ",\"conn\":%d,\"req_on_conn\":%d,\"t_accept_ns\":%lld,\"t_req_first_ns\":%lld,"
                  "\"t_req_last_ns\":%lld,\"req_kernel\":%s,\"t_parsed_ns\":%lld",
                  c->index, c->requests, c->tAccept, c->reqFirst, c->reqLast,
                  c->reqKernel ? "true" : "false", parsed);
    c->log += buf;
    ++c->requests;
    if (!m_o.headWithFirst) {
        c->tHeadWrite = monoNs();
        c->headSent = true;
        if (!send(c, std::string("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; "
                                 "charset=utf-8\r\ncache-control: no-cache\r\n"
                                 "transfer-encoding: chunked\r\n") +
                         (c->closeAfter ? "connection: close\r\n" : "") + "\r\n"))
            return false;
    }
    m_due.push({c->base, c->fd, c->gen});
    return true;
}

void Server::writeDue(i64 now)
{
    while (!m_due.empty() && m_due.top().at <= now) {
        const Due d = m_due.top();
        m_due.pop();
        if (size_t(d.fd) >= m_conns.size() || !m_conns[size_t(d.fd)])
            continue;
        Conn *c = m_conns[size_t(d.fd)].get();
        if (c->gen != d.gen || !c->streaming)
            continue;
        writeChunk(c);
        now = monoNs();
    }
}

bool Server::writeChunk(Conn *c)
{
    const int k = c->sent;
    const bool last = k + 1 >= c->tokens;
    std::string out;
    if (!c->headSent) {
        out += std::string("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                           "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n") +
               (c->closeAfter ? "connection: close\r\n" : "") + "\r\n";
        c->headSent = true;
    }
    const char *finish = last ? "\"length\"" : "null";
    char event[512];
    if (c->chat) {
        if (k == 0)
            out += chunked("data: {\"id\":\"chatcmpl-paced\",\"object\":\"chat.completion.chunk\","
                           "\"created\":1700000000,\"model\":\"paced\",\"choices\":[{\"index\":0,"
                           "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                           "\"finish_reason\":null}]}\n\n");
        std::snprintf(event, sizeof event,
                      "data: {\"id\":\"chatcmpl-paced\",\"object\":\"chat.completion.chunk\","
                      "\"created\":1700000000,\"model\":\"paced\",\"choices\":[{\"index\":0,"
                      "\"delta\":{\"content\":\" t%d\"},\"logprobs\":null,\"finish_reason\":%s}]}"
                      "\n\n",
                      k, finish);
    } else {
        std::snprintf(event, sizeof event,
                      "data: {\"id\":\"cmpl-paced\",\"object\":\"text_completion\",\"created\":"
                      "1700000000,\"model\":\"paced\",\"choices\":[{\"index\":0,\"text\":\" t%d\","
                      "\"logprobs\":null,\"finish_reason\":%s}]}\n\n",
                      k, finish);
    }
    out += chunked(event);
    if (last) {
        std::snprintf(event, sizeof event,
                      "data: {\"id\":\"cmpl-paced\",\"object\":\"%s\",\"created\":1700000000,"
                      "\"model\":\"paced\",\"choices\":[],\"usage\":{\"prompt_tokens\":4,"
                      "\"total_tokens\":%d,\"completion_tokens\":%d}}\n\n",
                      c->chat ? "chat.completion.chunk" : "text_completion", c->tokens + 4,
                      c->tokens);
        out += chunked(event);
        out += chunked("data: [DONE]\n\n");
        out += "0\r\n\r\n";
    }
    ++c->sent;
    if (!c->out.empty())
        ++c->backlog;
    const i64 t = monoNs();
    if (k == 0 && c->tHeadWrite == 0)
        c->tHeadWrite = t;
    c->writes.push_back(t);
    if (last) {
        // Logged before the last write goes out, so a client that has seen the end finds it.
        finishLog(c, false);
        c->streaming = false;
        ++c->gen;
    } else {
        m_due.push({c->base + i64(double(k + 1) * m_o.itlMs * 1e6), c->fd, c->gen});
    }
    if (!send(c, out))
        return false;
    if (last) {
        if (c->closeAfter && c->out.empty()) {
            closeConn(c);
            return false;
        }
        // A request that came right behind this response is served now.
        if (!c->in.empty())
            return parseRequest(c);
    }
    return true;
}

bool Server::send(Conn *c, const std::string &bytes)
{
    if (!c->out.empty()) {
        c->out += bytes;
        return true;
    }
    const ssize_t n = ::send(c->fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n == ssize_t(bytes.size()))
        return true;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
        closeConn(c);
        return false;
    }
    c->out = bytes.substr(n > 0 ? size_t(n) : 0);
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT;
    ev.data.fd = c->fd;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, c->fd, &ev);
    c->watchingOut = true;
    return true;
}

void Server::onWritable(Conn *c)
{
    while (!c->out.empty()) {
        const ssize_t n = ::send(c->fd, c->out.data(), c->out.size(), MSG_NOSIGNAL);
        if (n > 0) {
            c->out.erase(0, size_t(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        closeConn(c);
        return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = c->fd;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, c->fd, &ev);
    c->watchingOut = false;
    if (c->closeAfter && !c->streaming)
        closeConn(c);
}

void Server::finishLog(Conn *c, bool aborted)
{
    std::string &l = c->log;
    char buf[96];
    std::snprintf(buf, sizeof buf, ",\"t_head_write_ns\":%lld,\"writes_ns\":[", c->tHeadWrite);
    l += buf;
    for (size_t i = 0; i < c->writes.size(); ++i) {
        std::snprintf(buf, sizeof buf, i ? ",%lld" : "%lld", c->writes[i]);
        l += buf;
    }
    std::snprintf(buf, sizeof buf, "],\"tokens\":%d,\"aborted\":%s,\"backlog\":%d}\n", c->tokens,
                  aborted ? "true" : "false", c->backlog);
    l += buf;
    m_pendingLog += l;
    l.clear();
}

void Server::closeConn(Conn *c)
{
    if (c->streaming)
        finishLog(c, true);
    ::close(c->fd); // leaves the epoll set
    m_conns[size_t(c->fd)].reset();
}

void Server::armTimer()
{
    while (!m_due.empty()) {
        const Due &d = m_due.top();
        const bool live = size_t(d.fd) < m_conns.size() && m_conns[size_t(d.fd)] &&
                          m_conns[size_t(d.fd)]->gen == d.gen;
        if (live)
            break;
        m_due.pop();
    }
    if (m_due.empty() || m_due.top().at == m_armedAt)
        return;
    m_armedAt = m_due.top().at;
    itimerspec its{};
    its.it_value.tv_sec = time_t(m_armedAt / 1000000000LL);
    its.it_value.tv_nsec = long(m_armedAt % 1000000000LL);
    if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
        its.it_value.tv_nsec = 1; // zero would disarm
    ::timerfd_settime(m_timer, TFD_TIMER_ABSTIME, &its, nullptr);
}

void Server::flushLog()
{
    if (m_log && !m_pendingLog.empty()) {
        std::fwrite(m_pendingLog.data(), 1, m_pendingLog.size(), m_log);
        std::fflush(m_log);
    }
    m_pendingLog.clear();
}

bool parseArgs(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "pacedserver: %s needs a value\n", name);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--port")
            o->port = std::atoi(value("--port"));
        else if (a == "--ttft-ms")
            o->ttftMs = std::atof(value("--ttft-ms"));
        else if (a == "--itl-ms")
            o->itlMs = std::atof(value("--itl-ms"));
        else if (a == "--tokens")
            o->tokens = std::max(1, std::atoi(value("--tokens")));
        else if (a == "--log")
            o->log = value("--log");
        else if (a == "--head-with-first")
            o->headWithFirst = true;
        else {
            std::fprintf(stderr, "pacedserver: unknown argument %s\n", a.c_str());
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    if (!parseArgs(argc, argv, &o))
        return 2;
    Server s(o);
    return s.run();
}
