// The Chinese workbench shows no English word outside a short, stated allowlist: the Compare tab
// (six runs of two SUTs), the Results view (a Server run with failures) and the Cost page are
// filled, switched to zh_CN, and every text they show (viewtexts.h) is read word by word. Code is
// not read (URLs, servebench-cli commands and --flags, formula identifiers such as t_first and
// sorted[floor(N·p)], dotted API fields, ISO times, [DONE], 5xx). A word of Latin letters passes
// only if it is
//   - a term that stays as it is in Chinese (kTerms: metric acronyms such as TTFT, unit symbols,
//     formats, MLPerf's scenario names, product names, the API and result-file field names the
//     definitions cite), or
//   - the fixture's own data: names the user gave (runs, SUTs, sweeps, windows, bill items),
//     the model, engines and GPUs, the bill's billing unit, the servers' error messages (kData).
// The same views in English must show English words that are not allowed (the check bites).

#include "../uiviews/comparefixture.h"
#include "../uiviews/uiviewstestutil.h"
#include "serverrun.h"
#include "viewtexts.h"

#include "compare/comparisonview.h"
#include "costpage.h"
#include "editors/dataseteditor.h"
#include "editors/loadprofileeditor.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "resultsview.h"
#include "rundashboard.h"
#include "serverevidenceview.h"
#include "settingslanguage.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Terms Chinese text keeps in Latin letters (lower-cased for the comparison).
const QSet<QString> kTerms = {
    // metrics and their parts
    u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s, u"cdf"_s, u"slo"_s, u"slos"_s, u"kv"_s, u"gpu"_s,
    u"gpus"_s, u"cpu"_s, u"token"_s, u"tokens"_s, u"p50"_s, u"p90"_s, u"p95"_s, u"p99"_s,
    // formats, protocols, identifiers
    u"http"_s, u"https"_s, u"url"_s, u"json"_s, u"jsonl"_s, u"csv"_s, u"tsv"_s, u"html"_s, u"pdf"_s,
    u"api"_s, u"id"_s, u"utc"_s, u"sha256"_s, u"tcp"_s, u"tls"_s, u"sse"_s,
    // HTTP methods and POSIX signal names, written as the protocol and the kernel name them
    u"post"_s, u"get"_s, u"sigterm"_s, u"sigkill"_s,
    // the APIs' own names (OpenAI Responses, Anthropic Messages, rerank endpoints)
    u"responses"_s, u"messages"_s, u"anthropic"_s, u"rerank"_s,
    // MLPerf's names, and products
    u"mlperf"_s, u"loadgen"_s, u"singlestream"_s, u"server"_s, u"offline"_s, u"valid"_s,
    u"invalid"_s, u"servebench"_s, u"vllm"_s, u"sglang"_s, u"openai"_s, u"prometheus"_s, u"dcgm"_s,
    u"sharegpt"_s, u"numpy"_s,
    // unit symbols (SI, and the rates' units as the core writes them everywhere)
    u"ms"_s, u"req"_s, u"tok"_s, u"kwh"_s,
    // the project's own short names: SUT (system under test), TTFCT
    u"sut"_s, u"suts"_s, u"ttfct"_s,
    // names of the OpenAI API and of vLLM's result file that the definitions refer to
    u"usage"_s, u"completions"_s, u"failed"_s, u"ddof"_s,
    // engines, libraries and file formats the editors name (product names stay as they are)
    u"tgi"_s, u"tensorrt"_s, u"llm"_s, u"hugging"_s, u"face"_s, u"tiktoken"_s, u"mooncake"_s,
    u"qt"_s, u"pem"_s, u"ca"_s, u"eos"_s, u"gamma"_s, u"sxm"_s, u"pcie"_s, u"gb"_s,
    // request fields and values the editors say are sent as written ("seed", true, none)
    u"seed"_s, u"prompt"_s, u"timestamp"_s, u"true"_s, u"false"_s, u"none"_s, u"socket"_s,
    u"qnam"_s};

// The fixture's data (tests/report/reportfixture.h, tests/uiviews/comparefixture.h).
const QSet<QString> kData = {
    // tests/uiviews/uiviewstestutil.h's plan ("ui views test") against the built-in simulator
    u"ui"_s,      u"views"_s,     u"test"_s,     u"simulator"_s, u"run"_s,   u"script"_s,
    u"alert"_s,   u"pwned"_s,     u"a100"_s,     u"h100"_s,      u"rate"_s,  u"sweep"_s,
    u"req"_s,     u"meta"_s,      u"llama"_s,    u"instruct"_s,  u"it"_s,    u"quoted"_s,
    u"bold"_s,    u"synthetic"_s, u"poisson"_s,  u"window"_s,    u"cloud"_s, u"co"_s,
    u"inv"_s,     u"gpu"_s,       u"node"_s,     u"usd"_s,       u"plan"_s,  u"rate"_s,
    u"limited"_s, u"slow"_s,      u"upstream"_s, u"said"_s,      u"no"_s,    u"answer"_s,
    u"in"_s,      u"time"_s,      u"down"_s,     u"env"_s,       u"key"_s};
// Not "hour" (the bill's billing unit): a unit is shown in the reader's language, "USD/小时"
// (core/cost costText(); docs/translations.md).

// Words of two or more Latin letters (digits may follow: a100, p99), outside what is code and
// stays as written in every language: URLs, command lines (servebench-cli …, vllm serve MODEL,
// --flags, $VARIABLE), formula identifiers (t_first, n_out), ISO times, the stream's [DONE].
QStringList latinWords(const QString &text)
{
    static const QList<QRegularExpression> code = {
        QRegularExpression(u"\\b[a-z]+://\\S+"_s),
        QRegularExpression(u"servebench-cli( [a-z-]+){0,2}"_s),
        QRegularExpression(u"\\b\\w+\\[[^\\]]*\\]"_s),       // sorted[floor(N·p)]
        QRegularExpression(u"\\b[a-z_]+(\\.[a-z_]+)+\\b"_s), // delta.content
        QRegularExpression(u"\\b\\dxx\\b"_s),                // HTTP 5xx
        QRegularExpression(u"--[a-z][a-z0-9-]*"_s),
        QRegularExpression(u"\\b\\w*_\\w*\\b"_s),
        QRegularExpression(u"\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z?"_s),
        QRegularExpression(u"\\[DONE\\]"_s),
        QRegularExpression(u"/v\\d(/[a-z/]+)?\\b|/metrics\\b|/health\\b"_s), // endpoint paths
        QRegularExpression(u"\\$\\{?[A-Z_][A-Z0-9_]*\\}?"_s),              // shell variables
        QRegularExpression(u"\\bvllm serve [A-Z]+"_s),                    // a command example
        QRegularExpression(u"\\b[\\w.-]+/[\\w./-]+(:[\\w.-]+)?"_s),       // images, model ids
        QRegularExpression(u"\\[[^\\]\\x{3000}-\\x{9fff}]*\\]"_s),        // bracketed formulas
        QRegularExpression(u"\\b[0-9a-f]{16,}\\b"_s),                     // digests
        QRegularExpression(u"\\b[A-Za-z0-9.]+(?:-[A-Za-z0-9.]+)+\\b"_s)}; // ids: single-stream
    static const QRegularExpression word(u"[A-Za-z][A-Za-z0-9]+"_s);
    QStringList out;
    QString t = text;
    for (const QRegularExpression &c : code)
        t.remove(c);
    for (auto it = word.globalMatch(t); it.hasNext();)
        out << it.next().captured(0);
    return out;
}

// The Results' Server tab is read more strictly (serverTabWords): no identifier passes as code
// because it has an underscore (a figure's internal name such as running_mean is not a label),
// and no fixture data is allowed wholesale. What stays in Latin letters there:
//   - a Prometheus series name, marked as one by its engine's prefix (vllm:num_preemptions_total,
//     DCGM_FI_DEV_POWER_USAGE; docs/server-metrics.md, "What each engine's names mean"), and
//     Prometheus' histogram_quantile, which the definitions name as Prometheus' own;
//   - a name set in quotation marks (a target's name, a series the reason names);
//   - URLs, and the terms above (kTerms) and the unit symbol GiB.
// A scraped target's name (sut, dcgm-simulated) shown outside quotation marks is reported too: in
// "目标 sut" it reads as an untranslated word.
QMap<QString, QString> serverTabDisallowed(const QStringList &texts, const QStringList &targetNames)
{
    static const QList<QRegularExpression> code = {
        QRegularExpression(u"\\b[a-z]+://\\S+"_s),
        QRegularExpression(u"“[^”]*”|‘[^’]*’|'[^']*'|「[^」]*」"_s),
        QRegularExpression(u"\\b(?:vllm|sglang):[A-Za-z0-9_:]+(?:\\{[^}]*\\})?"_s),
        QRegularExpression(u"\\bDCGM_FI_[A-Z0-9_]+(?:\\{[^}]*\\})?"_s),
        QRegularExpression(u"\\bhistogram_quantile\\b"_s)};
    static const QRegularExpression word(u"[A-Za-z][A-Za-z0-9]+"_s);
    static const QSet<QString> units = {u"gib"_s};
    QMap<QString, QString> out; // word → the line it is in
    const auto add = [&](const QString &key, const QString &text, const QString &what) {
        if (out.contains(key))
            return;
        for (const QString &line : text.split(u'\n'))
            if (line.contains(what)) {
                out.insert(key, line.left(160));
                return;
            }
        out.insert(key, text.left(160));
    };
    for (const QString &text : texts) {
        QString t = text;
        for (const QRegularExpression &c : code.mid(0, 2))
            t.remove(c);
        for (const QString &name : targetNames) {
            const QRegularExpression bare(
                u"(?<![\\w-])%1(?![\\w-])"_s.arg(QRegularExpression::escape(name)));
            if (t.contains(bare))
                add(u"target name '%1' unquoted"_s.arg(name), text, name);
        }
        for (const QRegularExpression &c : code.mid(2))
            t.remove(c);
        for (auto it = word.globalMatch(t); it.hasNext();) {
            const QString w = it.next().captured(0);
            const QString l = w.toLower();
            if (!kTerms.contains(l) && !units.contains(l))
                add(l, text, w);
        }
    }
    return out;
}

} // namespace

class TestChineseWords : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(comparefixture::build(m_dir.filePath(u"words.sbproj"_s), &m_project, &error),
                 qPrintable(error));
    }
    void cleanup() { QVERIFY(m_lang.apply(u"en"_s)); }

    void onlyAllowedLatinWords_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("compare") << u"compare"_s;
        QTest::newRow("results") << u"results"_s;
        QTest::newRow("cost") << u"cost"_s;
    }
    void onlyAllowedLatinWords()
    {
        QFETCH(QString, view);
        QStringList english, chinese;
        if (view == "compare"_L1) {
            ComparisonView v;
            v.resize(1300, 850);
            v.show();
            QSignalSpy listed(&v, &ComparisonView::runsListed);
            v.setProject(m_project.path);
            QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
            QSignalSpy shown(&v, &ComparisonView::comparisonShown);
            v.setSelectedRuns({m_project.runA, m_project.runB, m_project.sweepA.at(0),
                               m_project.sweepA.at(2), m_project.sweepB.at(0),
                               m_project.sweepB.at(2)});
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !v.isBusy(), 30000);
            both(&v, &english, &chinese);
        } else if (view == "results"_L1) {
            ResultsView v;
            v.resize(1300, 850);
            v.show();
            QSignalSpy charts(&v, &ResultsView::chartsShown);
            RunPlan plan = fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
            plan.profile.scenario = Scenario::Server;
            plan.profile.ttftSloMs = 5;
            v.showRun(plan, fixture::records(60, 1.0,
                                             {{ErrorClass::Timeout, u"no answer in time"_s},
                                              {ErrorClass::Http5xx, u"upstream said 500"_s}}));
            QTRY_VERIFY_WITH_TIMEOUT(!charts.isEmpty(), 30000);
            // Left out, as tst_translatedviews leaves them: the request table (stored class
            // names and the servers' messages: data) and the LoadGen-style block, a
            // compatibility format that stays English.
            both(&v, &english, &chinese,
                 {v.findChild<QWidget *>(u"requestFilter"_s)->parentWidget(),
                  v.findChild<QWidget *>(u"mlperfText"_s)});
        } else {
            CostPage p;
            p.resize(1300, 850);
            p.show();
            QSignalSpy loaded(&p, &CostPage::loaded);
            p.setProject(m_project.path);
            QVERIFY(loaded.wait(30000));
            QVERIFY(p.selectWindow(u"window A"_s));
            both(&p, &english, &chinese);
        }
        check(english, chinese, 20);
    }

    // The editors (SUT, dataset, load profile) filled as the fixture's entities are, and the
    // dashboard during a run against the simulator with its server scraped.
    void editorsAndDashboard_data()
    {
        QTest::addColumn<QString>("view");
        for (const char *v : {"sut", "dataset", "profile", "dashboard"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void editorsAndDashboard()
    {
        QFETCH(QString, view);
        QStringList english, chinese;
        const RunPlan plan = fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
        if (view == "sut"_L1) {
            ApiKeyStore keys(new KeychainUnavailableBackend);
            SutEditor e;
            e.setKeyStore(&keys);
            e.resize(1300, 850);
            e.show();
            SutConfig c = plan.sut;
            c.apiKeyRef.clear(); // the fixture's env reference names a variable: data
            e.setConfig(c);
            both(&e, &english, &chinese);
        } else if (view == "dataset"_L1) {
            DatasetEditor e;
            e.resize(1300, 850);
            e.show();
            QSignalSpy hashes(&e, &DatasetEditor::hashComputed);
            e.setDataset(u"synthetic"_s, plan.dataset);
            QTRY_VERIFY_WITH_TIMEOUT(!hashes.isEmpty(), 20000);
            // The preview's prompts are the dataset's own words: data.
            both(&e, &english, &chinese, {e.findChild<QWidget *>(u"previewTable"_s)});
        } else if (view == "profile"_L1) {
            LoadProfileEditor e;
            e.resize(1300, 850);
            e.show();
            e.setProfile(u"poisson"_s, plan.profile, {}, {});
            both(&e, &english, &chinese);
        } else {
            SimConfig cfg;
            cfg.ttftMs = 10;
            cfg.itlMs = 2;
            Simulator sim(cfg);
            QVERIFY(sim.start());
            const RunPlan run = uitest::simPlan(sim, 60, 6, 0);
            RunController controller;
            controller.configure(run, uitest::promptItems(8, 8), {});
            MetricsScraper scraper;
            uitest::setUpScraper(&scraper, sim.baseUrl().toString(), 100);
            controller.setMetricsScraper(&scraper);
            RunDashboard d;
            d.resize(1300, 850);
            d.show();
            d.attach(&controller, run);
            QSignalSpy finished(&controller, &RunController::finished);
            QString error;
            QVERIFY2(scraper.start(&error), qPrintable(error));
            QVERIFY2(controller.start(&error), qPrintable(error));
            QVERIFY(finished.wait(60000));
            scraper.stop();
            QTest::qWait(600);
            both(&d, &english, &chinese);
        }
        check(english, chinese, 5);
    }

    // The Results' Server tab of a run whose server was scraped (serverrun.h), with the simulated
    // GPU exporter and without any GPU power, read by the stricter rule above.
    void serverTabWords_data()
    {
        QTest::addColumn<bool>("gpu");
        QTest::newRow("gpu") << true;
        QTest::newRow("no-gpu") << false;
    }
    void serverTabWords()
    {
        QFETCH(bool, gpu);
        serverrun::Run run;
        QString error;
        QVERIFY2(serverrun::make(gpu, &run, &error), qPrintable(error));
        ResultsView v;
        v.resize(1300, 850);
        v.show();
        QSignalSpy charts(&v, &ResultsView::chartsShown);
        v.showRun(run.plan, run.records, run.serverMetrics);
        QTRY_VERIFY_WITH_TIMEOUT(!charts.isEmpty(), 30000);
        v.tabs()->setCurrentWidget(v.serverView());
        QStringList names;
        for (const MetricSeriesStore &s : std::as_const(run.serverMetrics))
            names << s.targetName();
        QStringList english, chinese;
        both(v.serverView(), &english, &chinese);
        QVERIFY(serverTabDisallowed(english, names).size() > 20); // the check bites
        const QMap<QString, QString> left = serverTabDisallowed(chinese, names);
        QStringList report;
        for (auto it = left.cbegin(); it != left.cend(); ++it) {
            report << u"'%1' in: %2"_s.arg(it.key(), it.value());
            qInfo("%s", qPrintable(report.constLast())); // a failure message is cut short
        }
        QVERIFY2(left.isEmpty(),
                 qPrintable(u"%1 English word(s) on the Chinese Server tab:\n"_s.arg(left.size()) +
                            report.join(u'\n')));
    }

private:
    // English must show more than `bites` words the rule does not allow (the check is not
    // vacuous); Chinese none.
    void check(const QStringList &english, const QStringList &chinese, int bites)
    {
        const auto disallowed = [](const QStringList &texts) {
            QMap<QString, QString> out; // word → the line of a text it is in
            for (const QString &t : texts)
                for (const QString &w : latinWords(t)) {
                    const QString l = w.toLower();
                    if (!kTerms.contains(l) && !kData.contains(l) && !out.contains(l)) {
                        for (const QString &line : t.split(u'\n'))
                            if (line.contains(w)) {
                                out.insert(l, line.left(160));
                                break;
                            }
                    }
                }
            return out;
        };
        QVERIFY(disallowed(english).size() > bites);
        const QMap<QString, QString> left = disallowed(chinese);
        QStringList report;
        for (auto it = left.cbegin(); it != left.cend(); ++it) {
            report << u"'%1' in: %2"_s.arg(it.key(), it.value());
            qInfo("%s", qPrintable(report.constLast())); // a failure message is cut short
        }
        QVERIFY2(left.isEmpty(),
                 qPrintable(u"%1 English word(s) in the Chinese view:\n"_s.arg(left.size()) +
                            report.join(u'\n')));
    }

    void both(QWidget *w, QStringList *english, QStringList *chinese,
              const QList<QWidget *> &skip = {})
    {
        QTest::qWait(50);
        *english = viewtexts::shownTexts(w, skip);
        QVERIFY(m_lang.apply(u"zh_CN"_s));
        QTest::qWait(50);
        QCoreApplication::processEvents();
        *chinese = viewtexts::shownTexts(w, skip);
    }

    QTemporaryDir m_dir;
    comparefixture::Project m_project;
    LanguageSwitcher m_lang;
};

QTEST_MAIN(TestChineseWords)
#include "tst_chinesewords.moc"
