#pragma once

#include "config/runplan.h"
#include "run/runrequest.h"
#include "study/studydefinition.h"

#include <QStringList>

namespace sb {

// The parts of a study definition (docs/study.md, "The definition") made from what the workbench
// project holds, in the run flags `servebench-cli run` takes: the pipeline's own runFlags() writes
// them, so a cell runs what a run of the same SUT, dataset and profile would. Flags the study sets
// itself (the model, the seed, the SUT's name, the connection mode, the cache policy …) are left
// to it.

// A SUT as a candidate: the built-in simulator with its timing, or its base URL, and the rest of
// the SUT (endpoint, backend, headers, CA file, proxy, metrics targets) as flags. Its descriptive
// fields (engine, GPU …) are not run flags a study may set; the cost is bills.
StudyCandidate studyCandidateFromSut(const SutConfig &sut);

// A load profile as a scenario: its kind from the profile's MLPerf scenario (none: open loop),
// its goodput SLOs as the scenario's, the rest of the load as flags. `dataset` decides whether
// the load counts sessions (a multi-turn dataset) or requests.
StudyScenario studyScenarioFromProfile(const QString &name, const LoadProfile &profile,
                                       const RunExecution &execution, const DatasetSpec &dataset);

// The boundary's dataset and request flags. An uncalibrated synthetic dataset (1 token per word)
// leaves the calibration to each cell's preparation, as `servebench-cli run` does.
QStringList studyDatasetFlags(const DatasetSpec &dataset);
QStringList studyRequestFlags(const RequestParams &params);

} // namespace sb
