#pragma once

// Runs made in memory for the comparison's statistics: per-request records whose TTFT is a
// seeded, right-skewed draw (a shifted lognormal, so a configuration 5 ms slower moves every
// quantile by exactly 5 ms), wrapped as the ReportRun that loadReportRun() would give.

#include "reportfixture.h"

#include "metrics/prng.h"
#include "metrics/summary.h"
#include "report/reportrun.h"

#include <cmath>

namespace synthetic {

using namespace Qt::StringLiterals;

struct RunShape
{
    int requests = 400;
    double ttftShiftMs = 40; // TTFT = shift + scale * exp(sigma * Z)
    double ttftScaleMs = 10;
    double sigma = 0.5;
    double itlMs = 10; // each gap: itlMs * exp(0.2 * Z)
    int tokens = 8;
    double ratePerS = 20; // sends 1/rate apart
};

inline QList<sb::RequestRecord> records(const RunShape &s, quint64 seed)
{
    sb::Prng rng(seed);
    QList<sb::RequestRecord> out;
    for (int i = 0; i < s.requests; ++i) {
        sb::RequestRecord r;
        r.index = i;
        r.datasetItem = i;
        r.requestId = u"req-%1"_s.arg(i);
        r.tSched = fixture::kT0 + qint64(double(i) / s.ratePerS * 1e9);
        r.tQueued = r.tDispatch = r.tSched;
        r.tSend = r.tSched + 50'000;
        const double ttft = s.ttftShiftMs + s.ttftScaleMs * std::exp(s.sigma * rng.normal());
        qint64 t = r.tSend + qint64(ttft * 1e6);
        for (int k = 0; k < s.tokens; ++k) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(1);
            t += qint64(s.itlMs * std::exp(0.2 * rng.normal()) * 1e6);
        }
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast + 100'000;
        r.inputTokens = 256;
        r.outputTokens = s.tokens;
        r.inputSource = r.outputSource = sb::TokenSource::ServerUsage;
        r.finishReason = u"length"_s;
        r.httpStatus = 200;
        out.append(r);
    }
    return out;
}

// A run as the comparison reads it, with the plan of fixture::plan() for `sut`.
inline sb::ReportRun run(qint64 id, const QString &sut, const QList<sb::RequestRecord> &recs)
{
    sb::ReportRun r;
    r.id = id;
    r.label = u"#%1 %2"_s.arg(id).arg(sut);
    sb::RunPlan p = fixture::plan(sut, u"vllm"_s, u"A100"_s);
    p.sut.notes.clear();
    p.name = sut;
    r.input.plan = p;
    r.input.records = recs;
    r.input.status = u"completed"_s;
    QJsonObject snap = p.toJson();
    snap[u"dataset_info"_s] = QJsonObject{{u"sha256"_s, QString(64, u'c')}};
    r.info.id = id;
    r.info.name = sut;
    r.info.snapshot = snap;
    r.input.snapshot = snap;
    r.summary = sb::summarize(recs, sb::SummaryOptions::forProfile(p.profile));
    return r;
}

} // namespace synthetic
