#pragma once

#include <QStringList>

namespace sb::cli {
// `bills import|list`, `window create|list|rule` and `cost` (docs/cost.md). Exit codes: 0 ok,
// 1 data error (a bad CSV row, an unknown run, mixed currencies), 2 usage error.
int billsCommand(const QStringList &args);
int windowCommand(const QStringList &args);
int costCommand(const QStringList &args);
} // namespace sb::cli
