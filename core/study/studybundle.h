#pragma once

#include <QString>
#include <QStringList>

namespace sb {

class ProjectStore;
class ReportRenderer;

// The acceptance bundle of a study (docs/study.md, "Acceptance bundle"): everything needed to
// check and reproduce its decision, in one new folder.
//
//   README.txt                  what each file is
//   study/definition.json       the definition of that version as stored (credentials redacted)
//   study/decision.json         the decision JSON, the same bytes as `study decide --json`
//   study/report.html, .pdf     the study report (the PDF only with a renderer)
//   study/cells.csv             every cell and every attempt: state, run, run status, reason
//   definitions/                the metric definitions
//   runs/<id>/                  every run a cell made (interrupted attempts too), the files of
//                               a comparison bundle's run folder (report/bundle.h)
//   cost/bill-items.json, bill-mapping.csv, windows.json   the study's test windows
//   manifest.json, MANIFEST.sha256                         as every bundle (verifyAcceptanceBundle)
//
// The decision is buildStudyDecision()'s for `studyName` (empty: the project's only study) and
// `version` (0: the latest); the store should be writable, as for `study decide`, so that the
// test windows are made first. `translate`: the report in the installed language (the JSON and
// CSV stay English). renderer may be null (no QtGui): then no PDF. Refuses a target that exists
// and is not empty. *files: every path written, relative to dir.
bool writeStudyBundle(ProjectStore *store, const QString &studyName, int version,
                      const QString &dir, bool translate, const ReportRenderer *renderer,
                      QStringList *files, QString *error);

} // namespace sb
