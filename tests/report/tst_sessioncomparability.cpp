// Session runs compare only with session runs of the same source, history mode and think-time
// model; the verdict names what differs.

#include "config/runplan.h"
#include "report/comparability.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
RunPlan sessionPlan()
{
    RunPlan p;
    p.sut.name = u"sut"_s;
    p.sut.model = u"m"_s;
    p.dataset.multiTurn = true;
    p.profile.sessionUsers = 4;
    p.profile.thinkTime = ThinkTimeModel::Exponential;
    p.profile.thinkTimeMs = 2000;
    return p;
}

QJsonObject snapshot(const RunPlan &p)
{
    QJsonObject s = p.toJson();
    s[u"dataset_info"_s] = QJsonObject{{u"sha256"_s, u"abc"_s}};
    s[u"tool_version"_s] = u"0.1.0"_s;
    return s;
}
} // namespace

class TestSessionComparability : public QObject
{
    Q_OBJECT
private slots:
    void sameSessionWorkloadIsComparable();
    void differencesAreRefusedAndNamed_data();
    void differencesAreRefusedAndNamed();
};

void TestSessionComparability::sameSessionWorkloadIsComparable()
{
    RunPlan b = sessionPlan();
    b.sut.name = u"other sut"_s;
    const Comparability c =
        checkComparability({snapshot(sessionPlan()), snapshot(b)}, {u"A"_s, u"B"_s});
    QVERIFY2(c.rankable(), qPrintable(c.refusals.join(u"; "_s)));
    QVERIFY(c.comparable());
    QVERIFY(c.singleVariable().startsWith(u"SUT"_s));
}

void TestSessionComparability::differencesAreRefusedAndNamed_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("named");
    QTest::newRow("history mode") << 0
                                  << u"session history (served answers vs reference answers)"_s;
    QTest::newRow("think-time model")
        << 1 << u"think time (exponential, mean 2000 ms vs fixed 2000 ms)"_s;
    QTest::newRow("sessions vs single requests")
        << 2 << u"workload (single requests or sessions) (synthetic sessions vs single requests)"_s;
    QTest::newRow("source") << 3 << u"(synthetic sessions vs sharegpt sessions)"_s;
}

void TestSessionComparability::differencesAreRefusedAndNamed()
{
    QFETCH(int, change);
    QFETCH(QString, named);
    RunPlan b = sessionPlan();
    switch (change) {
    case 0:
        b.profile.history = HistoryMode::Reference;
        break;
    case 1:
        b.profile.thinkTime = ThinkTimeModel::Fixed;
        break;
    case 2:
        b.dataset.multiTurn = false;
        break;
    case 3:
        b.dataset.kind = DatasetKind::ShareGpt;
        break;
    }
    const Comparability c =
        checkComparability({snapshot(sessionPlan()), snapshot(b)}, {u"A"_s, u"B"_s});
    QVERIFY(!c.rankable());
    QVERIFY2(c.refusals.join(u"\n"_s).contains(named), qPrintable(c.refusals.join(u"\n"_s)));
    QVERIFY(c.verdict().contains(u"session"_s) || c.verdict().contains(u"workload"_s));
}

QTEST_GUILESS_MAIN(TestSessionComparability)
#include "tst_sessioncomparability.moc"
