#pragma once

#include <QStringList>

namespace sb::cli {
// `compare`: the comparison table and comparability verdict of stored runs.
int compareCommand(const QStringList &args);
// `report`: HTML, PDF, CSV, JSON and the acceptance bundle. Needs a QGuiApplication (the PDF).
int reportCommand(const QStringList &args);
// `import`: a `vllm bench serve --save-result` file as a run of the project.
int importCommand(const QStringList &args);
} // namespace sb::cli
