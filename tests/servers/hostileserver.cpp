// hostileserver: an HTTP server that misbehaves on purpose, one way per run, for the client's
// robustness tests. Plain POSIX and the C++ standard library; nothing of the project. Every
// connection reads one request (head and Content-Length body), then does what --mode says:
//
//   flood           SSE token events as fast as the socket takes them, never [DONE]
//   flood-empty     the same with events that carry no token (empty text), so the client's
//                   records do not grow: only the request timeout can end it
//   endless-line    "data: " then 'x' forever: a line that never ends
//   head-close      the response head, then close
//   drip            the head, then one byte of a valid event every --interval-ms, forever
//   stall           the head, then nothing (the connection stays open)
//   silent          no answer at all (the connection stays open)
//   garbage-chunk   the head, then a chunk size that is not hexadecimal
//   huge-chunk      the head, a 13-hex-digit chunk size, then body bytes as fast as possible
//   huge-head       a status line, then header fields without end
//   interim-flood   "HTTP/1.1 100 Continue" interim responses without end
//
// Usage: hostileserver --mode MODE [--port N] [--interval-ms 200] [--pace-us 0]
// --pace-us pauses after each batch of the full-speed bodies (flood, endless-line, huge-chunk).
// Prints "LISTENING <port>" on stdout once it accepts connections, and for the full-speed
// bodies "SENT <bytes>" (the body bytes the kernel took so far) every 4 MiB and when the
// connection ends: a test that timed out can say how fast the client took them.
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

std::string g_mode;
int g_intervalMs = 200;
int g_paceUs = 0; // a pause after each batch of a full-speed body (0: none)
constexpr unsigned long long kReportEvery = 4ull << 20;

void pace()
{
    if (g_paceUs > 0)
        ::usleep(useconds_t(g_paceUs));
}

bool sendAll(int fd, const std::string &s);

// Sends a full-speed body: batch after batch until the peer stops taking them, reporting the
// bytes sent on stdout.
void sendBody(int fd, const std::string &batch)
{
    unsigned long long sent = 0;
    unsigned long long reported = 0;
    while (sendAll(fd, batch)) {
        sent += batch.size();
        if (sent - reported >= kReportEvery) {
            std::printf("SENT %llu\n", sent);
            std::fflush(stdout);
            reported = sent;
        }
        pace();
    }
    std::printf("SENT %llu\n", sent);
    std::fflush(stdout);
}

bool sendAll(int fd, const std::string &s)
{
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += size_t(n);
    }
    return true;
}

std::string chunked(const std::string &data)
{
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
}

const std::string kHead = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                          "transfer-encoding: chunked\r\n\r\n";
const std::string kEvent = "data: {\"choices\":[{\"index\":0,\"text\":\"x\"}]}\n\n";

bool readRequest(int fd)
{
    std::string in;
    char buf[8192];
    for (;;) {
        const size_t end = in.find("\r\n\r\n");
        if (end != std::string::npos) {
            size_t length = 0;
            for (size_t p = in.find("\r\n"); p != std::string::npos && p < end;
                 p = in.find("\r\n", p + 2)) {
                if (strncasecmp(in.c_str() + p + 2, "content-length:", 15) == 0)
                    length = size_t(std::strtoull(in.c_str() + p + 17, nullptr, 10));
            }
            if (in.size() >= end + 4 + length)
                return true;
        }
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return false;
        in.append(buf, size_t(n));
    }
}

void holdOpen(int fd)
{
    char buf[4096];
    while (::recv(fd, buf, sizeof buf, 0) > 0) {
    }
}

void serve(int fd)
{
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!readRequest(fd)) {
        ::close(fd);
        return;
    }
    const std::string &m = g_mode;
    if (m == "flood" || m == "flood-empty") {
        const std::string event = m == "flood" ? kEvent
                                               : std::string("data: {\"choices\":[{\"index\":0,"
                                                             "\"text\":\"\"}]}\n\n");
        std::string batch;
        while (batch.size() < 60000)
            batch += chunked(event);
        if (sendAll(fd, kHead))
            sendBody(fd, batch);
    } else if (m == "endless-line") {
        const std::string x = chunked(std::string(65536, 'x'));
        if (sendAll(fd, kHead) && sendAll(fd, chunked("data: ")))
            sendBody(fd, x);
    } else if (m == "head-close") {
        sendAll(fd, kHead);
    } else if (m == "drip") {
        // A valid event byte by byte, over and over: never a complete response, never idle.
        const std::string event = chunked(kEvent);
        if (sendAll(fd, kHead))
            for (size_t i = 0;; ++i) {
                if (!sendAll(fd, std::string(1, event[i % event.size()])))
                    break;
                ::usleep(useconds_t(g_intervalMs) * 1000);
            }
    } else if (m == "stall") {
        if (sendAll(fd, kHead))
            holdOpen(fd);
    } else if (m == "silent") {
        holdOpen(fd);
    } else if (m == "garbage-chunk") {
        if (sendAll(fd, kHead) && sendAll(fd, "zz\r\n" + kEvent + "\r\n"))
            holdOpen(fd);
    } else if (m == "huge-chunk") {
        const std::string x(65536, 'x');
        if (sendAll(fd, kHead) && sendAll(fd, "fffffffffffff\r\n"))
            sendBody(fd, x);
    } else if (m == "huge-head") {
        const std::string line = "x-pad: " + std::string(1000, 'p') + "\r\n";
        std::string batch;
        while (batch.size() < 60000)
            batch += line;
        if (sendAll(fd, "HTTP/1.1 200 OK\r\n"))
            while (sendAll(fd, batch)) {
            }
    } else if (m == "interim-flood") {
        std::string batch;
        while (batch.size() < 60000)
            batch += "HTTP/1.1 100 Continue\r\n\r\n";
        while (sendAll(fd, batch)) {
        }
    }
    ::close(fd);
}

} // namespace

int main(int argc, char **argv)
{
    int port = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mode" && i + 1 < argc)
            g_mode = argv[++i];
        else if (a == "--port" && i + 1 < argc)
            port = std::atoi(argv[++i]);
        else if (a == "--interval-ms" && i + 1 < argc)
            g_intervalMs = std::atoi(argv[++i]);
        else if (a == "--pace-us" && i + 1 < argc)
            g_paceUs = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "hostileserver: unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    static const char *const modes[] = {
        "flood",  "flood-empty",   "endless-line", "head-close", "drip",         "stall",
        "silent", "garbage-chunk", "huge-chunk",   "huge-head",  "interim-flood"};
    bool known = false;
    for (const char *m : modes)
        known = known || g_mode == m;
    if (!known) {
        std::fprintf(stderr,
                     "hostileserver: --mode must be one of the modes listed in the source\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    const int listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(uint16_t(port));
    if (::bind(listenFd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        ::listen(listenFd, 128) != 0) {
        std::fprintf(stderr, "hostileserver: cannot listen: %s\n", std::strerror(errno));
        return 1;
    }
    socklen_t len = sizeof a;
    ::getsockname(listenFd, reinterpret_cast<sockaddr *>(&a), &len);
    std::printf("LISTENING %d\n", ntohs(a.sin_port));
    std::fflush(stdout);
    for (;;) {
        const int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        std::thread(serve, fd).detach();
    }
}
