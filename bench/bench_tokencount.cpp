// What counting output tokens with the model's tokenizer (--tokenizer) costs the client: the same
// streamed chat response is fed through StreamAccumulator with and without a tokenizer, and the
// CPU time per response and per token event is printed for both.
//
//   bench_tokencount <tokenizer.json | folder | *.tiktoken> [responses=20000] [tokens=256] [runs=3]
//
// The response is what the simulator streams in reasoning mode: a role event, `tokens` chunks of
// one word each (the first quarter as delta.reasoning_content), the usage chunk and [DONE]. One
// thread, no sockets: this is the accumulator's own ceiling, the part --tokenizer adds to.

#include "client/streamaccumulator.h"
#include "common/clock.h"
#include "tokenizer/tokenizer.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray response(int tokens)
{
    static const char *const words[] = {"the",   "model", "answers", "quickly", "and",   "then",
                                        "stops", "after", "a",       "few",     "short", "words",
                                        "with",  "some",  "numbers", "like",    "42",    "\\n"};
    const QByteArray prefix =
        R"(data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",)";
    QByteArray b = prefix + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})"
                            "\n\n";
    for (int i = 0; i < tokens; ++i) {
        const char *field = i < tokens / 4 ? "reasoning_content" : "content";
        b += prefix + R"("choices":[{"index":0,"delta":{")" + field + "\":\" " +
             words[i % std::size(words)] +
             R"("},"logprobs":null,"finish_reason":null}]})"
             "\n\n";
    }
    b += prefix + R"("choices":[],"usage":{"prompt_tokens":10,"completion_tokens":)" +
         QByteArray::number(tokens) + ",\"total_tokens\":" + QByteArray::number(tokens + 10) +
         "}}\n\ndata: [DONE]\n\n";
    return b;
}

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// CPU seconds to accumulate `n` responses, fed in reads of about 4 KB as a socket delivers them.
double feed(const QByteArray &body, int n, const Tokenizer *tokenizer, qint64 *counted)
{
    const double t0 = cpuSeconds();
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        StreamAccumulator acc(ApiFlavour::Chat, &r);
        acc.setTokenizer(tokenizer);
        acc.onHttpStatus(200);
        for (qsizetype at = 0; at < body.size(); at += 4096)
            acc.onBytes(body.constData() + at, std::min<qsizetype>(4096, body.size() - at), at + 1);
        acc.finish(ErrorClass::None, {}, body.size() + 1);
        *counted += std::max(0, r.clientOutputTokens);
    }
    return cpuSeconds() - t0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    if (a.size() < 2) {
        std::fprintf(stderr, "usage: bench_tokencount <tokenizer> [responses=20000] [tokens=256] "
                             "[runs=3]\n");
        return 2;
    }
    const int n = a.size() > 2 ? a[2].toInt() : 20000;
    const int tokens = a.size() > 3 ? a[3].toInt() : 256;
    const int runs = a.size() > 4 ? a[4].toInt() : 3;
    QString why;
    const std::unique_ptr<Tokenizer> tok = Tokenizer::load(a[1], &why);
    if (!tok) {
        std::fprintf(stderr, "%s\n", qPrintable(why));
        return 1;
    }
    QFile load(u"/proc/loadavg"_s);
    if (load.open(QIODevice::ReadOnly))
        std::printf("loadavg: %s", load.readAll().constData());
    const QByteArray body = response(tokens);
    std::printf("tokenizer: %s\nresponse: %d token events, %lld bytes; %d responses per run\n",
                qPrintable(tok->describe()), tokens, qlonglong(body.size()), n);
    qint64 sink = 0;
    feed(body, n / 10 + 1, tok.get(), &sink); // warm-up
    std::vector<double> without, with;
    for (int r = 0; r < runs; ++r) {
        without.push_back(feed(body, n, nullptr, &sink));
        with.push_back(feed(body, n, tok.get(), &sink));
    }
    std::sort(without.begin(), without.end());
    std::sort(with.begin(), with.end());
    const double w0 = without[without.size() / 2], w1 = with[with.size() / 2];
    std::printf("without tokenizer: %.2f us per response, %.0f ns per token event "
                "(median of %d; min %.2f max %.2f us)\n",
                1e6 * w0 / n, 1e9 * w0 / (double(n) * tokens), runs, 1e6 * without.front() / n,
                1e6 * without.back() / n);
    std::printf("with tokenizer:    %.2f us per response, %.0f ns per token event "
                "(median of %d; min %.2f max %.2f us)\n",
                1e6 * w1 / n, 1e9 * w1 / (double(n) * tokens), runs, 1e6 * with.front() / n,
                1e6 * with.back() / n);
    std::printf("counting adds %.2f us per response (%.0f %%); counted %lld tokens in all\n",
                1e6 * (w1 - w0) / n, 100 * (w1 - w0) / w0, qlonglong(sink));
    return 0;
}
