// Every text the Compare tab (six runs of two SUTs), the Results view and the Cost page show is
// shown whole: no label, button, combo box, header, cell, legend entry or axis title is elided
// or clipped, measured with the font metrics of the widget that draws it; no chart legend
// entry is empty. In English and in Chinese, at the space each view gets in the main window at
// 1280×800 and at 1920×1080 (the window less the project tree, menus and status bar).
//
// Measured: a plain QLabel (no word wrap) against its contents rectangle; a push button, check
// box or radio button against its width less the style's margins and indicator; a combo box's
// current text against its width less the arrow; each visible header section against its text
// (plus the sort indicator where sorting is on); each cell of the first rows of a table against
// its column (plus the item's margins and decoration); Qt Charts: every legend marker has a label,
// an axis title fits the axis, and a value axis's labels fit between its ticks.

#include "../uiviews/comparefixture.h"
#include "../uiviews/uiviewstestutil.h"
#include "serverrun.h"

#include "charts/chartview.h"
#include "compare/comparisonview.h"
#include "costpage.h"
#include "editors/dataseteditor.h"
#include "editors/datasetpreviewmodel.h"
#include "editors/loadprofileeditor.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "resultsview.h"
#include "rundashboard.h"
#include "serverevidenceview.h"
#include "settingslanguage.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionButton>
#include <QStyleOptionFrame>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTreeView>
#include <QValueAxis>

#include <optional>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

bool shown(QWidget *w)
{
    return w->isVisible() && w->width() > 0 && w->height() > 0;
}

qreal lineWidth(const QFontMetricsF &fm, const QString &text)
{
    qreal w = 0;
    for (const QString &line : text.split(u'\n'))
        w = std::max(w, fm.horizontalAdvance(line));
    return w;
}

QString where(QWidget *w)
{
    QStringList path;
    for (QWidget *p = w; p; p = p->parentWidget())
        if (!p->objectName().isEmpty())
            path.prepend(p->objectName());
    return path.join(u'/') + u" ("_s + QString::fromLatin1(w->metaObject()->className()) + u')';
}

void checkCharts(QChartView *cv, QStringList *out)
{
    QChart *chart = cv->chart();
    if (!chart || !shown(cv))
        return;
    // What Qt Charts drew: it cuts a tick label, an axis title or a legend label that has no
    // room to "…" (or to nothing but "…") in the text item it puts on the scene.
    if (cv->scene())
        for (QGraphicsItem *item : cv->scene()->items()) {
            QString text;
            if (auto *t = dynamic_cast<QGraphicsTextItem *>(item))
                text = t->toPlainText();
            else if (auto *t = dynamic_cast<QGraphicsSimpleTextItem *>(item))
                text = t->text();
            if (item->isVisible() && (text.contains(u'…') || text.endsWith(u"..."_s)))
                *out << u"%1: chart '%2' shows a cut text '%3'"_s.arg(where(cv), chart->title(),
                                                                      text);
        }
    const QRectF plot = chart->plotArea();
    if (chart->legend() && chart->legend()->isVisible()) {
        // One row under or over the chart: Qt Charts cuts every label short (to nothing, at
        // worst) when the entries together are wider than the chart.
        const QFontMetricsF fm(chart->legend()->font());
        qreal need = 0;
        for (QLegendMarker *m : chart->legend()->markers()) {
            if (!m->isVisible())
                continue;
            if (m->label().trimmed().isEmpty())
                *out << u"%1: chart '%2' has a legend entry without a label"_s.arg(where(cv),
                                                                                   chart->title());
            need += fm.horizontalAdvance(m->label()) + fm.height() + 24;
        }
        const Qt::Alignment a = chart->legend()->alignment();
        if ((a & (Qt::AlignTop | Qt::AlignBottom)) && need > chart->size().width() - 20)
            *out << u"%1: chart '%2' legend needs %3 px in its row, has %4"_s
                        .arg(where(cv), chart->title())
                        .arg(need, 0, 'f', 0)
                        .arg(chart->size().width() - 20, 0, 'f', 0);
    }
    for (QAbstractAxis *a : chart->axes()) {
        if (!a->isVisible())
            continue;
        const bool horizontal = a->orientation() == Qt::Horizontal;
        const qreal room = horizontal ? plot.width() : plot.height();
        if (a->isTitleVisible() && !a->titleText().isEmpty()) {
            const qreal need = QFontMetricsF(a->titleFont()).horizontalAdvance(a->titleText());
            if (need > room + 1)
                *out << u"%1: chart '%2' axis title '%3' needs %4 px, has %5"_s
                            .arg(where(cv), chart->title(), a->titleText())
                            .arg(need, 0, 'f', 0)
                            .arg(room, 0, 'f', 0);
        }
        if (auto *v = qobject_cast<QValueAxis *>(a); v && horizontal && v->labelsVisible()) {
            const QFontMetricsF fm(v->labelsFont());
            const int ticks = std::max(2, v->tickCount());
            const qreal spacing = room / (ticks - 1);
            const QString fmt = v->labelFormat().isEmpty() ? u"%g"_s : v->labelFormat();
            qreal need = 0;
            for (int i = 0; i < ticks; ++i) {
                const double value = v->min() + (v->max() - v->min()) * i / (ticks - 1);
                need = std::max(need, fm.horizontalAdvance(
                                          QString::asprintf(fmt.toLatin1().constData(), value)));
            }
            if (need > spacing)
                *out << u"%1: chart '%2' x labels need %3 px between ticks %4 px apart"_s
                            .arg(where(cv), chart->title())
                            .arg(need, 0, 'f', 0)
                            .arg(spacing, 0, 'f', 0);
        }
        if (auto *c = qobject_cast<QBarCategoryAxis *>(a); c && horizontal && c->count() > 0) {
            const QFontMetricsF fm(c->labelsFont());
            const qreal slot = room / c->count();
            for (const QString &cat : c->categories())
                if (lineWidth(fm, cat) > slot + 1)
                    *out << u"%1: chart '%2' category '%3' needs %4 px, has %5"_s
                                .arg(where(cv), chart->title(), cat)
                                .arg(lineWidth(fm, cat), 0, 'f', 0)
                                .arg(slot, 0, 'f', 0);
        }
    }
}

void checkItemView(QAbstractItemView *v, QStringList *out)
{
    if (!v->model() || !shown(v))
        return;
    QStyle *style = v->style();
    const int cellMargin = (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, v) + 1) * 2;
    QHeaderView *header = nullptr;
    if (auto *t = qobject_cast<QTableView *>(v))
        header = t->horizontalHeader();
    else if (auto *t = qobject_cast<QTreeView *>(v))
        header = t->header();
    if (header && shown(header)) {
        const QFontMetricsF fm(header->font());
        const int margin = style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) * 2;
        for (int s = 0; s < header->count(); ++s) {
            if (header->isSectionHidden(s))
                continue;
            const int x = header->sectionViewportPosition(s);
            if (x < 0 || x >= header->viewport()->width())
                continue; // scrolled out of view: reachable, not cut
            const QString text =
                v->model()->headerData(s, Qt::Horizontal, Qt::DisplayRole).toString();
            qreal need = lineWidth(fm, text) + margin;
            if (header->isSortIndicatorShown())
                need += style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
            // 3 px: QHeaderView sizes sections in whole pixels of QFontMetrics.
            if (need > header->sectionSize(s) + 3)
                *out << u"%1: header '%2' needs %3 px, has %4"_s.arg(where(v), text)
                            .arg(need, 0, 'f', 0)
                            .arg(header->sectionSize(s));
        }
    }
    if (v->textElideMode() == Qt::ElideNone)
        return;
    const QFontMetricsF fm(v->font());
    const int rows = std::min(v->model()->rowCount(), 40);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < v->model()->columnCount(); ++c) {
            const QModelIndex i = v->model()->index(r, c);
            const QRect rect = v->visualRect(i);
            if (!rect.isValid() || rect.right() < 0 || rect.left() >= v->viewport()->width())
                continue;
            const QString text = i.data(Qt::DisplayRole).toString();
            if (text.isEmpty() || text.contains(u'\n'))
                continue;
            qreal need = fm.horizontalAdvance(text) + cellMargin;
            if (!i.data(Qt::DecorationRole).isNull())
                need += v->iconSize().isValid() ? v->iconSize().width() + 4 : 20;
            if (need > rect.width() + 1)
                *out << u"%1: cell (%2, %3) '%4' needs %5 px, has %6"_s.arg(where(v))
                            .arg(r)
                            .arg(c)
                            .arg(text)
                            .arg(need, 0, 'f', 0)
                            .arg(rect.width());
        }
}

// Every visible text of `root` that does not fit where it is drawn.
QStringList clipped(QWidget *root)
{
    QStringList out;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!shown(w))
            continue;
        if (auto *l = qobject_cast<QLabel *>(w); l && !l->wordWrap() && !l->text().isEmpty() &&
                                                 l->textFormat() != Qt::RichText &&
                                                 !Qt::mightBeRichText(l->text())) {
            // A buddy's mnemonic '&' is drawn as an underline, not a character.
            QString text = l->text();
            if (l->buddy())
                text.remove(QRegularExpression(u"&(?!&)"_s));
            const qreal need = lineWidth(QFontMetricsF(l->font()), text);
            if (need > l->contentsRect().width() + 1)
                out << u"%1: label '%2' needs %3 px, has %4"_s.arg(where(l), l->text())
                           .arg(need, 0, 'f', 0)
                           .arg(l->contentsRect().width());
        }
        if (auto *b = qobject_cast<QAbstractButton *>(w); b && !b->text().isEmpty()) {
            const QFontMetricsF fm(b->font());
            qreal need = lineWidth(fm, QString(b->text()).remove(u'&'));
            if (qobject_cast<QPushButton *>(b))
                need += 2 * b->style()->pixelMetric(QStyle::PM_ButtonMargin, nullptr, b);
            else if (qobject_cast<QCheckBox *>(b))
                need += b->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, b) +
                        b->style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, nullptr, b);
            else if (qobject_cast<QRadioButton *>(b))
                need += b->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth, nullptr, b) +
                        b->style()->pixelMetric(QStyle::PM_RadioButtonLabelSpacing, nullptr, b);
            else
                continue; // tool buttons: icons and tooltips
            if (!b->icon().isNull())
                need += b->iconSize().width() + 4;
            // A push button as wide as the style asks for its text shows all of it.
            if (qobject_cast<QPushButton *>(b) && b->width() >= b->sizeHint().width())
                continue;
            if (need > b->width() + 1)
                out << u"%1: button '%2' needs %3 px, has %4"_s.arg(where(b), b->text())
                           .arg(need, 0, 'f', 0)
                           .arg(b->width());
        }
        if (auto *c = qobject_cast<QComboBox *>(w); c && !c->currentText().isEmpty()) {
            const int arrow = c->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, c);
            const qreal need =
                QFontMetricsF(c->font()).horizontalAdvance(c->currentText()) + arrow + 12;
            if (need > c->width() + 1)
                out << u"%1: combo box '%2' needs %3 px, has %4"_s.arg(where(c), c->currentText())
                           .arg(need, 0, 'f', 0)
                           .arg(c->width());
        }
        if (auto *v = qobject_cast<QAbstractItemView *>(w))
            checkItemView(v, &out);
        if (auto *cv = qobject_cast<QChartView *>(w))
            checkCharts(cv, &out);
    }
    out.removeDuplicates();
    return out;
}

} // namespace

class TestViewsFit : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(comparefixture::build(m_dir.filePath(u"views.sbproj"_s), &m_project, &error),
                 qPrintable(error));
    }
    void cleanup() { QVERIFY(m_lang.apply(u"en"_s)); }
    // The SUT, dataset and load-profile editors, filled with realistic values (below).
    void editorsFit_data();
    void editorsFit();
    // The Results' Server tab of a run with its server scraped, with and without GPU power.
    void serverTabFits_data();
    void serverTabFits();

    void fits_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        // The view's share of the window: the project tree (about 260 px), menus, tool bar
        // and status bar (about 90 px) taken off.
        for (const QString &view : {u"compare"_s, u"results"_s, u"cost"_s, u"dashboard"_s})
            for (const auto &[name, size] : {std::pair{u"1280x800"_s, QSize(1020, 710)},
                                             std::pair{u"1920x1080"_s, QSize(1660, 990)}})
                for (const QString &lang : {u"en"_s, u"zh_CN"_s})
                    QTest::addRow("%s %s %s", qPrintable(view), qPrintable(name), qPrintable(lang))
                        << view << size << lang;
    }
    void fits()
    {
        QFETCH(QString, view);
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QVERIFY(m_lang.apply(language));
        QStringList problems;
        if (view == "compare"_L1) {
            ComparisonView v;
            v.resize(size);
            v.show();
            QSignalSpy listed(&v, &ComparisonView::runsListed);
            v.setProject(m_project.path);
            QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
            QSignalSpy shownSpy(&v, &ComparisonView::comparisonShown);
            v.setSelectedRuns({m_project.runA, m_project.runB, m_project.sweepA.at(0),
                               m_project.sweepA.at(2), m_project.sweepB.at(0),
                               m_project.sweepB.at(2)});
            QTRY_VERIFY_WITH_TIMEOUT(!shownSpy.isEmpty() && !v.isBusy(), 30000);
            problems = everyTab(&v);
        } else if (view == "results"_L1) {
            ResultsView v;
            v.resize(size);
            v.show();
            QSignalSpy charts(&v, &ResultsView::chartsShown);
            v.showRun(fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s),
                      fixture::records(60, 1.0, {{ErrorClass::Timeout, u"no answer"_s}}));
            QTRY_VERIFY_WITH_TIMEOUT(!charts.isEmpty(), 30000);
            problems = everyTab(&v);
        } else if (view == "dashboard"_L1) {
            // During a run against the simulator, its server scraped: checked while requests
            // are in flight and again at the end.
            SimConfig cfg;
            cfg.ttftMs = 20;
            cfg.itlMs = 4;
            cfg.capacity = 4;
            Simulator sim(cfg);
            QVERIFY(sim.start());
            const RunPlan plan = uitest::simPlan(sim, 160, 8, 0);
            RunController controller;
            controller.configure(plan, uitest::promptItems(16, 16), {});
            MetricsScraper scraper;
            uitest::setUpScraper(&scraper, sim.baseUrl().toString(), 100);
            controller.setMetricsScraper(&scraper);
            RunDashboard d;
            d.resize(size);
            d.show();
            d.attach(&controller, plan);
            QSignalSpy finished(&controller, &RunController::finished);
            QString error;
            QVERIFY2(scraper.start(&error), qPrintable(error));
            QVERIFY2(controller.start(&error), qPrintable(error));
            QTRY_VERIFY_WITH_TIMEOUT(d.counters().succeeded >= 40 || !finished.isEmpty(), 30000);
            problems = everyTab(&d);
            QVERIFY(finished.wait(60000));
            scraper.stop();    // the "after" scrape
            QTest::qWait(600); // the last refresh
            for (const QString &p : everyTab(&d))
                problems << u"(at the end) "_s + p;
            problems.removeDuplicates();
        } else {
            CostPage p;
            p.resize(size);
            p.show();
            QSignalSpy loaded(&p, &CostPage::loaded);
            p.setProject(m_project.path);
            QVERIFY(loaded.wait(30000));
            QVERIFY(p.selectWindow(u"window A"_s));
            problems = everyTab(&p);
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(u"%1 clipped:\n"_s.arg(problems.size()) + problems.join(u'\n')));
    }

private:
    // Every page of every tab widget in turn (nested ones too), each laid out and measured.
    // SB_FIT_SHOTS=DIR keeps a picture of each page for a person to look at.
    QStringList everyTab(QWidget *root)
    {
        QTest::qWait(100);
        const QString shots = qEnvironmentVariable("SB_FIT_SHOTS");
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
        int shot = 0;
        const auto keep = [&] {
            if (!shots.isEmpty())
                root->grab().save(
                    u"%1/%2-%3.png"_s.arg(shots, tag).arg(shot++, 2, 10, QChar(u'0')));
        };
        keep();
        QStringList out = clipped(root);
        for (QTabWidget *t : root->findChildren<QTabWidget *>()) {
            const int was = t->currentIndex();
            for (int i = 0; i < t->count(); ++i) {
                t->setCurrentIndex(i);
                QTest::qWait(100);
                keep();
                for (const QString &p : clipped(t->widget(i)))
                    out << u"[%1] "_s.arg(t->tabText(i)) + p;
            }
            t->setCurrentIndex(was);
        }
        out.removeDuplicates();
        return out;
    }

    QTemporaryDir m_dir;
    comparefixture::Project m_project;
    LanguageSwitcher m_lang;
};

// The editors (SUT, dataset, load profile): each at the editor's share of the window, filled with
// the values a user would type. Besides what clipped() measures: the text of every line edit
// (a spin box's too, its "special value" text included) or its placeholder when empty, against
// the room the line edit draws it in; and any field that the form's scroll area, which has no
// sideways scroll bar (editorform.h), cuts at its right edge.
namespace {

QStringList editorFieldsCut(QWidget *root)
{
    QStringList out;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!shown(w))
            continue;
        if (auto *e = qobject_cast<QLineEdit *>(w)) {
            const QString text = e->text().isEmpty() ? e->placeholderText() : e->displayText();
            QStyleOptionFrame opt;
            opt.initFrom(e);
            opt.rect = e->rect();
            opt.lineWidth =
                e->hasFrame() ? e->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &opt, e) : 0;
            const QRect area = e->style()
                                   ->subElementRect(QStyle::SE_LineEditContents, &opt, e)
                                   .marginsRemoved(e->textMargins());
            // QLineEdit keeps 2 px on either side of its text.
            const qreal need = QFontMetricsF(e->font()).horizontalAdvance(text) + 4;
            if (!text.isEmpty() && need > area.width() + 1)
                out << u"%1: line edit '%2' needs %3 px, has %4"_s.arg(where(e), text)
                           .arg(need, 0, 'f', 0)
                           .arg(area.width());
        }
        const bool field =
            qobject_cast<QLabel *>(w) || qobject_cast<QAbstractButton *>(w) ||
            qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
            (qobject_cast<QLineEdit *>(w) && !qobject_cast<QAbstractSpinBox *>(w->parentWidget()));
        if (!field)
            continue;
        for (QWidget *p = w->parentWidget(); p && p != root->parentWidget(); p = p->parentWidget())
            if (auto *area = qobject_cast<QScrollArea *>(p)) {
                const int right = w->mapTo(area->viewport(), QPoint(w->width(), 0)).x();
                if (right > area->viewport()->width() + 1)
                    out << u"%1: ends at x %2, its scroll area shows %3 px"_s.arg(where(w))
                               .arg(right)
                               .arg(area->viewport()->width());
                break;
            }
    }
    return out;
}

SutConfig realisticSut()
{
    SutConfig s;
    s.name = u"vllm-h100-eu"_s;
    s.baseUrl = u"https://inference.eu-west.example.com:8443"_s;
    s.endpoint = u"/v1/chat/completions"_s;
    s.flavour = ApiFlavour::Chat;
    s.model = u"meta-llama/Llama-3.1-70B-Instruct"_s;
    s.weightsRevision = u"1605565"_s;
    s.engine = u"vLLM"_s;
    s.engineVersion = u"0.10.1"_s;
    s.gpuModel = u"H100 80GB SXM"_s;
    s.gpuCount = 8;
    s.image = u"vllm/vllm-openai:v0.10.1"_s;
    s.replicas = 2;
    s.containers = 2;
    s.workersPerContainer = 1;
    s.region = u"eu-west-1"_s;
    s.clientLocation = u"same availability zone"_s;
    s.extraHeaders = {{u"X-Team"_s, u"perf"_s}, {u"X-Gateway-Key"_s, u"{api_key}"_s}};
    s.caFile = u"/etc/ssl/certs/corp-root-ca.pem"_s;
    s.proxy = u"http://proxy.corp:3128"_s;
    s.notes = u"tp=8, max-num-seqs=256"_s;
    // A managed server (docs/managed-servers.md): the editor's Server rows filled as a user would.
    s.managed.startCommand = u"HF_TOKEN=$HF_TOKEN vllm serve meta-llama/Llama-3.1-70B-Instruct "
                             "--tensor-parallel-size 8 --max-num-seqs 256 --port 8443"_s;
    s.managed.healthUrl = u"https://inference.eu-west.example.com:8443/health"_s;
    s.managed.startTimeoutS = 900;
    s.managed.lifetime = u"run"_s;
    s.apiKeyRef = ApiKeyStore::keychainRef(u"vllm-h100-eu"_s);
    s.serverMetrics.sut = u"auto"_s;
    s.serverMetrics.targets = {{u"dcgm"_s, u"http://gpu-host:9400/metrics"_s, u"env:DCGM_TOKEN"_s}};
    return s;
}

} // namespace

void TestViewsFit::editorsFit_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("language");
    // The editor's share of the window, as the views' above: the editors sit in the same tab.
    for (const QString &view :
         {u"sut"_s, u"dataset-synthetic"_s, u"dataset-sharegpt"_s, u"profile"_s})
        for (const auto &[name, size] : {std::pair{u"1280x800"_s, QSize(1020, 710)},
                                         std::pair{u"1920x1080"_s, QSize(1660, 990)}})
            for (const QString &lang : {u"en"_s, u"zh_CN"_s})
                QTest::addRow("%s %s %s", qPrintable(view), qPrintable(name), qPrintable(lang))
                    << view << size << lang;
}

void TestViewsFit::editorsFit()
{
    QFETCH(QString, view);
    QFETCH(QSize, size);
    QFETCH(QString, language);
    QVERIFY(m_lang.apply(language));
    QStringList problems;
    if (view == "sut"_L1) {
        // A machine without a keychain: the editor's note on where the key comes from shows too.
        ApiKeyStore keys(new KeychainUnavailableBackend(
            nullptr, u"Failed to execute child process \"dbus-launch\" (No such file or "
                     "directory)"_s));
        SutEditor e;
        e.setKeyStore(&keys);
        e.resize(size);
        e.show();
        e.setConfig(realisticSut());
        QVERIFY2(e.isValid(), qPrintable(e.errors().join(u"; "_s)));
        problems = everyTab(&e) + editorFieldsCut(&e);
        // The rows below the first screen (the managed server's) for a person to look at.
        if (const QString shots = qEnvironmentVariable("SB_FIT_SHOTS"); !shots.isEmpty()) {
            auto *area = e.findChild<QScrollArea *>();
            QVERIFY(area);
            area->ensureWidgetVisible(e.findChild<QWidget *>(u"serverLifetime"_s), 0, 200);
            QTest::qWait(100);
            e.grab().save(u"%1/%2-server-rows.png"_s.arg(
                shots, QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-')));
        }
    } else if (view.startsWith("dataset"_L1)) {
        DatasetEditor e;
        e.resize(size);
        e.show();
        QSignalSpy hashes(&e, &DatasetEditor::hashComputed);
        e.setSampling(200, 42);
        DatasetSpec d;
        d.versionLabel = u"v2-2024-06"_s;
        if (view == "dataset-sharegpt"_L1) {
            d.kind = DatasetKind::ShareGpt;
            d.path = QStringLiteral(SB_TEST_DATA_DIR "/datasets/sharegpt_good.json");
            d.withReplacement = true;
            d.multiTurn = true;
            d.maxTurns = 8;
        } else {
            d.kind = DatasetKind::Random;
            d.randomInputLen = 1024;
            d.randomOutputLen = 128;
            d.randomRangeRatio = 0.25;
            d.randomPrefixLen = 64;
        }
        e.setDataset(u"chat-sample"_s, d);
        QTRY_VERIFY_WITH_TIMEOUT(!hashes.isEmpty(), 20000);
        problems = everyTab(&e) + editorFieldsCut(&e);
        // A prompt is as long as it is: the last column shows its start, its tooltip all of it.
        problems.removeIf([](const QString &p) {
            return p.startsWith(u"previewTable"_s) &&
                   p.contains(u", %1) '"_s.arg(int(DatasetPreviewModel::PromptColumn)));
        });
    } else {
        LoadProfileEditor e;
        e.resize(size);
        e.show();
        LoadProfile p;
        p.scenario = Scenario::Server;
        p.requestRate = 12.5;
        p.maxConcurrency = 64;
        p.numPrompts = 2000;
        p.warmupRequests = 20;
        p.seed = 20240611;
        p.goodput.ttftMs = 500;
        p.goodput.tpotMs = 50;
        p.metricPercentiles = {50, 90, 99};
        p.tracePath = QStringLiteral(SB_TEST_DATA_DIR "/traces/simple.jsonl");
        p.traceTimeScale = 0.5;
        p.sessionHeader = u"X-Session-ID"_s;
        RequestParams params;
        params.ignoreEos = true;
        params.temperature = 0.7;
        params.seed = 1234;
        params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
        RunExecution x;
        x.mode = RunMode::Sweep;
        x.sweepRates = 6;
        e.setProfile(u"chat, 12.5 req/s"_s, p, params, x);
        // The splitter takes in the form's width over a few layout passes after the first show.
        QTest::qWait(200);
        problems = everyTab(&e) + editorFieldsCut(&e);
    }
    problems.removeDuplicates();
    QVERIFY2(problems.isEmpty(),
             qPrintable(u"%1 clipped:\n"_s.arg(problems.size()) + problems.join(u'\n')));
}

// The Results' Server tab after a run whose server was scraped (serverrun.h), shown as the
// workbench shows a finished run: its records and its scraped targets (docs/server-metrics.md,
// "In a run"). Once with the simulated GPU exporter and once without any GPU power. Besides what
// clipped() measures, on this tab:
//   - every column of the evidence table lies inside the table's viewport: a reader sees a
//     figure's definition beside its value without scrolling sideways (a column that starts past
//     the viewport's right edge is off-screen, not "reachable" as in clipped());
//   - the table wraps its cells (a definition is a sentence): a cell is cut when its text, wrapped
//     at the cell's width less its margins, is wider or taller than the cell;
//   - a chart without points says why under its title.
namespace {

const serverrun::Run &scrapedRun(bool withGpu)
{
    static std::optional<serverrun::Run> runs[2];
    std::optional<serverrun::Run> &run = runs[withGpu ? 1 : 0];
    if (!run) {
        serverrun::Run made;
        QString error;
        if (!serverrun::make(withGpu, &made, &error))
            qFatal("the scraped run failed: %s", qPrintable(error));
        run = made;
    }
    return *run;
}

QStringList wrappedCellsCut(QTableView *v)
{
    QStringList out;
    const int margin = (v->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, v) + 1) * 2;
    const QFontMetrics fm(v->font());
    for (int r = 0; r < v->model()->rowCount(); ++r)
        for (int c = 0; c < v->model()->columnCount(); ++c) {
            const QModelIndex i = v->model()->index(r, c);
            const QString text = i.data(Qt::DisplayRole).toString();
            const QRect rect = v->visualRect(i);
            if (text.isEmpty() || !rect.isValid() || v->isColumnHidden(c))
                continue;
            const int room = rect.width() - margin;
            const QRect need =
                v->wordWrap() ? fm.boundingRect(QRect(0, 0, room, 1 << 20), Qt::TextWordWrap, text)
                              : QRect(0, 0, fm.horizontalAdvance(text), fm.height());
            if (need.width() > room + 1 || need.height() > rect.height() + 1)
                out << u"%1: cell (%2, %3) '%4' needs %5×%6 px, has %7×%8"_s.arg(where(v))
                           .arg(r)
                           .arg(c)
                           .arg(text.left(60))
                           .arg(need.width() + margin)
                           .arg(need.height())
                           .arg(rect.width())
                           .arg(rect.height());
        }
    return out;
}

QStringList columnsOffScreen(QTableView *v)
{
    QStringList out;
    QHeaderView *h = v->horizontalHeader();
    for (int s = 0; s < h->count(); ++s) {
        if (h->isSectionHidden(s))
            continue;
        const int x = h->sectionViewportPosition(s);
        if (x < 0 || x + h->sectionSize(s) > v->viewport()->width() + 1)
            out << u"%1: column '%2' spans x %3 to %4, the table shows 0 to %5"_s.arg(where(v))
                       .arg(v->model()->headerData(s, Qt::Horizontal).toString())
                       .arg(x)
                       .arg(x + h->sectionSize(s))
                       .arg(v->viewport()->width());
    }
    return out;
}

QStringList emptyChartsUnexplained(const QList<ChartView *> &charts)
{
    QStringList out;
    for (ChartView *c : charts) {
        qsizetype points = 0;
        for (int k = 0; k < c->chart()->series().size(); ++k)
            points += c->pointCount(k);
        const QStringList lines = QTextDocumentFragment::fromHtml(c->chart()->title())
                                      .toPlainText()
                                      .split(QRegularExpression(u"[\\n\\x{2028}\\x{2029}]"_s));
        if (points == 0 && (lines.size() < 2 || lines.at(1).trimmed().isEmpty()))
            out << u"%1: chart '%2' has no points and does not say why"_s.arg(where(c),
                                                                              c->chart()->title());
    }
    return out;
}

} // namespace

void TestViewsFit::serverTabFits_data()
{
    QTest::addColumn<bool>("gpu");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("language");
    // The Results view's share of the window, as in fits().
    for (const bool gpu : {true, false})
        for (const auto &[name, size] : {std::pair{u"1280x800"_s, QSize(1020, 710)},
                                         std::pair{u"1920x1080"_s, QSize(1660, 990)}})
            for (const QString &lang : {u"en"_s, u"zh_CN"_s})
                QTest::addRow("%s %s %s", gpu ? "gpu" : "no-gpu", qPrintable(name),
                              qPrintable(lang))
                    << gpu << size << lang;
}

void TestViewsFit::serverTabFits()
{
    QFETCH(bool, gpu);
    QFETCH(QSize, size);
    QFETCH(QString, language);
    const serverrun::Run &run = scrapedRun(gpu);
    QVERIFY(m_lang.apply(language));
    ResultsView v;
    v.resize(size);
    v.show();
    QSignalSpy charts(&v, &ResultsView::chartsShown);
    v.showRun(run.plan, run.records, run.serverMetrics);
    QTRY_VERIFY_WITH_TIMEOUT(!charts.isEmpty(), 30000);
    ServerEvidenceView *server = v.serverView();
    QVERIFY(v.tabs()->isTabVisible(v.tabs()->indexOf(server)));
    v.tabs()->setCurrentWidget(server);
    QTest::qWait(150);
    if (const QString shots = qEnvironmentVariable("SB_FIT_SHOTS"); !shots.isEmpty())
        v.grab().save(u"%1/server-%2.png"_s.arg(
            shots, QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-')));
    // The fixture is what it says: the GPU's power is drawn, or there is none.
    QCOMPARE(server->charts().at(2)->pointCount(0) > 0, gpu);
    QTableWidget *table = server->table();
    QVERIFY(table->rowCount() > 20);
    // The table's cells are measured below as it draws them: wrapped.
    const QString cell = where(table) + u": cell ("_s;
    QStringList problems = clipped(server);
    problems.removeIf([&](const QString &p) { return p.startsWith(cell); });
    problems << wrappedCellsCut(table) << columnsOffScreen(table)
             << emptyChartsUnexplained(server->charts());
    // The tab asks for no more than the view's share. (The view as a whole is wider still at
    // 1280x800: its Distributions tab asks for 1058 px; not this tab's to fix.)
    if (server->minimumSizeHint().width() > size.width())
        problems << u"the Server tab asks for %1 px of the view's %2 px"_s
                        .arg(server->minimumSizeHint().width())
                        .arg(size.width());
    for (const QString &p : std::as_const(problems))
        qInfo("%s", qPrintable(p)); // a failure message is cut short
    QVERIFY2(problems.isEmpty(),
             qPrintable(u"%1 problem(s):\n"_s.arg(problems.size()) + problems.join(u'\n')));
}

QTEST_MAIN(TestViewsFit)
#include "tst_viewsfit.moc"
