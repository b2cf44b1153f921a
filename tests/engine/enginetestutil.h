#pragma once

#include "config/runplan.h"
#include "data/dataset.h"
#include "run/runcontroller.h"

#include <QSignalSpy>
#include <QTest>

namespace sb::test {

inline QList<PromptItem> makeItems(int n, int outputTokens)
{
    QList<PromptItem> items;
    for (int i = 0; i < n; ++i) {
        PromptItem it;
        it.prompt = QStringLiteral("hello world number %1").arg(i);
        it.inputTokens = 4;
        it.outputTokens = outputTokens;
        it.sourceIndex = i;
        items.append(it);
    }
    return items;
}

inline RunPlan makePlan(const QString &baseUrl, int numPrompts, int maxConcurrency)
{
    RunPlan plan;
    plan.sut.baseUrl = baseUrl;
    plan.sut.model = QStringLiteral("servebench-sim");
    plan.profile.numPrompts = numPrompts;
    plan.profile.maxConcurrency = maxConcurrency;
    plan.params.ignoreEos = true;
    return plan;
}

// Runs the controller to the end; false when it did not finish within timeoutMs.
inline bool runToEnd(RunController &c, int timeoutMs)
{
    QSignalSpy spy(&c, &RunController::finished);
    QString error;
    if (!c.start(&error)) {
        qWarning("start failed: %s", qPrintable(error));
        return false;
    }
    return spy.wait(timeoutMs);
}

} // namespace sb::test
