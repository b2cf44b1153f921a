#pragma once

// A project with two comparable runs (same workload, different SUT), failures with hostile
// messages, a 100 KB message and a test window with a bill item per SUT, written through
// RunWriter and CostStore like a real project.

#include "config/runplan.h"
#include "cost/billitem.h"
#include "cost/decimal.h"
#include "costproject/coststore.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace fixture {

using namespace Qt::StringLiterals;

inline constexpr qint64 kT0 = 1'000'000'000;
inline const QString kScript = u"<script>alert(\"pwned\")</script>"_s;
inline const QString kQuotes = u"it's \"quoted\" & <b>bold</b>"_s;

inline QString bigMessage()
{
    // 100 KB with markup sprinkled through it, so escaping must cover all of it.
    QString s;
    while (s.size() < 100 * 1024)
        s += u"<i>x</i>&y "_s;
    return s;
}

inline sb::RunPlan plan(const QString &sut, const QString &engine, const QString &gpu)
{
    sb::RunPlan p;
    p.name = u"plan \"%1\" <b>"_s.arg(sut);
    p.sut.name = sut;
    p.sut.baseUrl = u"http://127.0.0.1:8000"_s;
    p.sut.endpoint = u"/v1/completions"_s;
    p.sut.model = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    p.sut.engine = engine;
    p.sut.engineVersion = u"1.0"_s;
    p.sut.gpuModel = gpu;
    p.sut.gpuCount = 1;
    p.sut.notes = kQuotes;
    p.sut.apiKeyRef = u"env:OPENAI_API_KEY"_s;
    p.dataset.kind = sb::DatasetKind::Random;
    p.dataset.randomInputLen = 256;
    p.dataset.randomOutputLen = 32;
    p.profile.arrival = sb::ArrivalProcess::Poisson;
    p.profile.requestRate = 10;
    p.profile.numPrompts = 40;
    p.profile.goodput.ttftMs = 60;
    return p;
}

// n requests 100 ms apart; TTFT and ITL scale with `speed` (1 = baseline); failures at the given
// indexes use the given classes and messages.
inline QList<sb::RequestRecord> records(int n, double speed,
                                        const QList<QPair<sb::ErrorClass, QString>> &failures)
{
    QList<sb::RequestRecord> out;
    for (int i = 0; i < n; ++i) {
        sb::RequestRecord r;
        r.index = i;
        r.datasetItem = i;
        r.requestId = i == 0 ? fixture::kScript : u"req-%1"_s.arg(i);
        r.tSched = kT0 + qint64(i) * 100'000'000;
        r.tQueued = r.tSched;
        r.tDispatch = r.tSched;
        r.tSend = r.tSched + 50'000;
        const int failIndex = i - (n - int(failures.size()));
        if (failIndex >= 0) {
            r.error = failures.at(failIndex).first;
            r.errorMessage = failures.at(failIndex).second;
            r.httpStatus = r.error == sb::ErrorClass::Http5xx ? 500 : 0;
            r.tEnd = r.tSend + 5'000'000;
            out.append(r);
            continue;
        }
        const qint64 ttft = qint64((30 + (i % 7) * 5) * 1e6 * speed);
        const qint64 itl = qint64((8 + (i % 3)) * 1e6 * speed);
        qint64 t = r.tSend + ttft;
        for (int k = 0; k < 32; ++k) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(1);
            t += itl;
        }
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast + 100'000;
        r.inputTokens = 256;
        r.inputSource = sb::TokenSource::ServerUsage;
        r.outputTokens = 32;
        r.outputSource = sb::TokenSource::ServerUsage;
        r.finishReason = u"length"_s;
        r.httpStatus = 200;
        out.append(r);
    }
    return out;
}

// `links` carries the ids the run points at (RunInfo's sutId, datasetId, profileId, sweepId and
// sweepPosition); the rest of it is ignored.
// `summary` is merged into the stored summary (e.g. a "stopped_early" with saturation evidence).
inline qint64 writeRun(sb::RunWriter &w, const sb::RunPlan &p, const QList<sb::RequestRecord> &recs,
                       const QString &name, const QDateTime &start, const sb::RunInfo &links = {},
                       const QJsonObject &summary = {})
{
    QJsonObject snap = p.toJson();
    snap[u"dataset_info"_s] =
        QJsonObject{{u"sha256"_s, QString(64, u'c')}, {u"version_label"_s, u"synthetic <v1>"_s}};
    snap[u"command"_s] = u"servebench-cli run --base-url http://127.0.0.1:8000 --header "
                         "'Authorization: Bearer sk-test-123456789' --request-rate 10"_s;
    snap[u"tool_version"_s] = u"0.1.0"_s;
    sb::RunInfo meta;
    meta.name = name;
    meta.startedUtc = start;
    meta.startedMonoNs = kT0;
    meta.sutId = links.sutId;
    meta.datasetId = links.datasetId;
    meta.profileId = links.profileId;
    meta.sweepId = links.sweepId;
    meta.sweepPosition = links.sweepPosition;
    QString error;
    const qint64 id = w.beginRun(snap, meta, &error);
    if (id == 0)
        return 0;
    qint64 end = kT0;
    for (const auto &r : recs) {
        w.append(r);
        end = std::max(end, r.tEnd);
    }
    QJsonObject stored{{u"transport"_s, u"qnam"_s}};
    for (auto it = summary.begin(); it != summary.end(); ++it)
        stored.insert(it.key(), it.value());
    if (!w.finishRun(sb::StoredRunStatus::Completed, stored, {},
                     start.addMSecs((end - kT0) / 1'000'000 + 1), end, &error))
        return 0;
    return id;
}

inline sb::BillItem gpuItem(const QString &id, const QString &provider, const QDateTime &start,
                            const char *amount)
{
    sb::BillItem b;
    b.id = id;
    b.category = sb::BillCategory::Gpu;
    b.provider = provider;
    b.resourceId = u"gpu-node-1"_s;
    b.start = start.addSecs(-600);
    b.end = start.addSecs(3000);
    b.amount = *sb::Decimal::parse(QString::fromLatin1(amount));
    b.currency = u"USD"_s;
    b.amountKind = sb::AmountKind::Total;
    b.billingUnit = sb::BillingUnit::Hour;
    b.source = sb::BillSource::Invoice;
    b.reference = u"INV-<1>"_s;
    b.idleNotes = kQuotes;
    b.confirmed = true;
    return b;
}

struct Project
{
    QString path;
    qint64 runA = 0;
    qint64 runB = 0;
    // The entities the runs were made from, as the workbench saves them.
    qint64 sutA = 0; // vllm-a100
    qint64 sutB = 0; // sglang-h100
    qint64 dataset = 0;
    qint64 profile = 0;

    sb::RunInfo links(qint64 sut, qint64 sweepId = 0, int sweepPosition = -1) const
    {
        sb::RunInfo r;
        r.sutId = sut;
        r.datasetId = dataset;
        r.profileId = profile;
        r.sweepId = sweepId;
        r.sweepPosition = sweepPosition;
        return r;
    }
};

// Builds the project at `path`; returns false with *error on any failure.
inline bool build(const QString &path, Project *out, QString *error)
{
    out->path = path;
    {
        sb::ProjectStore s;
        if (!s.open(path)) {
            *error = s.lastError();
            return false;
        }
        const sb::RunPlan a = plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
        out->sutA = s.saveSut({0, a.sut, {}, {}});
        out->sutB = s.saveSut({0, plan(u"sglang-h100"_s, u"sglang"_s, u"H100"_s).sut, {}, {}});
        out->dataset = s.saveDataset(
            {0, u"synthetic 256 → 32 tokens"_s, QString(64, u'c'), a.dataset, {}, {}});
        out->profile = s.saveLoadProfile({0, u"Poisson 10 req/s"_s, a.profile, {}, {}});
        if (!out->sutA || !out->sutB || !out->dataset || !out->profile) {
            *error = s.lastError();
            return false;
        }
    }
    const QDateTime startA(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);
    const QDateTime startB(QDate(2024, 5, 1), QTime(11, 0), Qt::UTC);
    {
        sb::RunWriter w;
        if (!w.open(path, error))
            return false;
        out->runA = writeRun(w, plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s),
                             records(40, 1.0,
                                     {{sb::ErrorClass::Http5xx, kScript + u" & "_s + kQuotes},
                                      {sb::ErrorClass::Timeout, bigMessage()}}),
                             u"Run \"A\" <script>"_s, startA, out->links(out->sutA));
        out->runB =
            writeRun(w, plan(u"sglang-h100"_s, u"sglang"_s, u"H100"_s),
                     records(40, 0.7, {{sb::ErrorClass::Http429, u"rate limited & <slow>"_s}}),
                     u"Run B"_s, startB, out->links(out->sutB));
        w.close();
        if (!out->runA || !out->runB) {
            *error = u"writing the runs failed"_s;
            return false;
        }
    }
    sb::ProjectStore s;
    if (!s.open(path)) {
        *error = s.lastError();
        return false;
    }
    sb::CostStore cost(&s);
    QList<sb::BillImportProblem> problems;
    if (cost.importBillItems({gpuItem(u"gpu-a"_s, u"Cloud <A> & Co"_s, startA, "12.00")},
                             u"vllm-a100"_s, &problems)
            .isEmpty() ||
        cost.importBillItems({gpuItem(u"gpu-b"_s, u"Cloud B"_s, startB, "20.00")}, u"sglang-h100"_s,
                             &problems)
            .isEmpty()) {
        *error =
            u"bill import: "_s + (problems.isEmpty() ? cost.lastError() : problems.first().message);
        return false;
    }
    for (const auto &[name, run, item] : {std::tuple{u"window A"_s, out->runA, u"gpu-a"_s},
                                          std::tuple{u"window B"_s, out->runB, u"gpu-b"_s}}) {
        const auto window = cost.windowFromRuns(name, {run});
        if (!window || cost.saveWindow(*window) == 0 ||
            !cost.setOverlapRule(name, item, sb::OverlapRule::Prorate)) {
            *error = u"window: "_s + cost.lastError();
            return false;
        }
    }
    return true;
}

} // namespace fixture
