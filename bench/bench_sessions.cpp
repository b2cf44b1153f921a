// Figures for session workloads (docs/sessions.md) against the built-in simulator:
//   1. mean TTFT by turn with a large and a tiny prefix cache (synthetic sessions, each with a
//      context of its own in its first message);
//   2. think time, configured against measured (fixed and exponential);
//   3. the Mooncake trace sample: the simulator's prefix-cache hit rate against the rate
//      computed from the trace's hash ids.
// Usage: bench_sessions [repeats] [mooncake.jsonl]
// Prints /proc/loadavg beside the figures: the machine is shared.

#include "data/mooncaketrace.h"
#include "report/runreport.h"
#include "run/runpreparation.h"
#include "run/runsession.h"
#include "sim/simulator.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QTextStream>

#include <cstdio>
#include <functional>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString loadavg()
{
    QFile f(u"/proc/loadavg"_s);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : u"?"_s;
}

bool run(const RunRequest &request, RunOutcome *out,
         const std::function<void(PreparedRun &)> &tweak = {})
{
    PreparedRun prepared;
    PlanIssue issue;
    if (!prepareRun(request, PrepareContext(), &prepared, &issue)) {
        std::fprintf(stderr, "%s\n", qPrintable(issue.text()));
        return false;
    }
    if (tweak)
        tweak(prepared);
    RunSession session(std::move(prepared));
    QObject::connect(&session, &RunSession::runFinished, &session,
                     [out](const RunOutcome &o) { *out = o; });
    QEventLoop loop;
    QObject::connect(&session, &RunSession::finished, &loop, &QEventLoop::quit);
    QString error;
    if (!session.start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return false;
    }
    loop.exec();
    return session.result().ok;
}

RunRequest synthetic(int blocks)
{
    RunRequest r;
    r.plan.sut.builtInSimulator = true;
    r.calibrateTokens = false;
    r.plan.dataset.multiTurn = true;
    r.plan.dataset.sessionTurns = 5;
    r.plan.dataset.sessionPrefixLen = 2000;
    r.plan.dataset.randomPrefixLen = 100;
    r.plan.dataset.randomInputLen = 50;
    r.plan.dataset.randomOutputLen = 20;
    r.plan.profile.numSessions = 24;
    r.plan.profile.sessionUsers = 4;
    r.plan.profile.thinkTime = ThinkTimeModel::Fixed;
    r.plan.profile.thinkTimeMs = 20;
    r.plan.sut.simPrefixCacheBlocks = blocks;
    r.plan.params.ignoreEos = true;
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(1, atoi(argv[1])) : 3;
    const QString trace = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    QTextStream out(stdout);

    out << "== 1. Mean TTFT by turn (ms), simulator prefill 0.05 ms/token, 24 sessions x 5 turns, "
           "4 users, 2,000-token session context ==\n";
    for (int rep = 0; rep < repeats; ++rep) {
        for (const int blocks : {100000, 8}) {
            RunOutcome o;
            if (!run(synthetic(blocks), &o))
                return 1;
            out << (blocks == 100000 ? "large cache (100000 blocks): "
                                     : "tiny cache (8 blocks):     ");
            for (const TurnSummary &t : o.derived.sessions.turns)
                out << QString::number(t.ttft.mean, 'f', 1) << "  ";
            out << " hit rate " << QString::number(o.derived.sessions.cacheHitRate * 100, 'f', 1)
                << " %"
                << "   loadavg " << loadavg() << "\n";
            out.flush();
        }
    }

    out << "\n== 2. Think time: configured vs measured (ms), 16 sessions x 6 turns, 4 users ==\n";
    for (int rep = 0; rep < repeats; ++rep) {
        for (const ThinkTimeModel model : {ThinkTimeModel::Fixed, ThinkTimeModel::Exponential}) {
            RunRequest r = synthetic(100000);
            r.plan.dataset.sessionTurns = 6;
            r.plan.dataset.sessionPrefixLen = 0;
            r.plan.profile.numSessions = 16;
            r.plan.profile.thinkTime = model;
            r.plan.profile.thinkTimeMs = 200;
            RunOutcome o;
            if (!run(r, &o))
                return 1;
            const SessionSummary &s = o.derived.sessions;
            out << (model == ThinkTimeModel::Fixed ? "fixed 200:       " : "exponential 200: ")
                << "n " << s.thinkMeasured.count << ", configured mean "
                << QString::number(s.thinkConfigured.mean, 'f', 2) << ", measured mean "
                << QString::number(s.thinkMeasured.mean, 'f', 2) << ", excess mean "
                << QString::number(s.thinkExcess.mean, 'f', 3) << " p99 "
                << QString::number(s.thinkExcess.percentile(99), 'f', 3) << " max "
                << QString::number(s.thinkExcess.max, 'f', 3) << "   loadavg " << loadavg() << "\n";
            out.flush();
        }
    }

    if (!trace.isEmpty()) {
        out << "\n== 3. Mooncake trace " << trace << " (time scale 0.01, 1 ms per token) ==\n";
        QList<MooncakeRow> rows;
        QString error;
        if (!loadMooncakeTrace(trace, 512, &rows, &error)) {
            out << error << "\n";
            return 1;
        }
        for (int rep = 0; rep < repeats; ++rep) {
            RunRequest r;
            r.plan.sut.builtInSimulator = true;
            r.calibrateTokens = false;
            r.plan.profile.tracePath = trace;
            r.plan.profile.traceFormat = TraceFormat::Mooncake;
            r.plan.profile.traceTimeScale = 0.01;
            r.plan.params.ignoreEos = true;
            RunOutcome o;
            if (!run(r, &o, [](PreparedRun &p) {
                    SimConfig c = p.simulator->config();
                    c.itlMs = 1;
                    p.simulator->setConfig(c);
                }))
                return 1;
            qint64 in = 0, cached = 0;
            for (const RequestRecord &rec : o.input.records) {
                in += std::max(0, rec.inputTokens);
                cached += std::max(0, rec.cachedTokens);
            }
            const TracePrefixReuse whole = mooncakePrefixReuse(rows, 512, 1);
            const TracePrefixReuse sim = mooncakePrefixReuse(rows, 512, 16);
            out << "simulator: " << cached << " of " << in << " tokens cached = "
                << QString::number(100.0 * double(cached) / double(in), 'f', 4)
                << " %; from the hash ids: " << QString::number(sim.hitRate * 100, 'f', 4)
                << " % at 16-token blocks (" << sim.cachedTokens << " tokens), "
                << QString::number(whole.hitRate * 100, 'f', 4) << " % at whole tokens ("
                << whole.cachedTokens << ")   loadavg " << loadavg() << "\n";
            out.flush();
        }
    }
    return 0;
}
