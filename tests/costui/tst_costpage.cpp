// The cost page over a fixture project: the bill table (checked by QAbstractItemModelTester),
// the timeline's geometry, choosing an overlap rule (written to the file, breakdown updated), a
// live language switch.
#include "costbillmodel.h"
#include "costpage.h"
#include "costtimeline.h"
#include "settingslanguage.h"

#include "config/runplan.h"
#include "cost/costbreakdown.h"
#include "costproject/coststore.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QDateTime utc(const char *text)
{
    return parseUtcTimestamp(QString::fromLatin1(text));
}

RequestRecord okRecord(int i)
{
    RequestRecord r;
    r.index = i;
    r.requestId = u"r%1"_s.arg(i);
    r.tSched = 1'000'000'000 + qint64(i) * 1'000'000;
    r.tQueued = r.tDispatch = r.tSched;
    r.tSend = r.tSched + 1000;
    for (int c = 0; c < 5; ++c) {
        r.chunkTimes.append(r.tSend + 1'000'000 * (c + 1));
        r.chunkTokens.append(1);
    }
    r.tFirst = r.chunkTimes.first();
    r.tLast = r.chunkTimes.last();
    r.tEnd = r.tLast;
    r.inputTokens = 10;
    r.outputTokens = 5;
    r.inputSource = r.outputSource = TokenSource::ServerUsage;
    r.httpStatus = 200;
    r.finishReason = u"length"_s;
    return r;
}

BillItem item(const QString &id, BillCategory category, const char *start, const char *end,
              const char *amount)
{
    BillItem b;
    b.id = id;
    b.category = category;
    b.start = utc(start);
    b.end = utc(end);
    b.amount = *Decimal::parse(QString::fromLatin1(amount));
    b.currency = u"USD"_s;
    return b;
}

int rowOf(const QAbstractItemModel *m, const QString &id)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data(Qt::UserRole).toString() == id)
            return r;
    return -1;
}

} // namespace

class TestCostPage : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_path;

private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(u"ui.sbproj"_s);
        ProjectStore store;
        QVERIFY(store.open(m_path));
        StoredSut sut;
        sut.config.name = u"A"_s;
        const qint64 sutId = store.saveSut(sut);
        StoredSut other;
        other.config.name = u"B"_s;
        QVERIFY(store.saveSut(other) > 0);
        RunWriter w;
        QVERIFY(w.open(m_path));
        RunPlan plan;
        plan.sut = sut.config;
        plan.profile.requestRate = 4;
        RunInfo meta;
        meta.sutId = sutId;
        meta.startedUtc = utc("2024-05-01T10:00:00Z");
        const qint64 run = w.beginRun(plan.toJson(), meta);
        QVERIFY(run > 0);
        for (int i = 0; i < 8; ++i)
            w.append(okRecord(i));
        QVERIFY(w.finishRun(StoredRunStatus::Completed, {}, {}, utc("2024-05-01T10:30:00Z")));
        w.close();

        CostStore costs(&store);
        QList<BillImportProblem> problems;
        QVERIFY(!costs
                     .importBillItems({item(u"gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T10:30:00Z", "8.00"),
                                       item(u"disk"_s, BillCategory::Storage,
                                            "2024-05-01T09:30:00Z", "2024-05-01T10:30:00Z", "4.00"),
                                       item(u"setup"_s, BillCategory::Other, "2024-04-30T10:00:00Z",
                                            "2024-04-30T10:00:00Z", "25")},
                                      u"A"_s, &problems)
                     .isEmpty());
        QVERIFY(!costs
                     .importBillItems({item(u"b-gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T10:30:00Z", "99")},
                                      u"B"_s, &problems)
                     .isEmpty());
        const auto window = costs.windowFromRuns(u"A window"_s, {run});
        QVERIFY(window);
        QVERIFY(costs.saveWindow(*window) > 0);
    }

    void emptyPage()
    {
        CostPage page;
        QVERIFY(!page.isLoading());
        auto *table = page.findChild<QTableView *>(u"billTable"_s);
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), 0);
        QVERIFY(!page.breakdown().total.available());
        page.resize(800, 600);
        QVERIFY(!page.grab().isNull()); // paints without a project
    }

    void loadsShowsAndDecides()
    {
        CostPage page;
        page.resize(1000, 700);
        page.show(); // lays the timeline out at a real width
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *table = page.findChild<QTableView *>(u"billTable"_s);
        auto *timeline = page.findChild<CostTimeline *>(u"timeline"_s);
        auto *rule = page.findChild<QComboBox *>(u"ruleCombo"_s);
        auto *text = page.findChild<QPlainTextEdit *>(u"breakdownText"_s);
        QVERIFY(table && timeline && rule && text);
        QAbstractItemModelTester tester(table->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(m_path);
        QVERIFY(page.isLoading());
        QVERIFY(loaded.wait(30000));
        QVERIFY(!page.isLoading());

        const QAbstractItemModel *m = table->model();
        QCOMPARE(m->rowCount(), 4); // every item of the project, B's too
        QCOMPARE(m->columnCount(), int(CostBillModel::ColumnCount));
        const int gpu = rowOf(m, u"gpu"_s);
        const int disk = rowOf(m, u"disk"_s);
        const int setup = rowOf(m, u"setup"_s);
        const int bgpu = rowOf(m, u"b-gpu"_s);
        QVERIFY(gpu >= 0 && disk >= 0 && setup >= 0 && bgpu >= 0);
        QCOMPARE(m->index(gpu, CostBillModel::InWindowColumn).data().toString(), u"inside"_s);
        QCOMPARE(m->index(disk, CostBillModel::InWindowColumn).data().toString(),
                 u"overlaps: needs a decision"_s);
        QCOMPARE(m->index(setup, CostBillModel::InWindowColumn).data().toString(),
                 u"excluded (outside)"_s);
        QCOMPARE(m->index(bgpu, CostBillModel::InWindowColumn).data().toString(), u"other SUT"_s);
        QCOMPARE(m->index(gpu, CostBillModel::CountedColumn).data().toString(), u"8.00 USD"_s);
        QCOMPARE(m->index(gpu, CostBillModel::TotalColumn).data().toString(), u"8 USD"_s);

        // Undecided: the unit costs are not available and the text says so.
        QVERIFY(!page.breakdown().perSuccessfulRequest.available());
        QVERIFY(text->toPlainText().contains(u"NEEDS A DECISION"_s));

        // Timeline: runs and items on one axis; the inside item within the window's shading,
        // the overlapping one reaching to its left, the instant a day earlier clipped left.
        QCOMPARE(timeline->laneCount(), 4); // runs + gpu, disk, setup (not B's)
        const QRectF win = timeline->windowRect();
        QVERIFY(win.width() > 10);
        const QRectF gpuBar = timeline->itemBar(u"gpu"_s);
        QVERIFY(qAbs(gpuBar.left() - win.left()) < 1 && qAbs(gpuBar.right() - win.right()) < 1);
        QVERIFY(timeline->itemBar(u"disk"_s).left() < win.left() - 10);
        QVERIFY(qAbs(timeline->itemBar(u"disk"_s).right() - win.right()) < 1);
        QVERIFY(timeline->itemBar(u"setup"_s).right() < win.left());
        QVERIFY(timeline->itemBar(u"b-gpu"_s).isNull());
        QVERIFY(qAbs(timeline->runBar(0).left() - win.left()) < 1);
        QVERIFY(!page.grab().isNull());

        // The rule combo works only for the overlapping item.
        table->setCurrentIndex(m->index(gpu, 0));
        QVERIFY(!rule->isEnabled());
        table->setCurrentIndex(m->index(disk, 0));
        QVERIFY(rule->isEnabled());
        QCOMPARE(rule->currentData().toString(), u"undecided"_s);

        QSignalSpy changed(&page, &CostPage::breakdownChanged);
        const int prorate = rule->findData(u"prorate"_s);
        rule->setCurrentIndex(prorate);
        emit rule->activated(prorate); // what a user's pick emits
        QVERIFY(changed.count() >= 1);
        // gpu 8.00 + disk 4.00 × 30/60 min = 10.00 over 8 requests and 40 tokens.
        const CostBreakdown &b = page.breakdown();
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        QCOMPARE(*b.total.value, *Decimal::parse(u"10"_s));
        QCOMPARE(*b.perSuccessfulRequest.value, *Decimal::parse(u"1.25"_s));
        QCOMPARE(*b.perOutputToken.value, *Decimal::parse(u"0.25"_s));
        QCOMPARE(m->index(rowOf(m, u"disk"_s), CostBillModel::InWindowColumn).data().toString(),
                 u"overlaps: prorated"_s);
        QCOMPARE(m->index(rowOf(m, u"disk"_s), CostBillModel::CountedColumn).data().toString(),
                 u"2.00 USD"_s);
        QVERIFY(text->toPlainText().contains(u"1.250000 USD"_s));
        QCOMPARE(table->currentIndex().row(), rowOf(m, u"disk"_s)); // selection kept
        // For the documentation: SB_COSTPAGE_SHOT=FILE.png saves the page as it is now.
        if (const QString shot = qEnvironmentVariable("SB_COSTPAGE_SHOT"); !shot.isEmpty())
            QVERIFY(page.grab().save(shot));

        // The choice is in the file: a fresh page (and the store) read it back.
        ProjectStore store;
        QVERIFY(store.open(m_path, ProjectStore::OpenMode::ReadOnly));
        QCOMPARE(CostStore(&store).window(u"A window"_s)->window.ruleFor(u"disk"_s),
                 OverlapRule::Prorate);
        CostPage again;
        QSignalSpy again_loaded(&again, &CostPage::loaded);
        again.setProject(m_path);
        QVERIFY(again_loaded.wait(30000));
        QCOMPARE(*again.breakdown().total.value, *Decimal::parse(u"10"_s));
    }

    void unreadableProjectSaysSo()
    {
        const QString path = m_dir.filePath(u"not-a-project.sbproj"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not SQLite");
        f.close();
        CostPage page;
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(path);
        QVERIFY(loaded.wait(30000));
        auto *status = page.findChild<QLabel *>(u"statusLabel"_s);
        QVERIFY(status->text().startsWith(u"Cannot read the project"_s));
        QCOMPARE(page.findChild<QTableView *>(u"billTable"_s)->model()->rowCount(), 0);
    }

    void languageSwitchRetranslates()
    {
        CostPage page;
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *table = page.findChild<QTableView *>(u"billTable"_s);
        auto *timeline = page.findChild<CostTimeline *>(u"timeline"_s);
        auto *rule = page.findChild<QComboBox *>(u"ruleCombo"_s);
        auto *status = page.findChild<QLabel *>(u"statusLabel"_s);
        auto *windowLabel = page.findChild<QLabel *>(u"windowLabel"_s);
        auto *hint = page.findChild<QLabel *>(u"ruleHint"_s);
        QVERIFY(table && timeline && rule && status && windowLabel && hint);
        QAbstractItemModelTester tester(table->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(m_path);
        QVERIFY(loaded.wait(30000));
        const QAbstractItemModel *m = table->model();
        const int gpu = rowOf(m, u"gpu"_s);
        const int bgpu = rowOf(m, u"b-gpu"_s);
        QVERIFY(gpu >= 0 && bgpu >= 0);
        table->setCurrentIndex(m->index(gpu, 0));

        QSignalSpy headers(m, &QAbstractItemModel::headerDataChanged);
        QSignalSpy cells(m, &QAbstractItemModel::dataChanged);
        QSignalSpy resets(m, &QAbstractItemModel::modelReset);
        QSignalSpy reloads(&page, &CostPage::loaded);
        const auto texts = [&] {
            return QStringList{
                windowLabel->text(),
                rule->itemText(1),
                m->headerData(CostBillModel::IdColumn, Qt::Horizontal).toString(),
                m->headerData(CostBillModel::InWindowColumn, Qt::Horizontal).toString(),
                m->index(gpu, CostBillModel::InWindowColumn).data().toString(),
                m->index(bgpu, CostBillModel::InWindowColumn).data().toString(),
                status->text(),
                hint->text(),
            };
        };
        const QStringList english = {
            u"Test window:"_s,
            u"Prorate by time"_s,
            u"Item"_s,
            u"In window"_s,
            u"inside"_s,
            u"other SUT"_s,
            u"4 bill item(s), 1 test window(s)"_s,
            u"Only an item that partly overlaps the window needs a rule."_s,
        };
        QCOMPARE(texts(), english);
        const QImage englishTimeline = timeline->grab().toImage();
        const QString breakdown =
            page.findChild<QPlainTextEdit *>(u"breakdownText"_s)->toPlainText();

        LanguageSwitcher lang;
        QVERIFY(lang.apply(u"zh_CN"_s));
        // LanguageChange is delivered through the event queue.
        QTRY_COMPARE(windowLabel->text(), u"测试时间窗："_s);
        QCOMPARE(texts(), (QStringList{
                              u"测试时间窗："_s,
                              u"按时间比例分摊"_s,
                              u"条目"_s,
                              u"时间窗内"_s,
                              u"在时间窗内"_s,
                              u"其他被测系统"_s,
                              u"4 个账单条目，1 个测试时间窗"_s,
                              u"只有与时间窗部分重叠的条目才需要规则。"_s,
                          }));
        // The views heard of it through the model's signals, not a reset, and the page
        // rendered from what it held: no reload of the project, the same breakdown, now in the
        // reader's language (core's catalogue, installed beside the workbench's).
        QVERIFY(headers.count() >= 1);
        QVERIFY(cells.count() >= 1);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(reloads.count(), 0);
        const QString translated =
            page.findChild<QPlainTextEdit *>(u"breakdownText"_s)->toPlainText();
        QCOMPARE(translated, page.breakdown().formatText(true));
        QVERIFY(translated.contains(u"成本明细"_s));
        QVERIFY(translated != breakdown);
        QCOMPARE(rule->currentData().toString(), u"undecided"_s); // data, not text
        // The timeline's lane label ("Runs" / "运行") is drawn in the current language.
        QVERIFY(timeline->grab().toImage() != englishTimeline);

        QVERIFY(lang.apply(u"en"_s));
        QTRY_COMPARE(windowLabel->text(), u"Test window:"_s);
        QCOMPARE(texts(), english);
        QCOMPARE(timeline->grab().toImage(), englishTimeline);
        QCOMPARE(page.findChild<QPlainTextEdit *>(u"breakdownText"_s)->toPlainText(), breakdown);
    }

    void statusIsRetranslatedFromItsData()
    {
        LanguageSwitcher lang;
        CostPage page;
        auto *status = page.findChild<QLabel *>(u"statusLabel"_s);
        QCOMPARE(status->text(), u"No project open"_s);
        QVERIFY(lang.apply(u"zh_CN"_s));
        QTRY_COMPARE(status->text(), u"未打开项目"_s);
        QVERIFY(lang.apply(u"en"_s));
        QTRY_COMPARE(status->text(), u"No project open"_s);
    }
};

QTEST_MAIN(TestCostPage)
#include "tst_costpage.moc"
