#pragma once

#include <QStringList>

namespace sb::cli {
// `study`: run a selection study, its status, its decision and its report (docs/study.md).
int studyCommand(const QStringList &args);
} // namespace sb::cli
