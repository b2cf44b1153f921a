#include "studyreport.h"

#include "metrics/confidence.h"
#include "study/studydecision.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Candidates per table before a wide table is split into column groups: a portrait A4 page
// holds the label column and about this many value columns of "12.34 [12.00, 12.68]".
constexpr int kColumnsPerGroup = 3;

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString interval(const SeriesStats &s, int decimals)
{
    return studyIntervalText(s, decimals);
}

} // namespace

QString studyReportHtml(const StudyDecision &d, bool translate)
{
    const auto w = [translate](const Message &m) {
        return esc(m.text(translate));
    };
    const auto lit = [&](const char *id, const QStringList &args = {}) {
        return w(Message(id, args));
    };
    const QString conf = confidenceText(d.confidence);
    QString h;
    h += u"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"_s + esc(d.name) +
         u"</title>\n<style>body{font-family:sans-serif;font-size:10pt}"_s
         "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #999;"
         "padding:2px 6px;text-align:left}th{background:#eee}"
         "</style></head><body>\n"_s;

    // --- page 1: the decision ---
    // Page 1 ends where the method begins: the break is on the method's heading, because the
    // PDF's QTextDocument gives a div's page-break-after to its first block (the title), which
    // left page 1 with the title alone.
    h += u"<div>\n<h1>"_s +
         lit("study.text.title", {d.name, QString::number(d.version), d.sha256.left(12)}) +
         u"</h1>\n"_s;
    h += u"<p><b>"_s + lit("study.text.question", {d.question}) + u"</b></p>\n"_s;
    const QJsonObject b = d.definition.value(u"boundary"_s).toObject();
    const QJsonObject ds = b.value(u"dataset"_s).toObject();
    const auto flags = [](const QJsonObject &o) {
        return o.value(u"flags"_s).toVariant().toStringList().join(u' ');
    };
    h += u"<p>"_s +
         lit("study.report.boundary",
             {b.value(u"model"_s).toString(), flags(ds), flags(b.value(u"request"_s).toObject()),
              b.value(u"connection_mode"_s).toString(), b.value(u"cache_policy"_s).toString()}) +
         u"</p>\n"_s;
    h += u"<p>"_s +
         lit("study.text.cells", {QString::number(d.completedCells), QString::number(d.cells)}) +
         u"</p>\n"_s;
    for (const StudyScenarioDecision &s : d.scenarios) {
        const QString label =
            s.meritLabel.text(translate) + (s.unit.isEmpty() ? QString() : u" ("_s + s.unit + u')');
        h += u"<h3>"_s +
             w(Message(s.lowerIsBetter ? "study.text.scenario.lower" : "study.text.scenario.higher",
                       {s.scenario, s.kind, label, conf})) +
             u"</h3>\n<table><tr><th>#</th><th>"_s + lit("study.report.candidate") +
             u"</th><th>"_s + esc(label) + u"</th><th>"_s + lit("study.report.runs") +
             u"</th><th>"_s + lit("study.report.verdict") + u"</th><th>"_s +
             lit("study.report.cost_request") + u"</th><th>"_s + lit("study.report.cost_tokens") +
             u"</th></tr>\n"_s;
        for (int i : s.order) {
            const StudyCandidateResult &r = s.candidates.at(i);
            QString verdict = r.baseline                     ? lit("study.verdict.baseline")
                              : r.verdict == Verdict::Better ? lit("sig.verdict.better")
                              : r.verdict == Verdict::Worse  ? lit("sig.verdict.worse")
                              : r.verdict == Verdict::NoDetectableDifference
                                  ? lit("study.verdict.tied")
                                  : lit("sig.verdict.na");
            if (r.tied)
                verdict +=
                    u" ("_s + w(Message("sig.text.tied_with", {r.tiedWith.join(u", "_s)})) + u')';
            const QString cur = esc(r.currency);
            h +=
                u"<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td></tr>\n"_s
                    .arg(r.rank > 0 ? QString::number(r.rank) : u"-"_s, esc(r.candidate),
                         interval(r.merit.stats, s.decimals) +
                             (r.meritNote.isEmpty() ? QString() : u" ("_s + w(r.meritNote) + u')'),
                         QString::number(r.merit.stats.runs), verdict,
                         studyCostText(r.costPerRequest, r.costPerRequestInterval, 6) + u' ' + cur,
                         studyCostText(r.costPerMillionOutputTokens,
                                       r.costPerMillionOutputTokensInterval, 4) +
                             u' ' + cur);
        }
        h += u"</table>\n"_s;
    }
    h += u"<p>"_s + lit("study.rank.rule", {conf}) + u"</p>\n"_s;
    if (!d.leftOut.isEmpty()) {
        h += u"<p><b>"_s + lit("study.text.left_out", {QString::number(d.leftOut.size())}) +
             u"</b></p>\n<ul>\n"_s;
        for (const StudyLeftOut &l : d.leftOut)
            h += u"<li>#%1 %2 · %3 · r%4: %5</li>\n"_s.arg(l.position)
                     .arg(esc(l.candidate), esc(l.scenario))
                     .arg(l.repeat)
                     .arg(w(Message::fromEnglish(l.reason)));
        h += u"</ul>\n"_s;
    }
    const QStringList missing = d.missingCandidates();
    if (!missing.isEmpty())
        h += u"<p><b>"_s + lit("study.text.missing", {missing.join(u", "_s)}) + u"</b></p>\n"_s;
    h += u"</div>\n"_s;

    // --- the method ---
    h += u"<h2 style=\"page-break-before: always\">"_s + lit("study.report.method") +
         u"</h2>\n<p>"_s + w(d.orderNote) + u"</p>\n<table><tr><th>"_s +
         lit("study.report.scenario") + u"</th><th>"_s + lit("study.report.kind") + u"</th><th>"_s +
         lit("study.report.load") + u"</th></tr>\n"_s;
    for (const QJsonValue &v : d.definition.value(u"scenarios"_s).toArray()) {
        const QJsonObject s = v.toObject();
        h += u"<tr><td>%1</td><td>%2</td><td>%3</td></tr>\n"_s.arg(
            esc(s.value(u"name"_s).toString()), esc(s.value(u"kind"_s).toString()),
            esc(s.value(u"flags"_s).toVariant().toStringList().join(u' ')));
    }
    h += u"</table>\n<p>"_s +
         lit("study.report.repeats",
             {QString::number(d.definition.value(u"repeats"_s).toInt()),
              QString::number(d.definition.value(u"seed"_s).toDouble(), 'f', 0), d.baseline}) +
         u"</p>\n"_s;

    // --- per scenario, the other metrics: metrics as rows, candidates as columns, in groups ---
    for (const StudyScenarioDecision &s : d.scenarios) {
        if (s.candidates.isEmpty())
            continue;
        h += u"<h3>"_s + esc(s.scenario) + u": "_s + lit("study.text.other") + u"</h3>\n"_s;
        for (int g = 0; g < s.candidates.size(); g += kColumnsPerGroup) {
            h += u"<table><tr><th>"_s + lit("study.report.metric") + u"</th>"_s;
            const int end = std::min(int(s.candidates.size()), g + kColumnsPerGroup);
            for (int k = g; k < end; ++k)
                h += u"<th>"_s + esc(s.candidates.at(k).candidate) + u"</th>"_s;
            h += u"</tr>\n"_s;
            QStringList keys;
            for (const StudyCandidateResult &r : s.candidates)
                for (const StudyFigure &f : r.figures)
                    if (!keys.contains(f.key))
                        keys << f.key;
            for (const QString &key : std::as_const(keys)) {
                const StudyMetricInfo info = studyMetricInfo(key);
                h += u"<tr><td>"_s + w(info.label) +
                     (info.unit.isEmpty() ? QString() : u" ("_s + esc(info.unit) + u')') +
                     u"</td>"_s;
                for (int k = g; k < end; ++k) {
                    QString cell = u"n/a"_s;
                    for (const StudyFigure &f : s.candidates.at(k).figures)
                        if (f.key == key)
                            cell = interval(f.stats, info.decimals);
                    h += u"<td>"_s + cell + u"</td>"_s;
                }
                h += u"</tr>\n"_s;
            }
            h += u"</table>\n"_s;
        }
    }

    // --- one section per candidate ---
    for (const QJsonValue &v : d.definition.value(u"candidates"_s).toArray()) {
        const QJsonObject c = v.toObject();
        const QString name = c.value(u"name"_s).toString();
        h += u"<h2>"_s + esc(name) + u"</h2>\n<table><tr><th>"_s + lit("study.report.scenario") +
             u"</th><th>"_s + lit("study.report.runs") + u"</th><th>"_s +
             lit("study.report.window") + u"</th></tr>\n"_s;
        for (const StudyScenarioDecision &s : d.scenarios)
            for (const StudyCandidateResult &r : s.candidates)
                if (r.candidate == name) {
                    QStringList ids;
                    for (qint64 id : r.runIds)
                        ids << u"#"_s + QString::number(id);
                    h += u"<tr><td>%1</td><td>%2</td><td>%3</td></tr>\n"_s.arg(
                        esc(s.scenario), ids.join(u", "_s),
                        r.window.isEmpty() ? w(Message::fromEnglish(r.costNote)) : esc(r.window));
                }
        h +=
            u"</table>\n<p>"_s +
            lit("study.report.cost_source",
                {QString::fromUtf8(
                    QJsonDocument(c.value(u"cost"_s).toObject()).toJson(QJsonDocument::Compact))}) +
            u"</p>\n"_s;
    }
    for (const QString &n : d.notes)
        h += u"<p>"_s + w(Message("study.text.note", {Message::fromEnglish(n)})) + u"</p>\n"_s;
    h += u"</body></html>\n"_s;
    return h;
}

} // namespace sb
