#pragma once

#include <QString>
#include <QStringList>

namespace sb {

class ProjectStore;
struct StoredStudyVersion;
struct StudyDefinition;

// The name of the test window of one candidate × scenario of a study version:
// "study <name> v<N> · <candidate> · <scenario>".
QString studyWindowName(const StudyDefinition &d, int version, const QString &candidate,
                        const QString &scenario);

// Makes (or remakes) a test window for every candidate × scenario from the times of its
// completed cells' runs (CostStore::windowFromRuns), records a price-per-hour candidate's price
// as a pricing-page rate item of its SUT spanning its windows, and sets the candidate's overlap
// rule (prorate by default) for every bill item of its SUT that only partly overlaps one of its
// windows — a candidate's windows overlap in time by design, its scenarios being interleaved.
// Idempotent: `study decide` calls it again after bills were imported. *notes: what could not be
// made, one line each.
bool ensureStudyWindows(ProjectStore *store, const StudyDefinition &d,
                        const StoredStudyVersion &version, QStringList *notes);

} // namespace sb
