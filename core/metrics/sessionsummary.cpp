#include "sessionsummary.h"

#include "common/message.h"

#include "metrics/requestrecord.h"
#include "metrics/resultjson.h"
#include "metrics/summary.h"
#include "metrics/summarytext.h"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

double nsToMs(qint64 ns)
{
    return double(ns) / 1e6;
}

MetricStats stats(QList<double> values, const SummaryOptions &opts)
{
    return computeStats(values, opts.percentiles, opts.method);
}

QJsonValue rateOrNull(double r)
{
    return r >= 0 ? QJsonValue(r) : QJsonValue();
}

} // namespace

SessionSummary summarizeSessions(const RecordSet &records, const SummaryOptions &opts)
{
    SessionSummary s;
    if (std::none_of(records.begin(), records.end(),
                     [](const RequestRecord &r) { return r.inSession(); }))
        return s;
    // Addresses of records are kept below: they need a list (a packed set's records live only
    // while they are read; a stored session run is never packed, so this shares the list).
    const QList<RequestRecord> list = records.list();
    // session -> its measured records, by turn
    QMap<qint64, QList<const RequestRecord *>> bySession;
    QMap<int, QList<RequestRecord>> byTurn;
    for (const RequestRecord &r : list) {
        if (!r.inSession() || (r.warmup && !opts.includeWarmup))
            continue;
        bySession[r.sessionId].append(&r);
        byTurn[std::max(0, r.turnIndex)].append(r);
    }
    if (bySession.isEmpty())
        return s;
    s.present = true;

    struct TurnAcc
    {
        QList<double> thinkConfigured, thinkMeasured;
    };
    QMap<int, TurnAcc> turnAcc;
    QList<double> durations, thinkConf, thinkMeas, thinkExcess;
    std::vector<std::pair<qint64, int>> activity; // (time, +1 start / -1 end)
    qint64 turnsTotal = 0;
    for (auto it = bySession.begin(); it != bySession.end(); ++it) {
        QList<const RequestRecord *> &list = it.value();
        std::sort(list.begin(), list.end(), [](const RequestRecord *a, const RequestRecord *b) {
            return a->turnIndex < b->turnIndex;
        });
        ++s.sessions;
        qint32 planned = 0;
        qint64 ok = 0;
        bool failed = false;
        qint64 start = 0, end = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            const RequestRecord &r = *list.at(i);
            planned = std::max(planned, r.sessionTurns);
            if (r.ok())
                ++ok;
            else if (r.error != ErrorClass::Cancelled)
                failed = true; // a stop's cancellation is no failure of the session
            const qint64 arrival = r.tSched > 0 ? r.tSched : r.tSend;
            if (arrival > 0 && (start == 0 || arrival < start))
                start = arrival;
            end = std::max(end, r.tEnd > 0 ? r.tEnd : r.tSend);
            if (i > 0 && list.at(i - 1)->turnIndex == r.turnIndex - 1 && r.turnIndex > 0) {
                const RequestRecord &prev = *list.at(i - 1);
                if (r.tSend > 0 && prev.tEnd > 0) {
                    const double conf = nsToMs(std::max<qint64>(0, r.thinkNs));
                    const double meas = nsToMs(r.tSend - prev.tEnd);
                    thinkConf.append(conf);
                    thinkMeas.append(meas);
                    thinkExcess.append(meas - conf);
                    turnAcc[r.turnIndex].thinkConfigured.append(conf);
                    turnAcc[r.turnIndex].thinkMeasured.append(meas);
                }
            }
        }
        planned = std::max<qint32>(planned, qint32(list.size()));
        s.turnsPlanned += planned;
        turnsTotal += list.size();
        if (failed)
            ++s.failed;
        else if (ok == planned)
            ++s.completed;
        else
            ++s.incomplete;
        if (!failed && ok == planned && list.constFirst()->tSend > 0 && end > 0)
            durations.append(double(end - list.constFirst()->tSend) / 1e9);
        if (start > 0 && end >= start) {
            activity.emplace_back(start, +1);
            activity.emplace_back(end, -1);
        }
    }
    s.turnsSent = turnsTotal;
    s.turnsNotSent = std::max<qint64>(0, s.turnsPlanned - turnsTotal);
    s.meanTurnsPerSession = double(turnsTotal) / double(s.sessions);
    s.sessionDurationS = stats(durations, opts);
    s.thinkConfigured = stats(thinkConf, opts);
    s.thinkMeasured = stats(thinkMeas, opts);
    s.thinkExcess = stats(thinkExcess, opts);

    // Active sessions: ends before starts at the same instant (a user's next session begins
    // as the last one ends; they are not both active).
    std::sort(activity.begin(), activity.end());
    qint64 active = 0;
    double area = 0;
    qint64 last = activity.empty() ? 0 : activity.front().first;
    for (const auto &[t, delta] : activity) {
        area += double(active) * double(t - last);
        last = t;
        active += delta;
        s.peakActiveSessions = std::max(s.peakActiveSessions, active);
    }
    if (activity.size() >= 2 && activity.back().first > activity.front().first)
        s.meanActiveSessions = area / double(activity.back().first - activity.front().first);

    qint64 inputReporting = 0;
    for (auto it = byTurn.begin(); it != byTurn.end(); ++it) {
        const QList<RequestRecord> &list = it.value();
        TurnSummary t;
        t.turn = it.key() + 1;
        const RunSummary rs = summarize(list, opts);
        t.requests = rs.measured;
        t.completed = rs.completed;
        t.failed = rs.failed;
        t.ttft = rs.ttft;
        t.tpot = rs.tpot;
        t.itl = rs.itl;
        t.e2el = rs.e2el;
        qint64 in = 0, hist = 0, fresh = 0, n = 0, turnInputReporting = 0;
        for (const RequestRecord &r : list) {
            if (!r.ok())
                continue;
            // New: the client's count of the new user message; history: the rest of what the
            // server counted, so new + history = input whoever counted (docs/sessions.md).
            const qint64 input = effectiveInputTokens(r);
            const qint64 added = std::clamp<qint64>(
                qint64(r.expectedInputTokens) - std::max(0, r.historyTokens), 0, input);
            in += input;
            fresh += added;
            hist += input - added;
            ++n;
            if (r.cachedTokens >= 0) {
                t.cachedTokens += r.cachedTokens;
                ++t.cachedReported;
                turnInputReporting += input;
            }
        }
        if (n > 0) {
            t.meanInputTokens = double(in) / double(n);
            t.meanHistoryTokens = double(hist) / double(n);
            t.meanNewTokens = double(fresh) / double(n);
        }
        if (t.cachedReported > 0 && turnInputReporting > 0)
            t.cacheHitRate = double(t.cachedTokens) / double(turnInputReporting);
        t.thinkConfigured = stats(turnAcc.value(it.key()).thinkConfigured, opts);
        t.thinkMeasured = stats(turnAcc.value(it.key()).thinkMeasured, opts);
        s.turnsCompleted += rs.completed;
        s.turnsFailed += rs.failed;
        s.inputTokens += in;
        s.historyTokens += hist;
        s.newInputTokens += fresh;
        s.cachedTokens += t.cachedTokens;
        s.cachedReported += t.cachedReported;
        inputReporting += turnInputReporting;
        s.turns.append(t);
    }
    if (s.cachedReported > 0 && inputReporting > 0)
        s.cacheHitRate = double(s.cachedTokens) / double(inputReporting);
    return s;
}

QJsonObject SessionSummary::toJson() const
{
    QJsonArray perTurn;
    for (const TurnSummary &t : turns) {
        perTurn.append(QJsonObject{
            {u"turn"_s, t.turn},
            {u"requests"_s, t.requests},
            {u"completed"_s, t.completed},
            {u"failed"_s, t.failed},
            {u"ttft"_s, metricStatsJson(t.ttft)},
            {u"tpot"_s, metricStatsJson(t.tpot)},
            {u"itl"_s, metricStatsJson(t.itl)},
            {u"e2el"_s, metricStatsJson(t.e2el)},
            {u"mean_input_tokens"_s, t.meanInputTokens},
            {u"mean_history_tokens"_s, t.meanHistoryTokens},
            {u"mean_new_input_tokens"_s, t.meanNewTokens},
            {u"cached_tokens"_s, t.cachedReported > 0 ? QJsonValue(t.cachedTokens) : QJsonValue()},
            {u"cache_hit_rate"_s, rateOrNull(t.cacheHitRate)},
            {u"think_time_configured"_s, metricStatsJson(t.thinkConfigured)},
            {u"think_time_measured"_s, metricStatsJson(t.thinkMeasured)},
        });
    }
    QJsonObject defs;
    for (const MetricDefinition &d : sessionMetricDefinitions())
        defs.insert(d.key, QJsonObject{{u"label"_s, d.label},
                                       {u"unit"_s, d.unit},
                                       {u"definition"_s, d.definition},
                                       {u"detail"_s, d.detail}});
    return QJsonObject{
        {u"sessions"_s, sessions},
        {u"completed"_s, completed},
        {u"failed"_s, failed},
        {u"incomplete"_s, incomplete},
        {u"turns"_s, QJsonObject{{u"planned"_s, turnsPlanned},
                                 {u"sent"_s, turnsSent},
                                 {u"completed"_s, turnsCompleted},
                                 {u"failed"_s, turnsFailed},
                                 {u"not_sent"_s, turnsNotSent},
                                 {u"mean_per_session"_s, meanTurnsPerSession}}},
        {u"session_duration"_s, metricStatsJson(sessionDurationS, u"s"_s)},
        {u"think_time"_s, QJsonObject{{u"configured"_s, metricStatsJson(thinkConfigured)},
                                      {u"measured"_s, metricStatsJson(thinkMeasured)},
                                      {u"excess"_s, metricStatsJson(thinkExcess)}}},
        {u"input_tokens"_s,
         QJsonObject{{u"total"_s, inputTokens},
                     {u"history"_s, historyTokens},
                     {u"new"_s, newInputTokens},
                     {u"cached"_s, cachedReported > 0 ? QJsonValue(cachedTokens) : QJsonValue()},
                     {u"cached_reported_requests"_s, cachedReported},
                     {u"cache_hit_rate"_s, rateOrNull(cacheHitRate)}}},
        {u"active_sessions"_s,
         QJsonObject{{u"peak"_s, peakActiveSessions}, {u"mean"_s, meanActiveSessions}}},
        {u"per_turn"_s, perTurn},
        {u"definitions"_s, defs},
    };
}

const QList<MetricDefinition> &sessionMetricDefinitions()
{
    // The English texts are stored with runs; the messages show them in the reader's language.
    const auto def = [](const char *key, const char *unit) {
        MetricDefinition d;
        d.key = QString::fromLatin1(key);
        d.unit = QString::fromLatin1(unit);
        const QByteArray base = QByteArray("metric.session.") + key;
        d.labelMessage = Message((base + ".label").constData());
        d.definitionMessage = Message((base + ".definition").constData());
        d.detailMessage = Message((base + ".detail").constData());
        d.label = d.labelMessage.text();
        d.definition = d.definitionMessage.text();
        d.detail = d.detailMessage.text();
        return d;
    };
    static const QList<MetricDefinition> defs = {
        def("turn", ""),
        def("new_input_tokens", "tokens"),
        def("history_tokens", "tokens"),
        def("cache_hit_rate", "%"),
        def("session_duration", "s"),
        def("think_time", "ms"),
        def("active_sessions", ""),
        def("sessions_failed", ""),
    };
    return defs;
}

QString formatSessionBlock(const SessionSummary &s, const QString &historyMode)
{
    if (!s.present)
        return {};
    QString out;
    const auto line = [&](const QString &label, const QString &value) {
        out += label.leftJustified(40) + u' ' + value + u'\n';
    };
    const auto f2 = [](double v) {
        return pythonFixed(v, 2);
    };
    const auto pct = [](double r) {
        return r >= 0 ? pythonFixed(r * 100, 2) + u" %"_s : u"not reported"_s;
    };
    out += u"==================== Sessions ===================="_s + u'\n';
    line(u"Sessions:"_s, QString::number(s.sessions));
    line(u"Completed / failed / incomplete:"_s,
         u"%1 / %2 / %3"_s.arg(s.completed).arg(s.failed).arg(s.incomplete));
    line(u"Turns sent / failed / not sent:"_s,
         u"%1 / %2 / %3"_s.arg(s.turnsSent).arg(s.turnsFailed).arg(s.turnsNotSent));
    line(u"History:"_s, historyMode);
    line(u"Mean session duration (s):"_s, f2(s.sessionDurationS.mean));
    line(u"Think time configured (ms, mean):"_s, f2(s.thinkConfigured.mean));
    line(u"Think time measured (ms, mean):"_s, f2(s.thinkMeasured.mean));
    line(u"Input tokens (all turns):"_s, QString::number(s.inputTokens));
    line(u"  new / history:"_s, u"%1 / %2"_s.arg(s.newInputTokens).arg(s.historyTokens));
    line(u"  cached (server usage):"_s,
         s.cachedReported > 0 ? QString::number(s.cachedTokens) : u"not reported"_s);
    line(u"Prefix-cache hit rate:"_s, pct(s.cacheHitRate));
    line(u"Active sessions (peak / mean):"_s,
         u"%1 / %2"_s.arg(s.peakActiveSessions).arg(f2(s.meanActiveSessions)));
    out += u"------------------ TTFT by turn ------------------"_s + u'\n';
    out += u"%1 %2 %3 %4 %5 %6 %7\n"_s.arg(u"Turn"_s, -5)
               .arg(u"OK/sent"_s, -9)
               .arg(u"TTFT ms"_s, -9)
               .arg(u"P99 ms"_s, -9)
               .arg(u"ITL ms"_s, -8)
               .arg(u"Input"_s, -8)
               .arg(u"Cached"_s);
    for (const TurnSummary &t : s.turns)
        out += u"%1 %2 %3 %4 %5 %6 %7\n"_s.arg(QString::number(t.turn), -5)
                   .arg(u"%1/%2"_s.arg(t.completed).arg(t.requests), -9)
                   .arg(f2(t.ttft.mean), -9)
                   .arg(f2(t.ttft.percentile(99)), -9)
                   .arg(f2(t.itl.mean), -8)
                   .arg(f2(t.meanInputTokens), -8)
                   .arg(pct(t.cacheHitRate));
    out += u"=================================================="_s + u'\n';
    return out;
}

} // namespace sb
