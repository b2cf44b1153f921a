#pragma once

// The run report moved to core/report so comparison reports share it; the CLI keeps its names.
#include "report/runreport.h"

namespace sb::cli {
using sb::formatRunReport;
using sb::requestsCsv;
using sb::RunReportInput;
using sb::runResultJson;
} // namespace sb::cli
