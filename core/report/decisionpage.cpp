#include "decisionpage.h"

#include "common/message.h"
#include "metrics/confidence.h"
#include "report/comparison.h"
#include "report/comparisonstats.h"
#include "report/htmlreport.h"

#include <QHash>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

struct Words
{
    bool translate = false;
    QString operator()(const char *id, const QStringList &args = {}) const
    {
        return Message(id, args).text(translate);
    }
    QString operator()(const Message &m) const { return m.text(translate); }
};

QString esc(const QString &s)
{
    return htmlEscape(s);
}

// A number (with its interval or unit) never breaks across lines: its spaces are no-break.
QString keep(const QString &s)
{
    QString out = esc(s);
    out.replace(u' ', QChar(0x00A0));
    return out;
}

QString td(const QString &escaped, const QString &cls = {})
{
    return cls.isEmpty() ? u"<td>%1</td>"_s.arg(escaped)
                         : u"<td class=\"%1\">%2</td>"_s.arg(cls, escaped);
}

QString th(const QString &escaped)
{
    return u"<th>%1</th>"_s.arg(escaped);
}

QString tableOpen(const QString &cls)
{
    return u"<table class=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
           "width=\"100%\">"_s.arg(cls);
}

QString value(const ComparisonRow &row, const std::optional<double> &v, const Words &w)
{
    if (!v)
        return w("cmp.cell.na");
    return QString::number(*v, 'f', row.decimals);
}

// The difference and its interval, absolute over relative: each line whole, never wrapped,
// and the two stacked so the column stays narrow. formatDifference() writes the relative part
// after " (".
QString differenceCell(const Difference &d, int decimals, const QString &unit)
{
    const QString text = formatDifference(d, decimals, unit);
    if (text.isEmpty())
        return QString();
    const qsizetype relative = text.indexOf(u" ("_s);
    if (relative < 0)
        return keep(text);
    return keep(text.left(relative)) + u"<br/>"_s + keep(text.mid(relative + 1));
}

// The workload as the baseline ran it: the settings a reader needs to know what was asked.
const QStringList &workloadKeys()
{
    static const QStringList k = {u"model"_s,       u"dataset_hash"_s, u"requests"_s,
                                  u"scenario"_s,    u"arrival"_s,      u"request_rate"_s,
                                  u"concurrency"_s, u"max_tokens"_s};
    return k;
}

// The interval deriveRun() gave a row's statistic ("ttft.median" is p50), or nullptr.
const Interval *runInterval(const RunDerivation &d, const QString &rowKey)
{
    const qsizetype dot = rowKey.indexOf(u'.');
    if (dot < 0)
        return nullptr;
    const QString metric = rowKey.left(dot);
    QString stat = rowKey.mid(dot + 1);
    if (stat == "median"_L1)
        stat = u"p50"_s;
    for (const auto &[m, stats] : d.intervals)
        if (m == metric)
            for (const auto &[st, interval] : stats)
                if (st == stat)
                    return &interval;
    return nullptr;
}

// A report of one run has no verdict: its key metrics with their intervals within the run.
QString singleRunTable(const ReportContent &content, const Words &w)
{
    const Comparison &c = content.comparison;
    const ReportRun &run = content.runs.first();
    const QString conf = confidenceText(c.confidence);
    QString h = u"<h3>%1</h3>\n"_s.arg(esc(w("report.p1.key_metrics", {conf})));
    h += tableOpen(u"p1"_s) + u"<tr>"_s + th(esc(w("cmp.text.metric"))) +
         th(esc(w("report.p1.col.value"))) + th(esc(w("report.p1.col.interval", {conf}))) +
         u"</tr>\n"_s;
    for (const QString &key : keyMetricRows(c)) {
        const ComparisonRow *row = c.row(key);
        if (!row || row->cells.isEmpty())
            continue;
        const QString label = w(row->labelMessage);
        const ComparisonCell &cell = row->cells.first();
        QString interval;
        // A metric without a value has nothing to bound: the value's cell says why.
        const Interval *i = run.rawRecords && cell.value ? runInterval(run.derived, key) : nullptr;
        if (i)
            interval = i->available
                           ? keep(u"[%1, %2]"_s.arg(QString::number(i->lo, 'f', row->decimals),
                                                    QString::number(i->hi, 'f', row->decimals)))
                           : esc(w("report.p1.omitted", {w(Message::fromEnglish(i->reason))}));
        h += u"<tr>"_s +
             td(esc(row->unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row->unit)), u"name"_s) +
             (cell.value ? td(keep(formatCell(*row, cell, w.translate)), u"num"_s)
                         : td(esc(w(cell.noteMessage.isEmpty() ? Message("cmp.cell.na")
                                                               : cell.noteMessage)))) +
             td(interval, interval.startsWith(u'[') ? u"num"_s : QString()) + u"</tr>\n"_s;
    }
    return h + u"</table>\n"_s;
}

} // namespace

QString candidateCode(int k)
{
    QString code;
    for (int n = k; n >= 0; n = n / 26 - 1)
        code.prepend(QChar(u'A' + n % 26));
    return code;
}

QStringList runCodes(const Comparison &c)
{
    QStringList out;
    for (int i = 0; i < c.columns.size(); ++i) {
        const int k = c.candidateOf(i);
        if (k < 0) {
            out << u"#%1"_s.arg(c.runIds.value(i));
            continue;
        }
        const ComparisonCandidate &cand = c.candidates.at(k);
        out << (cand.isSeries() ? candidateCode(k) + QString::number(cand.columns.indexOf(i) + 1)
                                : candidateCode(k));
    }
    return out;
}

QString decisionPageHtml(const ReportContent &content, bool translate)
{
    const Words w{translate};
    const Comparison &c = content.comparison;
    const Comparability &cb = c.comparability;
    const QString conf = confidenceText(c.confidence);
    const int base = c.baselineCandidate;
    const int baseColumn = c.baseline;
    QString h = u"<h2 id=\"decision\">%1</h2>\n"_s.arg(esc(w("report.p1.heading")));

    // --- the question ---
    QStringList codes;
    for (int k = 0; k < c.candidates.size(); ++k)
        codes << candidateCode(k);
    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.p1.question")));
    if (c.candidates.size() > 1)
        h += u"<p>%1</p>\n"_s.arg(
            esc(w("report.p1.question_text", {codes.join(u", "_s), candidateCode(base)})));
    h += tableOpen(u"p1"_s) + u"<tr>"_s + th(esc(w("report.p1.col.code"))) +
         th(esc(w("report.p1.col.candidate"))) + th(esc(w("cmp.sut"))) +
         th(esc(w("report.p1.col.runs"))) + u"</tr>\n"_s;
    const QStringList rcodes = runCodes(c);
    for (int k = 0; k < c.candidates.size(); ++k) {
        const ComparisonCandidate &cand = c.candidates.at(k);
        QString name = esc(w(cand.labelMessage));
        if (k == base && c.candidates.size() > 1)
            name = u"<b>%1</b> (%2)"_s.arg(name, esc(w("report.p1.baseline")));
        if (cand.isSeries())
            name += u"<br/><small>%1</small>"_s.arg(
                esc(cand.cacheState.isEmpty() ? w("sig.cache.unknown")
                                              : w(Message::fromEnglish(cand.cacheState))));
        QStringList runs;
        QString sut;
        for (int i : cand.columns) {
            const ReportRun &r = content.runs.at(i);
            runs << (cand.isSeries() ? u"%1 = %2"_s.arg(rcodes.value(i), r.label) : r.label);
            sut = r.sutName();
        }
        h += u"<tr>"_s + td(u"<b>%1</b>"_s.arg(codes.at(k))) + td(name) + td(esc(sut)) +
             td(esc(runs.join(u"; "_s))) + u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    // The workload, as the baseline ran it, in one paragraph (a table of it would push the
    // verdicts off the page); a setting that differs says so.
    QStringList workload;
    for (const FieldComparison &f : cb.fields) {
        if (f.role != FieldRole::Workload || !workloadKeys().contains(f.key))
            continue;
        QString v = u"%1: <b>%2</b>"_s.arg(esc(w(f.labelMessage)),
                                           esc(w(f.valueMessages.value(baseColumn))));
        if (f.differs)
            v += u" <i>(%1)</i>"_s.arg(esc(w("report.p1.differs_below")));
        workload << v;
    }
    if (!workload.isEmpty())
        h += u"<p class=\"note\">%1</p>\n"_s.arg(workload.join(u"; "_s));
    // One run is compared with nothing: its comparability verdict would speak of "runs".
    if (c.candidates.size() > 1)
        h += u"<p class=\"%1\"><b>%2</b></p>\n"_s.arg(cb.rankable() ? QString() : u"bad"_s,
                                                      esc(w(cb.verdictMessage())));
    if (c.candidates.size() == 1 && !content.runs.isEmpty())
        h += singleRunTable(content, w);

    // --- the verdict per key metric ---
    QList<Message> footnotes;
    // Metrics with no value on either side (TPOT and ITL of one-token answers, goodput without
    // an SLO): named in one line under the table, not a row each, so the page holds the rest.
    QStringList noValues;
    if (c.candidates.size() > 1) {
        h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.p1.verdicts", {conf})));
        h += tableOpen(u"p1"_s) + u"<tr>"_s + th(esc(w("cmp.text.metric"))) +
             th(esc(w("report.p1.col.baseline_value", {candidateCode(base)}))) +
             th(esc(w("report.p1.col.code"))) + th(esc(w("report.p1.col.value"))) +
             th(esc(w("report.p1.col.difference", {conf}))) + th(esc(w("report.p1.col.verdict"))) +
             u"</tr>\n"_s;
        for (const QString &key : keyMetricRows(c)) {
            const ComparisonRow *row = c.row(key);
            if (!row || row->tests.size() != c.candidates.size())
                continue;
            const QString label = w(row->labelMessage);
            const QString metric = row->unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row->unit);
            bool anyValue = false;
            for (const CandidateTest &t : row->tests)
                anyValue = anyValue || t.estimate.has_value();
            if (!anyValue) {
                noValues << label;
                continue;
            }
            for (int k = 0; k < c.candidates.size(); ++k) {
                if (k == base)
                    continue;
                const CandidateTest &t = row->tests.at(k);
                QString verdict = esc(w(t.verdictMessage));
                QString cls;
                if (t.significant())
                    cls = t.verdict() == Verdict::Better ? u"better"_s : u"worse"_s;
                if (!t.noteMessage.isEmpty()) {
                    qsizetype n = footnotes.indexOf(t.noteMessage);
                    if (n < 0) {
                        footnotes << t.noteMessage;
                        n = footnotes.size() - 1;
                    }
                    verdict += u"&nbsp;[%1]"_s.arg(n + 1);
                }
                h += u"<tr>"_s + td(esc(metric), u"name"_s) +
                     td(keep(value(*row, row->tests.at(base).estimate, w)), u"num"_s) +
                     td(codes.at(k)) + td(keep(value(*row, t.estimate, w)), u"num"_s) +
                     td(differenceCell(t.difference, row->decimals, row->unit), u"num"_s) +
                     td(verdict, cls) + u"</tr>\n"_s;
            }
        }
        h += u"</table>\n"_s;
        if (!noValues.isEmpty())
            h += u"<p class=\"note\">%1</p>\n"_s.arg(
                esc(w("report.p1.no_values", {noValues.join(u", "_s)})));
        for (int n = 0; n < footnotes.size(); ++n)
            h += u"<p class=\"note\">[%1] %2</p>\n"_s.arg(n + 1).arg(esc(w(footnotes.at(n))));
        // The ranking with ties, by codes.
        if (!c.tiedRanking.order.isEmpty()) {
            const ComparisonRow *by = c.row(c.rankBy.rowKey());
            QStringList order;
            for (const RankedCandidate &r : c.tiedRanking.order)
                order << (r.rank > 0 ? u"%1%2 %3"_s.arg(r.rank).arg(r.tied ? u"="_s : QString(),
                                                                    candidateCode(r.index))
                                     : u"– %1"_s.arg(candidateCode(r.index)));
            h += u"<p>%1</p>\n"_s.arg(
                esc(w("report.p1.ranking",
                      {by ? w(by->labelMessage) : c.rankBy.rowKey(), conf, order.join(u"; "_s)})));
        } else {
            h += u"<p>%1</p>\n"_s.arg(esc(w(c.rankNoteMessage)));
        }
    }

    // --- cost per request and per 1M output tokens, with their windows ---
    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.p1.cost")));
    bool anyCovered = false;
    for (const RunCost &rc : content.costs)
        anyCovered = anyCovered || rc.covered;
    const ComparisonRow *perRequest = c.row(u"cost_per_request"_s);
    const ComparisonRow *perMillion = c.row(u"cost_per_1m_output_tokens"_s);
    if (!anyCovered || !perRequest || !perMillion) {
        h += u"<p>%1</p>\n"_s.arg(esc(w("report.cost.none")));
    } else {
        h += tableOpen(u"p1"_s) + u"<tr>"_s + th(esc(w("report.p1.col.code"))) +
             th(esc(w(perRequest->labelMessage) + u" ("_s + perRequest->unit + u')')) +
             th(esc(w(perMillion->labelMessage) + u" ("_s + perMillion->unit + u')')) +
             th(esc(w("report.p1.col.window"))) + u"</tr>\n"_s;
        for (int i = 0; i < c.columns.size(); ++i) {
            const RunCost &rc = content.costs.value(i);
            const auto cell = [&](const ComparisonRow *row) {
                const ComparisonCell &cc = row->cells.at(i);
                return cc.value ? td(keep(formatCell(*row, cc, translate)), u"num"_s)
                                : td(esc(w(cc.noteMessage.isEmpty() ? Message("cmp.cell.na")
                                                                    : cc.noteMessage)));
            };
            h += u"<tr>"_s + td(esc(rcodes.value(i))) + cell(perRequest) + cell(perMillion) +
                 td(esc(rc.covered ? rc.windowName : w(Message::fromEnglish(rc.reason)))) +
                 u"</tr>\n"_s;
        }
        h += u"</table>\n"_s;
    }

    // --- what was not comparable, not tested, or not whole ---
    QStringList limits;
    for (const Message &m : cb.refusalMessages)
        limits << esc(w(m));
    for (const FieldComparison &f : cb.workloadDifferences()) {
        QStringList values;
        for (const Message &v : f.valueMessages)
            values << w(v);
        limits << esc(w("report.p1.differs", {w(f.labelMessage), values.join(u" | "_s)}));
    }
    for (const Message &m : cb.warningMessages)
        limits << esc(w(m));
    for (const Message &m : c.costNoteMessages)
        limits << esc(w("cmp.text.cost", {w(m)}));
    for (int i = 0; i < content.runs.size(); ++i) {
        const ReportRun &r = content.runs.at(i);
        const QString code = rcodes.value(i);
        if (r.input.status != "completed"_L1)
            limits << esc(w("report.partial", {code, r.input.status}));
        for (const Message &n : r.noteMessages)
            limits << esc(u"%1: %2"_s.arg(code, w(n)));
        if (r.rawRecords)
            for (const Message &m : r.derived.health.warningMessages)
                limits << esc(u"%1: %2"_s.arg(code, w("cmp.text.warning", {w(m)})));
        if (r.derived.statisticsComputed && r.derived.saturation.saturated)
            limits << esc(
                u"%1: %2"_s.arg(code, w(Message::fromEnglish(r.derived.saturation.reason))));
    }
    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.p1.limits")));
    if (limits.isEmpty()) {
        h += u"<p>%1</p>\n"_s.arg(esc(w("report.p1.nothing")));
    } else {
        h += u"<ul>\n"_s;
        for (const QString &l : std::as_const(limits))
            h += u"<li>%1</li>\n"_s.arg(l);
        h += u"</ul>\n"_s;
    }
    return h;
}

} // namespace sb
