#pragma once

#include <QString>
#include <QStringList>

namespace sb {

struct Comparison;
struct ReportContent;

// The report's first page, for the person who decides (docs/reports.md, "The HTML and PDF
// report"): the question (which candidates, which workload, which scenario), the verdict per key
// metric with its interval and significance, cost per request and per 1M output tokens with
// their test windows, and what was not comparable or not tested. Everything else follows as
// appendices. Candidates are named by short codes (A, B, …; a series' runs B1, B2, …) with the
// full names in a legend, so no table needs a long name in a narrow column.

// Candidate k's code: A .. Z, then AA, AB, …
QString candidateCode(int k);
// Each run column's code: its candidate's, plus the run's place in a series (B1, B2).
QStringList runCodes(const Comparison &comparison);

// The page as HTML (a fragment of the report's body). `translate`: in the installed language.
QString decisionPageHtml(const ReportContent &content, bool translate);

} // namespace sb
