#include "studycost.h"

#include "cost/billitem.h"
#include "cost/decimal.h"
#include "costproject/coststore.h"
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studystore.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace sb {

QString studyWindowName(const StudyDefinition &d, int version, const QString &candidate,
                        const QString &scenario)
{
    return u"study %1 v%2 · %3 · %4"_s.arg(d.name).arg(version).arg(candidate, scenario);
}

bool ensureStudyWindows(ProjectStore *store, const StudyDefinition &d,
                        const StoredStudyVersion &version, QStringList *notes)
{
    StudyStore studies(store);
    CostStore costs(store);
    const QList<StoredStudyCell> cells = studies.cells(version.id);
    bool ok = true;
    for (const StudyCandidate &cand : d.candidates) {
        QList<TestWindow> windows;
        for (const StudyScenario &sc : d.scenarios) {
            QList<qint64> runs;
            for (const StoredStudyCell &c : cells)
                if (c.candidate == cand.name && c.scenario == sc.name &&
                    c.state == "completed"_L1 && c.runId > 0)
                    runs << c.runId;
            if (runs.isEmpty())
                continue;
            const QString name = studyWindowName(d, version.version, cand.name, sc.name);
            auto w = costs.windowFromRuns(name, runs);
            if (!w) {
                *notes << u"%1: no test window: %2"_s.arg(name, costs.lastError());
                ok = false;
                continue;
            }
            if (const auto existing = costs.window(name))
                w->id = QString::number(existing->rowId);
            windows << *w;
        }
        if (windows.isEmpty())
            continue;
        // A price per hour becomes a pricing-page rate of the SUT spanning its windows.
        if (cand.cost.source == StudyCost::Source::PricePerHour) {
            QDateTime start = windows.constFirst().start, end = windows.constFirst().end;
            for (const TestWindow &w : std::as_const(windows)) {
                start = std::min(start, w.start);
                end = std::max(end, w.end);
            }
            BillItem item;
            item.id = u"study %1 v%2 · %3 · price per hour"_s.arg(d.name)
                          .arg(version.version)
                          .arg(cand.name);
            billCategoryFromName(cand.cost.category, &item.category);
            item.provider = cand.name;
            item.start = start;
            item.end = end;
            item.amount = Decimal::parse(cand.cost.pricePerHour).value_or(Decimal());
            item.currency = cand.cost.currency;
            item.amountKind = AmountKind::Rate;
            item.billingUnit = BillingUnit::Hour;
            item.quantity = Decimal::fromInt(cand.cost.resources);
            // Per second: a price per hour is what the candidate costs for the time used.
            item.minIncrement = Decimal::fromInt(1);
            item.minIncrementUnit = BillingUnit::Second;
            item.source = BillSource::PricingPage;
            item.reference = u"study definition"_s;
            item.confirmed = true;
            qint64 rowId = 0;
            for (const ProjectBillItem &p : costs.billItemsForSut(cand.name))
                if (p.item.id == item.id)
                    rowId = p.rowId;
            if (rowId > 0) {
                ProjectBillItem p;
                p.rowId = rowId;
                p.sut = cand.name;
                p.item = item;
                if (costs.saveBillItem(p) <= 0) {
                    *notes << u"%1: the price could not be stored: %2"_s.arg(cand.name,
                                                                             costs.lastError());
                    ok = false;
                }
            } else {
                QList<BillImportProblem> problems;
                if (costs.importBillItems({item}, cand.name, &problems).isEmpty()) {
                    QStringList why;
                    for (const BillImportProblem &p : problems)
                        why << p.message;
                    *notes << u"%1: the price could not be stored: %2"_s.arg(cand.name,
                                                                             why.join(u"; "_s));
                    ok = false;
                }
            }
        }
        // The candidate's overlap rule for its items that only partly overlap a window.
        OverlapRule rule = OverlapRule::Prorate;
        overlapRuleFromName(cand.cost.overlapRule, &rule);
        const QList<ProjectBillItem> items = costs.billItemsForSut(cand.name);
        for (TestWindow &w : windows) {
            for (const ProjectBillItem &p : items) {
                const qint64 s = p.item.startMs(), e = p.item.endMs();
                const bool inside = s >= w.startMs() && e <= w.endMs();
                const bool outside = e <= w.startMs() || s >= w.endMs();
                if (!inside && !outside && !w.overlapRules.contains(p.item.id))
                    w.overlapRules.insert(p.item.id, rule);
            }
            if (costs.saveWindow(w) <= 0) {
                *notes << u"%1: the test window could not be stored: %2"_s.arg(w.name,
                                                                               costs.lastError());
                ok = false;
            }
        }
    }
    return ok;
}

} // namespace sb
