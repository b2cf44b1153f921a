// Every dataset kind run through the real engine against the simulator: the prompts the server
// received are exactly the dataset's, in the schedule's order, and the requested output lengths
// are the dataset's too.
#include "enginetestutil.h"

#include "sim/simulator.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace sb;

class TestDatasetRuns : public QObject
{
    Q_OBJECT

private slots:
    void promptsSentAreTheDatasets_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("flavour");
        const QString dir = QString::fromUtf8(SB_SAMPLE_DATASETS);
        QTest::newRow("random") << int(DatasetKind::Random) << QString()
                                << int(ApiFlavour::Completions);
        QTest::newRow("sharegpt") << int(DatasetKind::ShareGpt) << dir + u"/sharegpt_sample.json"_s
                                  << int(ApiFlavour::Completions);
        QTest::newRow("custom") << int(DatasetKind::Custom) << dir + u"/custom_sample.jsonl"_s
                                << int(ApiFlavour::Completions);
        QTest::newRow("custom chat")
            << int(DatasetKind::Custom) << dir + u"/custom_sample.jsonl"_s << int(ApiFlavour::Chat);
        QTest::newRow("sharegpt chat") << int(DatasetKind::ShareGpt)
                                       << dir + u"/sharegpt_sample.json"_s << int(ApiFlavour::Chat);
    }
    void promptsSentAreTheDatasets()
    {
        QFETCH(int, kind);
        QFETCH(QString, path);
        QFETCH(int, flavour);
        SimConfig cfg;
        cfg.ttftMs = 1;
        cfg.itlMs = 0.2;
        cfg.maxLoggedPromptChars = 1 << 20;
        Simulator sim(cfg);
        QVERIFY(sim.start());

        DatasetSpec spec;
        spec.kind = DatasetKind(kind);
        spec.path = path;
        spec.randomInputLen = 24;
        spec.randomOutputLen = 3;
        spec.sharegptOutputLen = 3; // short answers keep the test quick
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 12, 7, &ds, &error), qPrintable(error));
        QCOMPARE(ds.items.size(), 12);

        RunPlan plan = test::makePlan(u"http://127.0.0.1:%1"_s.arg(sim.port()), 12, 4);
        plan.dataset = spec;
        plan.sut.flavour = ApiFlavour(flavour);
        RunController c;
        c.configure(plan, ds.items, {});
        QVERIFY(test::runToEnd(c, 60000));
        QCOMPARE(c.records().size(), 12);

        QHash<QString, SimLogEntry> log;
        for (const SimLogEntry &e : sim.requestLog())
            log.insert(e.requestId, e);
        for (const RequestRecord &r : c.records()) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            const PromptItem &item = ds.items.at(int(r.index));
            QCOMPARE(r.datasetItem, item.sourceIndex);
            const SimLogEntry e = log.value(r.requestId);
            QVERIFY(!e.requestId.isEmpty());
            // Chat requests carry the dataset's messages, or the prompt as one user message; the
            // simulator logs the contents joined, like the dataset's display prompt.
            QString sent = item.prompt;
            // Completions send the prompt text; chat sends the dataset's messages, whose contents
            // the simulator logs joined by '\n'.
            if (plan.sut.flavour == ApiFlavour::Chat && !item.messages.isEmpty()) {
                QStringList parts;
                for (const auto &m : item.messages)
                    parts.append(m.toObject().value(u"content"_s).toString());
                sent = parts.join(u'\n');
            }
            QCOMPARE(e.prompt, sent);
            QCOMPARE(e.maxTokens, item.outputTokens);
            QCOMPARE(r.expectedOutputTokens, item.outputTokens);
        }
    }
};

QTEST_GUILESS_MAIN(TestDatasetRuns)
#include "tst_datasetruns.moc"
