// The cost page over a fixture project: the bill table (checked by QAbstractItemModelTester),
// the timeline's geometry, choosing an overlap rule (written to the file, breakdown updated), a
// live language switch; importing bills and creating and moving test windows from the page (the
// same stored rows as `servebench-cli bills import` / `window create`), and the page following
// the CLI writing into the open project (docs/cost-project.md, "The cost page").
#include "clirun.h"
#include "common/displaywidth.h"
#include "costbillmodel.h"
#include "costpage.h"
#include "costtimeline.h"
#include "projectdocument.h"
#include "projectfilewatcher.h"
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
#include <QDateTimeEdit>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>

#include <algorithm>

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

// The fixture project: SUT A with one run (10:00–10:30 UTC, 8 requests, 40 output tokens), its
// items gpu (inside), disk (overlapping), setup (a day before); SUT B with item b-gpu and one
// run at millisecond times (11:00:00.250–11:05:00.750); window "A window" over A's run.
// Returns false (with a failed QVERIFY) when a step fails.
bool makeFixture(const QString &path)
{
    ProjectStore store;
    if (!store.open(path))
        return false;
    StoredSut sut;
    sut.config.name = u"A"_s;
    const qint64 sutId = store.saveSut(sut);
    StoredSut other;
    other.config.name = u"B"_s;
    const qint64 otherId = store.saveSut(other);
    if (sutId <= 0 || otherId <= 0)
        return false;
    RunWriter w;
    if (!w.open(path))
        return false;
    RunPlan plan;
    plan.sut = sut.config;
    plan.profile.requestRate = 4;
    RunInfo meta;
    meta.sutId = sutId;
    meta.startedUtc = utc("2024-05-01T10:00:00Z");
    const qint64 run = w.beginRun(plan.toJson(), meta);
    if (run <= 0)
        return false;
    for (int i = 0; i < 8; ++i)
        w.append(okRecord(i));
    if (!w.finishRun(StoredRunStatus::Completed, {}, {}, utc("2024-05-01T10:30:00Z")))
        return false;
    plan.sut = other.config;
    meta.sutId = otherId;
    meta.startedUtc = utc("2024-05-01T11:00:00.250Z");
    if (w.beginRun(plan.toJson(), meta) <= 0)
        return false;
    for (int i = 0; i < 4; ++i)
        w.append(okRecord(i));
    if (!w.finishRun(StoredRunStatus::Completed, {}, {}, utc("2024-05-01T11:05:00.750Z")))
        return false;
    w.close();

    CostStore costs(&store);
    QList<BillImportProblem> problems;
    if (costs
            .importBillItems({item(u"gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                   "2024-05-01T10:30:00Z", "8.00"),
                              item(u"disk"_s, BillCategory::Storage, "2024-05-01T09:30:00Z",
                                   "2024-05-01T10:30:00Z", "4.00"),
                              item(u"setup"_s, BillCategory::Other, "2024-04-30T10:00:00Z",
                                   "2024-04-30T10:00:00Z", "25")},
                             u"A"_s, &problems)
            .isEmpty())
        return false;
    if (costs
            .importBillItems({item(u"b-gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                   "2024-05-01T10:30:00Z", "99")},
                             u"B"_s, &problems)
            .isEmpty())
        return false;
    const auto window = costs.windowFromRuns(u"A window"_s, {run});
    return window && costs.saveWindow(*window) > 0;
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

// The stored items as comparable text: row, SUT and the whole item.
QStringList storedItems(const QString &path)
{
    ProjectStore store;
    if (!store.open(path, ProjectStore::OpenMode::ReadOnly))
        return {u"cannot open: "_s + store.lastError()};
    QStringList out;
    for (const ProjectBillItem &p : CostStore(&store).billItems())
        out << u"#%1 [%2] %3"_s.arg(p.rowId).arg(
            p.sut,
            QString::fromUtf8(QJsonDocument(p.item.toJson()).toJson(QJsonDocument::Compact)));
    return out;
}

std::optional<ProjectWindow> storedWindow(const QString &path, const QString &name)
{
    ProjectStore store;
    if (!store.open(path, ProjectStore::OpenMode::ReadOnly))
        return std::nullopt;
    return CostStore(&store).window(name);
}

QString windowJson(const std::optional<ProjectWindow> &w)
{
    return w ? QString::fromUtf8(QJsonDocument(w->window.toJson()).toJson(QJsonDocument::Compact))
             : u"(no window)"_s;
}

QStringList ids(const QList<AttributedItem> &items)
{
    QStringList out;
    for (const AttributedItem &a : items)
        out << a.item.id;
    out.sort();
    return out;
}

// Bills as a user would write them: a quoted field with a comma and doubled quotes, an hourly
// rate, an instant fee.
const QByteArray kGoodCsv = "id,category,start,end,amount,currency,amount_kind,billing_unit,"
                            "provider,reference\n"
                            "net,network,2024-05-01T10:20:00Z,2024-05-01T10:40:00Z,2.00,USD,"
                            "total,,\"tunnel \"\"bench\"\", eu-west\",INV-1\n"
                            "host,cpu,2024-05-01T09:00:00Z,2024-05-01T12:00:00Z,0.50,USD,rate,"
                            "hour,cloud,\n"
                            "lb,platform,2024-05-01T10:05:00Z,2024-05-01T10:05:00Z,1.5,USD,"
                            "total,,,\n";

// Rows 3 and 4 are wrong; row 2 alone would be fine.
const QByteArray kBadCsv = "id,category,start,end,amount,currency\n"
                           "ok1,gpu,2024-05-01T10:00:00Z,2024-05-01T10:30:00Z,1.00,USD\n"
                           "bad1,gpu,2024-05-01T10:00:00Z,2024-05-01T10:30:00Z,\"1,234.50\",USD\n"
                           "bad2,gpu,yesterday,2024-05-01T10:30:00Z,1.00,USD\n";

} // namespace

class TestCostPage : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_path;

private slots:
    // A window of seconds on an axis padded by a minute either side: the window's start and end
    // times go beside it instead of being drawn over each other (seen in the Cost tab: a 4 s
    // window read "10̶0̶0̶0̶4 UTC"); a wide window keeps them centred under its edges.
    void timelineAxisTimesNeverOverlap_data()
    {
        QTest::addColumn<int>("seconds");
        QTest::newRow("4 s") << 4;
        QTest::newRow("1 h") << 3600;
    }
    void timelineAxisTimesNeverOverlap()
    {
        QFETCH(int, seconds);
        CostTimeline t;
        t.resize(1000, 120);
        TestWindow w;
        w.name = u"w"_s;
        w.start = QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);
        w.end = w.start.addSecs(seconds);
        t.setData(w, {});
        t.show();
        const QList<CostTimeline::AxisLabel> labels = t.axisLabels();
        QCOMPARE(labels.size(), 2);
        QVERIFY2(!labels[0].rect.intersects(labels[1].rect),
                 qPrintable(u"start %1-%2 px, end %3-%4 px"_s.arg(labels[0].rect.left())
                                .arg(labels[0].rect.right())
                                .arg(labels[1].rect.left())
                                .arg(labels[1].rect.right())));
        const QRectF win = t.windowRect();
        // Each time by its own edge: the start's text ends at or before the end's begins.
        QVERIFY(labels[0].rect.center().x() <= win.left() + 1);
        QVERIFY(labels[1].rect.center().x() >= win.right() - 1);
        for (const CostTimeline::AxisLabel &l : labels)
            QVERIFY(l.rect.width() >= QFontMetricsF(t.font()).horizontalAdvance(l.text));
    }

    // A new fixture project of its own, for a test that writes.
    QString freshProject(const QString &name)
    {
        const QString path = m_dir.filePath(name + u".sbproj"_s);
        return makeFixture(path) ? path : QString();
    }

    void initTestCase()
    {
        m_path = m_dir.filePath(u"ui.sbproj"_s);
        QVERIFY(makeFixture(m_path));
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

    // The breakdown's "label: value" lines put every value in one column, in Chinese too,
    // where each character of a label is two columns wide (core/common/displaywidth.h); and its
    // durations and billing units are in the reader's language: "30 分钟", "USD/小时", with
    // the SI symbols s and ms and the currency code kept (docs/translations.md).
    void breakdownColumnsAlignInChinese()
    {
        const QString path = freshProject(u"columns"_s);
        QVERIFY(!path.isEmpty());
        {
            // An hourly rate overlapping the window: its pricing names the unit.
            ProjectStore store;
            QVERIFY(store.open(path));
            BillItem host = item(u"host"_s, BillCategory::Cpu, "2024-05-01T09:00:00Z",
                                 "2024-05-01T12:00:00Z", "0.50");
            host.amountKind = AmountKind::Rate;
            host.billingUnit = BillingUnit::Hour;
            QList<BillImportProblem> problems;
            QVERIFY(!CostStore(&store).importBillItems({host}, u"A"_s, &problems).isEmpty());
        }
        CostPage page;
        page.resize(1000, 700);
        page.show();
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(path);
        QVERIFY(loaded.wait(30000));
        auto *text = page.findChild<QPlainTextEdit *>(u"breakdownText"_s);
        QVERIFY(text);

        // Where each "label: value" line of the block above the bill items starts its value:
        // the display column, and the x position in the font the page shows it in.
        const auto valueColumns = [&](QList<int> *columns, QList<qreal> *xs) {
            const QStringList lines = text->toPlainText().split(u'\n');
            int headings = 0;
            for (int n = 0; n < lines.size(); ++n) {
                const QString &l = lines.at(n);
                if (l.startsWith(u'-') && ++headings == 3)
                    break; // by category, unit cost, then the bill items
                if (l.isEmpty() || l.startsWith(u' ') || l.startsWith(u'=') || l.startsWith(u'-'))
                    continue;
                qsizetype v = l.indexOf(u':');
                if (v < 0)
                    continue;
                ++v;
                while (v < l.size() && l.at(v) == u' ')
                    ++v;
                columns->append(displayWidth(l.left(v)));
                // Where the page draws it: the cursor's x before the value's first character.
                QTextCursor c(text->document()->findBlockByNumber(n));
                c.setPosition(c.block().position() + int(v));
                xs->append(text->cursorRect(c).x());
            }
        };
        QList<int> english;
        QList<qreal> englishX;
        valueColumns(&english, &englishX);
        QVERIFY2(english.size() >= 15, qPrintable(text->toPlainText()));
        QCOMPARE(QSet<int>(english.cbegin(), english.cend()), QSet<int>{41});
        const QString englishText = text->toPlainText();
        QVERIFY(englishText.contains(u"0.5 USD/hour"_s));
        QVERIFY(englishText.contains(u"30 min"_s));

        LanguageSwitcher lang;
        QVERIFY(lang.apply(u"zh_CN"_s));
        QTRY_VERIFY(text->toPlainText().contains(u"成本明细"_s));
        const QString zh = text->toPlainText();
        QList<int> chinese;
        QList<qreal> chineseX;
        valueColumns(&chinese, &chineseX);
        QCOMPARE(chinese.size(), english.size());
        for (qsizetype i = 0; i < chinese.size(); ++i)
            QVERIFY2(chinese.at(i) == 41,
                     qPrintable(u"line %1 of the block puts its value at display column %2, "
                                "not 41:\n%3"_s.arg(i)
                                    .arg(chinese.at(i))
                                    .arg(zh)));
        // On screen as well: the page draws a Chinese character two columns wide (the CJK font
        // Qt falls back to draws it 1.7), so the values line up there too.
        const auto [minX, maxX] = std::minmax_element(chineseX.cbegin(), chineseX.cend());
        QVERIFY2(
            *maxX - *minX < 1.0,
            qPrintable(
                u"values start between x = %1 and %2 px in font '%3'"_s.arg(*minX).arg(*maxX).arg(
                    text->font().family())));
        // Minutes and hours are words: in Chinese. USD stays, and so do s and ms.
        for (const QString &english : {u" min"_s, u"hour"_s, u" h "_s, u" h)"_s})
            QVERIFY2(!zh.contains(english),
                     qPrintable(u"'%1' in the Chinese breakdown:\n%2"_s.arg(english, zh)));
        QVERIFY2(zh.contains(u"30 分钟"_s) && zh.contains(u"0.5 USD/小时"_s), qPrintable(zh));
        QVERIFY(lang.apply(u"en"_s));
        QTRY_COMPARE(text->toPlainText(), englishText);
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

    // "Import bills…" accepted with a file: the items show, and the project holds exactly what
    // `servebench-cli bills import` stores from the same file into the same project.
    void importThroughPageEqualsCli()
    {
        const QString mine = freshProject(u"import-page"_s);
        const QString cli = freshProject(u"import-cli"_s);
        QVERIFY(!mine.isEmpty() && !cli.isEmpty());
        const QString csv = m_dir.filePath(u"bills.csv"_s);
        QVERIFY(writeFile(csv, kGoodCsv));

        CostPage page;
        page.resize(1000, 700);
        page.show();
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(mine);
        QVERIFY(loaded.wait(30000));
        auto *table = page.findChild<QTableView *>(u"billTable"_s);
        QCOMPARE(table->model()->rowCount(), 4);
        QCOMPARE(page.sutNames(), (QStringList{u"A"_s, u"B"_s}));

        QSignalSpy written(&page, &CostPage::writeFinished);
        page.importBills(csv, u"A"_s);
        QVERIFY(page.isWriting());
        QVERIFY(written.wait(30000));
        QCOMPARE(written.first().first().toBool(), true);
        // The page reads the project again and lists the new items beside the old.
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 7, 10000);
        for (const QString &id : {u"net"_s, u"host"_s, u"lb"_s})
            QVERIFY2(rowOf(table->model(), id) >= 0, qPrintable(id));
        const QString message = page.findChild<QLabel *>(u"messageLabel"_s)->text();
        QVERIFY2(message.contains(u"Imported 3 bill item(s)"_s), qPrintable(message));

        const auto r = test::runCli(
            {u"bills"_s, u"import"_s, u"--project"_s, cli, u"--csv"_s, csv, u"--sut"_s, u"A"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QStringList fromPage = storedItems(mine);
        QCOMPARE(fromPage.size(), 7);
        QCOMPARE(fromPage, storedItems(cli));
    }

    // A wrong file: the message is the core's, naming the file and the rows (the same lines the
    // CLI prints), and nothing is stored.
    void malformedImportNamesRowAndStoresNothing()
    {
        const QString mine = freshProject(u"bad-page"_s);
        const QString cli = freshProject(u"bad-cli"_s);
        QVERIFY(!mine.isEmpty() && !cli.isEmpty());
        const QString csv = m_dir.filePath(u"bad-bills.csv"_s);
        QVERIFY(writeFile(csv, kBadCsv));
        const QStringList before = storedItems(mine);

        CostPage page;
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(mine);
        QVERIFY(loaded.wait(30000));
        QSignalSpy written(&page, &CostPage::writeFinished);
        page.importBills(csv, u"A"_s);
        QVERIFY(written.wait(30000));
        QCOMPARE(written.first().first().toBool(), false);
        auto *message = page.findChild<QLabel *>(u"messageLabel"_s);
        const QStringList lines = message->text().split(u'\n');
        QVERIFY2(lines.size() == 3, qPrintable(message->text()));
        QCOMPARE(lines.at(0), u"Not saved: %1: nothing imported (2 problem(s))"_s.arg(csv));
        QVERIFY2(lines.at(1).startsWith(csv + u": row 3, column 'amount': '1,234.50'"_s),
                 qPrintable(lines.at(1)));
        QVERIFY2(lines.at(2).startsWith(csv + u": row 4, column 'start': 'yesterday'"_s),
                 qPrintable(lines.at(2)));
        QCOMPARE(storedItems(mine), before); // not even row 2
        QCOMPARE(page.findChild<QTableView *>(u"billTable"_s)->model()->rowCount(), 4);

        // The CLI says the same about the same file.
        const auto r = test::runCli(
            {u"bills"_s, u"import"_s, u"--project"_s, cli, u"--csv"_s, csv, u"--sut"_s, u"A"_s});
        QCOMPARE(r.code, 1);
        const QString prefix = u"servebench-cli bills import: error: --csv "_s;
        QStringList cliLines;
        for (const QString &line : r.err.split(u'\n', Qt::SkipEmptyParts))
            if (line.startsWith(prefix))
                cliLines << line.mid(prefix.size());
        QCOMPARE(cliLines.size(), 3);
        QCOMPARE(lines.mid(1), cliLines.mid(0, 2));
        QCOMPARE(u"Not saved: "_s + cliLines.at(2), lines.at(0));
    }

    // "New window…" accepted: the window `window create --sut --start --end` makes, its bounds
    // from the SUT's runs by default (whole seconds around millisecond times).
    void createWindowThroughPageEqualsCli()
    {
        const QString mine = freshProject(u"window-page"_s);
        const QString cli = freshProject(u"window-cli"_s);
        QVERIFY(!mine.isEmpty() && !cli.isEmpty());
        CostPage page;
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(mine);
        QVERIFY(loaded.wait(30000));
        const auto a = page.defaultWindowBounds(u"A"_s);
        QCOMPARE(a.first, utc("2024-05-01T10:00:00Z"));
        QCOMPARE(a.second, utc("2024-05-01T10:30:00Z"));
        const auto b = page.defaultWindowBounds(u"B"_s);
        QCOMPARE(b.first, utc("2024-05-01T11:00:00Z"));
        QCOMPARE(b.second, utc("2024-05-01T11:05:01Z"));
        QVERIFY(!page.defaultWindowBounds(u"nobody"_s).first.isValid());

        for (const auto &[name, sut, bounds] :
             {std::tuple{u"A again"_s, u"A"_s, a}, std::tuple{u"B window"_s, u"B"_s, b}}) {
            QSignalSpy written(&page, &CostPage::writeFinished);
            page.createWindow(name, sut, bounds.first, bounds.second);
            QVERIFY(written.wait(30000));
            QVERIFY2(written.first().first().toBool(),
                     qPrintable(page.findChild<QLabel *>(u"messageLabel"_s)->text()));
            // Shown once read back: the window just made is the one selected.
            QTRY_COMPARE_WITH_TIMEOUT(
                page.findChild<QComboBox *>(u"windowCombo"_s)->currentData().toString(), name,
                10000);
            const auto r =
                test::runCli({u"window"_s, u"create"_s, u"--project"_s, cli, u"--name"_s, name,
                              u"--sut"_s, sut, u"--start"_s, formatUtcTimestamp(bounds.first),
                              u"--end"_s, formatUtcTimestamp(bounds.second)});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            const auto fromPage = storedWindow(mine, name);
            QVERIFY(fromPage);
            QCOMPARE(fromPage->window.runs.size(), 1); // the SUT's one run lies inside
            QCOMPARE(fromPage->rowId, storedWindow(cli, name)->rowId);
            QCOMPARE(windowJson(fromPage), windowJson(storedWindow(cli, name)));
        }
        // A second window of the same name is refused by the core, and said so.
        QSignalSpy written(&page, &CostPage::writeFinished);
        page.createWindow(u"B window"_s, u"B"_s, b.first, b.second);
        QVERIFY(written.wait(30000));
        QCOMPARE(written.first().first().toBool(), false);
        QVERIFY(page.findChild<QLabel *>(u"messageLabel"_s)
                    ->text()
                    .contains(u"a test window named 'B window' already exists"_s));
    }

    // Moving a window's end through the bounds fields: saved through the core, the breakdown and
    // the timeline follow; an end that would cut a run is refused and nothing changes.
    void adjustWindowEnd()
    {
        const QString path = freshProject(u"adjust"_s);
        QVERIFY(!path.isEmpty());
        {
            ProjectStore store;
            QVERIFY(store.open(path));
            QList<BillImportProblem> problems;
            QVERIFY(!CostStore(&store)
                         .importBillItems(
                             {item(u"late"_s, BillCategory::Network, "2024-05-01T10:20:00Z",
                                   "2024-05-01T10:40:00Z", "2.00")},
                             u"A"_s, &problems)
                         .isEmpty());
        }
        const auto before = storedWindow(path, u"A window"_s);
        QVERIFY(before);
        CostPage page;
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(path);
        QVERIFY(loaded.wait(30000));
        QVERIFY(page.selectWindow(u"A window"_s));
        QCOMPARE(ids(page.breakdown().undecided), (QStringList{u"disk"_s, u"late"_s}));
        QCOMPARE(*page.breakdown().total.value, *Decimal::parse(u"8"_s));
        auto *startEdit = page.findChild<QDateTimeEdit *>(u"windowStartEdit"_s);
        auto *endEdit = page.findChild<QDateTimeEdit *>(u"windowEndEdit"_s);
        auto *save = page.findChild<QPushButton *>(u"saveBoundsButton"_s);
        auto *timeline = page.findChild<CostTimeline *>(u"timeline"_s);
        QVERIFY(startEdit && endEdit && save && timeline);
        QCOMPARE(startEdit->dateTime(), utc("2024-05-01T10:00:00Z"));
        QCOMPARE(endEdit->dateTime(), utc("2024-05-01T10:30:00Z"));
        QVERIFY(!save->isEnabled()); // nothing moved yet
        QVERIFY(timeline->itemBar(u"late"_s).right() > timeline->windowRect().right() + 10);

        endEdit->setDateTime(utc("2024-05-01T10:40:00Z"));
        QVERIFY(save->isEnabled());
        QSignalSpy written(&page, &CostPage::writeFinished);
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(written.wait(30000));
        QVERIFY2(written.first().first().toBool(),
                 qPrintable(page.findChild<QLabel *>(u"messageLabel"_s)->text()));
        QTRY_VERIFY_WITH_TIMEOUT(ids(page.breakdown().included).contains(u"late"_s), 10000);
        const auto after = storedWindow(path, u"A window"_s);
        QVERIFY(after);
        QCOMPARE(after->window.end, utc("2024-05-01T10:40:00Z"));
        QCOMPARE(after->window.start, before->window.start);
        QCOMPARE(after->rowId, before->rowId);
        QCOMPARE(after->window.runs.size(), before->window.runs.size());
        // gpu 8.00 + late 2.00 now inside; disk still waits for a decision.
        QCOMPARE(ids(page.breakdown().undecided), (QStringList{u"disk"_s}));
        QCOMPARE(*page.breakdown().total.value, *Decimal::parse(u"10"_s));
        QVERIFY(qAbs(timeline->itemBar(u"late"_s).right() - timeline->windowRect().right()) < 1);

        // The run ends at 10:30: an end before that would leave it outside its window.
        endEdit->setDateTime(utc("2024-05-01T10:20:00Z"));
        written.clear();
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(written.wait(30000));
        QCOMPARE(written.first().first().toBool(), false);
        const QString message = page.findChild<QLabel *>(u"messageLabel"_s)->text();
        QVERIFY2(message.contains(u"lies outside the window"_s), qPrintable(message));
        QCOMPARE(windowJson(storedWindow(path, u"A window"_s)), windowJson(after));
    }

    // The CLI writing into the project the workbench has open (the document holds its own
    // connection, so the commits stay in the -wal): the page shows the new items and windows
    // within seconds, without reopening; a hidden page reads when shown, and an idle file does
    // not make it read again and again.
    void followsCliWrites()
    {
        const QString path = freshProject(u"follow"_s);
        QVERIFY(!path.isEmpty());
        ProjectDocument doc;
        QString error;
        QVERIFY2(doc.open(path, &error), qPrintable(error));
        CostPage page;
        page.resize(1000, 700);
        // As MainWindow wires them.
        connect(&doc, &ProjectDocument::changedOnDisk, &page, &CostPage::reloadFromDisk);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &CostPage::loaded);
        page.setProject(doc.storePath());
        QVERIFY(loaded.wait(30000));
        auto *table = page.findChild<QTableView *>(u"billTable"_s);
        auto *combo = page.findChild<QComboBox *>(u"windowCombo"_s);
        QCOMPARE(table->model()->rowCount(), 4);

        const QString csv = m_dir.filePath(u"cli-bills.csv"_s);
        QVERIFY(writeFile(csv, kGoodCsv));
        auto r = test::runCli(
            {u"bills"_s, u"import"_s, u"--project"_s, path, u"--csv"_s, csv, u"--sut"_s, u"A"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(table->model(), u"net"_s) >= 0, 5000);
        QCOMPARE(table->model()->rowCount(), 7);
        // The document's connection kept the CLI from checkpointing: the commit is in the -wal.
        QVERIFY(QFileInfo(path + u"-wal"_s).size() > 0);

        r = test::runCli({u"window"_s, u"create"_s, u"--project"_s, path, u"--name"_s,
                          u"CLI window"_s, u"--runs"_s, u"1"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QTRY_VERIFY_WITH_TIMEOUT(combo->findData(u"CLI window"_s) >= 0, 5000);

        // Reading the file is not a change of it: no further reads while nobody writes.
        QTRY_VERIFY_WITH_TIMEOUT(!page.isLoading(), 5000);
        QTest::qWait(300);
        loaded.clear();
        QTest::qWait(1500);
        QCOMPARE(loaded.count(), 0);

        // Hidden (another tab): nothing is read until the page is shown again.
        page.hide();
        QVERIFY(writeFile(csv, "id,category,start,end,amount,currency\n"
                               "later,other,2024-05-01T10:10:00Z,2024-05-01T10:10:00Z,3,USD\n"));
        r = test::runCli({u"bills"_s, u"import"_s, u"--project"_s, path, u"--csv"_s, csv});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QTest::qWait(1500);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(rowOf(table->model(), u"later"_s), -1);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(table->model(), u"later"_s) >= 0, 5000);
    }

    // The watcher itself: a -wal that appears after watching began (SQLite creates it when the
    // first writer opens the file and deletes it when the last one closes) is watched from the
    // folder's event, so commits that stay in it are seen, another process's and this one's.
    void watcherFollowsNewWal()
    {
        const QString path = freshProject(u"watch"_s);
        QVERIFY(!path.isEmpty());
        QVERIFY(!QFile::exists(path + u"-wal"_s)); // the fixture's last connection removed it
        ProjectFileWatcher watcher;
        watcher.setDebounceMs(100);
        QSignalSpy changed(&watcher, &ProjectFileWatcher::changed);
        watcher.setPath(path);
        ProjectStore holder; // keeps the -wal from being checkpointed and removed
        QVERIFY(holder.open(path));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path + u"-wal"_s), 5000);
        QTest::qWait(500);
        changed.clear();
        QFile main(path);
        const qint64 mainSize = main.size();
        const QString csv = m_dir.filePath(u"watch-bills.csv"_s);
        QVERIFY(writeFile(csv, kGoodCsv));
        const auto r = test::runCli(
            {u"bills"_s, u"import"_s, u"--project"_s, path, u"--csv"_s, csv, u"--sut"_s, u"A"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1, 5000);
        QCOMPARE(QFile(path).size(), mainSize); // the commit is in the -wal only
        // Debounced: a burst is one or two signals, not one per write.
        QTest::qWait(500);
        QVERIFY(changed.count() <= 2);

        // A commit of a connection that already had the -wal open touches nothing but the -wal
        // (no file is created or chowned, so the folder says nothing): only the -wal's own
        // watch, set up when it appeared, sees it.
        QTest::qWait(500);
        changed.clear();
        QList<BillImportProblem> problems;
        QVERIFY(!CostStore(&holder)
                     .importBillItems({item(u"held"_s, BillCategory::Other, "2024-05-01T10:00:00Z",
                                            "2024-05-01T10:00:00Z", "1")},
                                      u"A"_s, &problems)
                     .isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1, 5000);
    }
};

QTEST_MAIN(TestCostPage)
#include "tst_costpage.moc"
