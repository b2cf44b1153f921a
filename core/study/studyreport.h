#pragma once

#include <QString>

namespace sb {

struct StudyDecision;

// The study report for the review meeting (docs/study.md, "Report"), self-contained HTML that
// the report renderer also lays out as the PDF: page 1 is the decision (question, boundary,
// per-scenario ranking with intervals and ties, unit costs, what was left out and why); then the
// method (scenarios, repeats, order, cache policy, how intervals and ties are made), one section
// per candidate, and an appendix of every cell. A table wider than a page is split into column
// groups, never cut. `translate`: in the installed language.
QString studyReportHtml(const StudyDecision &decision, bool translate);

} // namespace sb
