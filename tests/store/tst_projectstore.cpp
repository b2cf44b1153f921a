#include "recordfactory.h"
#include "store/projectfile.h"
#include "store/projectschema.h"
#include "store/projectstore.h"
#include "store/requestrows.h"
#include "store/runwriter.h"

#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Raw SQL on a file, bypassing the store: builds the files the store must refuse.
void rawSql(const QString &path, const QStringList &statements)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"raw"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        for (const QString &s : statements) {
            QSqlQuery q(db);
            QVERIFY2(q.exec(s), qPrintable(s));
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(u"raw"_s);
}

QVariant rawValue(const QString &path, const QString &sql)
{
    QVariant v;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"rawv"_s);
        db.setDatabaseName(path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                v = q.value(0);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(u"rawv"_s);
    return v;
}

qint64 writeRun(const QString &path, qint64 requests, qint64 sutId = 0)
{
    RunWriter w;
    QString error;
    if (!w.open(path, &error)) {
        qWarning() << error;
        return 0;
    }
    RunInfo meta;
    meta.name = u"r"_s;
    meta.sutId = sutId;
    meta.metricDefinitionsVersion = u"1"_s;
    const qint64 id = w.beginRun(QJsonObject{{u"name"_s, u"r"_s}}, meta, &error);
    for (qint64 i = 0; i < requests; ++i)
        w.append(testing::makeRecord(i));
    if (!w.finishRun(StoredRunStatus::Completed, QJsonObject{{u"ok"_s, true}}, {}, {}, 0, &error))
        qWarning() << error;
    return id;
}

} // namespace

class TestProjectStore : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_serial = 0;
    QString freshPath() { return m_dir.filePath(u"p%1.sbproj"_s.arg(++m_serial)); }

private slots:
    // A project path in a folder that does not exist says so (it used to say "not writable").
    void missingFolderIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"no/such/folder/p.sbproj"_s);
        ProjectStore store;
        QVERIFY(!store.open(path));
        QVERIFY2(store.lastError().contains(u"does not exist"_s), qPrintable(store.lastError()));
        QVERIFY2(store.lastError().contains(dir.filePath(u"no/such/folder"_s)),
                 qPrintable(store.lastError()));
    }

    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void newFileIsAStampedProject()
    {
        const QString path = freshPath();
        {
            ProjectStore s;
            QVERIFY2(s.open(path), qPrintable(s.lastError()));
            QCOMPARE(s.schemaVersion(), ProjectSchema::currentVersion());
            QCOMPARE(s.migratedFrom(), 0);
            QCOMPARE(s.openState(), ProjectFile::State::Missing);
        }
        QCOMPARE(rawValue(path, u"PRAGMA application_id"_s).toInt(), ProjectSchema::applicationId);
        QCOMPARE(rawValue(path, u"PRAGMA user_version"_s).toInt(), ProjectSchema::currentVersion());
        QCOMPARE(rawValue(path, u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
        const ProjectFile::Probe p = ProjectFile::probe(path);
        QCOMPARE(p.state, ProjectFile::State::Project);
        QCOMPARE(p.version, ProjectSchema::currentVersion());
    }

    void emptyFileMigratesFromVersion0()
    {
        const QString path = freshPath();
        QVERIFY(writeBytes(path, {}));
        ProjectStore s;
        QVERIFY2(s.open(path), qPrintable(s.lastError()));
        QCOMPARE(s.openState(), ProjectFile::State::Empty);
        QCOMPARE(s.migratedFrom(), 0);
        QCOMPARE(s.schemaVersion(), ProjectSchema::currentVersion());
        QVERIFY(s.integrityCheck());
        QVERIFY2(s.saveSut(StoredSut{0, SutConfig{.name = u"a"_s}, {}, {}}) > 0,
                 qPrintable(s.lastError()));
    }

    void migratesASyntheticVersion1File()
    {
        const QString path = freshPath();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"v1"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QString error;
            QVERIFY2(ProjectSchema::migrate(db, 0, 1, &error), qPrintable(error));
            QSqlQuery q(db);
            QVERIFY(q.exec(u"INSERT INTO runs (id, status, snapshot_json, tool_version, host, "
                           "metric_definitions_version, started_utc, started_mono_ns) VALUES "
                           "(7, 'completed', '{}', '0.0.1', 'h', '1', "
                           "'2025-01-01T00:00:00.000Z', 1)"_s));
            QSqlQuery ins(db);
            QVERIFY(ins.prepare(RequestRows::insertSql(1)));
            RequestRows::bind(ins, 7, testing::makeRecord(3), 1);
            QVERIFY(ins.exec());
            db.close();
        }
        QSqlDatabase::removeDatabase(u"v1"_s);
        QCOMPARE(ProjectFile::probe(path).version, 1);

        ProjectStore s;
        QVERIFY2(s.open(path), qPrintable(s.lastError()));
        QCOMPARE(s.migratedFrom(), 1);
        QCOMPARE(s.schemaVersion(), ProjectSchema::currentVersion());
        const auto records = s.loadRequests(7);
        QCOMPARE(records.size(), 1);
        QCOMPARE(testing::recordDifference(
                     records[0], testing::withoutConnectionPhases(testing::makeRecord(3))),
                 QString());
        s.close();
        QCOMPARE(rawValue(path, u"SELECT count(*) FROM sqlite_schema WHERE name = 'runs_by_sut'"_s)
                     .toInt(),
                 1);
    }

    void migratesTheStoredVersion1Fixture()
    {
        // A real file written by the v1 schema (store_crash_child make-v1), kept in the repo.
        const QString path = freshPath();
        QVERIFY(QFile::copy(QStringLiteral(SB_STORE_FIXTURE_DIR "/project_v1.sbproj"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(ProjectFile::probe(path).version, 1);
        ProjectStore s;
        QVERIFY2(s.open(path), qPrintable(s.lastError()));
        QCOMPARE(s.migratedFrom(), 1);
        QCOMPARE(s.schemaVersion(), ProjectSchema::currentVersion());
        QVERIFY(s.integrityCheck());
        const auto suts = s.listSuts();
        QCOMPARE(suts.size(), 1);
        QCOMPARE(suts[0].config.name, u"v1-sut"_s);
        const auto runs = s.listRuns();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].status, StoredRunStatus::Completed);
        QCOMPARE(runs[0].requestCount, 40);
        QCOMPARE(runs[0].sutId, suts[0].id);
        const auto records = s.loadRequests(runs[0].id);
        QCOMPARE(records.size(), 40);
        for (const RequestRecord &r : records)
            QCOMPARE(testing::recordDifference(
                         r, testing::withoutConnectionPhases(testing::makeRecord(r.index))),
                     QString());
        // The migrated file takes new runs.
        s.close();
        QVERIFY(writeRun(path, 5) > 0);
        QVERIFY(s.open(path));
        QCOMPARE(s.listRuns().size(), 2);
    }

    void readOnlyViewOfVersion1FileHasNoConnectionPhases()
    {
        // A read-only open does not migrate: the columns added later read as "not recorded".
        const QString path = freshPath();
        QVERIFY(QFile::copy(QStringLiteral(SB_STORE_FIXTURE_DIR "/project_v1.sbproj"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        ProjectStore s;
        QVERIFY2(s.open(path, ProjectStore::OpenMode::ReadOnly), qPrintable(s.lastError()));
        QCOMPARE(s.schemaVersion(), 1);
        const auto runs = s.listRuns();
        QCOMPARE(runs.size(), 1);
        const auto records = s.loadRequests(runs[0].id);
        QCOMPARE(records.size(), 40);
        for (const RequestRecord &r : records)
            QCOMPARE(testing::recordDifference(
                         r, testing::withoutConnectionPhases(testing::makeRecord(r.index))),
                     QString());
    }

    void entitiesRoundTrip()
    {
        ProjectStore s;
        QVERIFY(s.open(freshPath()));

        StoredSut sut;
        sut.config.name = u"vllm-h100"_s;
        sut.config.baseUrl = u"http://10.0.0.1:8000"_s;
        sut.config.model = u"llama"_s;
        sut.config.engine = u"vllm"_s;
        sut.config.gpuModel = u"H100"_s;
        sut.config.gpuCount = 8;
        sut.config.flavour = ApiFlavour::Chat;
        sut.config.apiKeyRef = u"env:KEY"_s;
        sut.config.extraHeaders = {{u"X-Team"_s, u"perf"_s},
                                   {u"Authorization"_s, u"Bearer sk-verysecret"_s}};
        sut.id = s.saveSut(sut);
        QVERIFY2(sut.id > 0, qPrintable(s.lastError()));
        auto loaded = s.loadSut(sut.id);
        QVERIFY(loaded);
        QCOMPARE(loaded->config.toJson(), scrubSecrets(sut.config.toJson()));
        QCOMPARE(loaded->config.apiKeyRef, u"env:KEY"_s);
        QVERIFY(loaded->createdUtc.isValid());
        sut.config.gpuCount = 4;
        QCOMPARE(s.saveSut(sut), sut.id);
        QCOMPARE(s.loadSut(sut.id)->config.gpuCount, 4);
        QCOMPARE(s.listSuts().size(), 1);
        QCOMPARE(s.saveSut(StoredSut{0, sut.config, {}, {}}), 0); // names are unique
        QVERIFY(s.lastError().contains(u"UNIQUE"_s, Qt::CaseInsensitive));

        StoredDataset ds;
        ds.name = u"sharegpt-v3"_s;
        ds.contentHash = u"abc123"_s;
        ds.spec.kind = DatasetKind::ShareGpt;
        ds.spec.path = u"/data/sg.json"_s;
        ds.spec.versionLabel = u"v3"_s;
        ds.id = s.saveDataset(ds);
        QVERIFY(ds.id > 0);
        auto d = s.loadDataset(ds.id);
        QVERIFY(d);
        QCOMPARE(d->name, ds.name);
        QCOMPARE(d->contentHash, ds.contentHash);
        QCOMPARE(d->spec.toJson(), ds.spec.toJson());

        StoredLoadProfile lp;
        lp.name = u"server-10"_s;
        lp.profile.scenario = Scenario::Server;
        lp.profile.requestRate = 10;
        lp.profile.seed = 42;
        lp.params.ignoreEos = true;
        lp.params.temperature = 0.7;
        lp.params.seed = 9;
        lp.params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
        lp.id = s.saveLoadProfile(lp);
        QVERIFY(lp.id > 0);
        auto p = s.loadLoadProfile(lp.id);
        QVERIFY(p);
        QCOMPARE(p->profile.toJson(), lp.profile.toJson());
        QCOMPARE(p->params.toJson(), lp.params.toJson());
        QCOMPARE(p->params.temperature, 0.7);

        StoredSweep sw{0, u"rates"_s, u"rate-sweep"_s, QJsonObject{{u"rates"_s, 3}}, {}};
        sw.id = s.saveSweep(sw);
        QVERIFY(sw.id > 0);
        QCOMPARE(s.listSweeps().value(0).config, sw.config);

        // Runs of the sweep, written out of order, listed in sweep order.
        s.close();
        for (int pos : {1, 0}) {
            RunWriter w;
            QVERIFY(w.open(s.path()));
            RunInfo meta;
            meta.name = u"rate %1"_s.arg(pos);
            meta.sutId = sut.id;
            meta.datasetId = ds.id;
            meta.profileId = lp.id;
            meta.sweepId = sw.id;
            meta.sweepPosition = pos;
            meta.metricDefinitionsVersion = u"2"_s;
            meta.host = u"bench-host"_s;
            meta.startedMonoNs = 1234 + pos;
            QVERIFY(w.beginRun(QJsonObject{{u"p"_s, pos}}, meta) > 0);
            w.append(testing::makeRecord(0));
            QVERIFY(w.finishRun(StoredRunStatus::Completed, QJsonObject{{u"n"_s, 1}}, {},
                                QDateTime(QDate(2025, 2, 3), QTime(4, 5, 6, 789), Qt::UTC), 99));
        }
        QVERIFY(s.open(s.path()));
        const auto sweepRuns = s.listRuns(sw.id);
        QCOMPARE(sweepRuns.size(), 2);
        QCOMPARE(sweepRuns[0].sweepPosition, 0);
        QCOMPARE(sweepRuns[1].sweepPosition, 1);
        const auto run = s.loadRun(sweepRuns[0].id);
        QVERIFY(run);
        QCOMPARE(run->name, u"rate 0"_s);
        QCOMPARE(run->sutId, sut.id);
        QCOMPARE(run->datasetId, ds.id);
        QCOMPARE(run->profileId, lp.id);
        QCOMPARE(run->host, u"bench-host"_s);
        QCOMPARE(run->metricDefinitionsVersion, u"2"_s);
        QCOMPARE(run->toolVersion, QString::fromLatin1(SERVEBENCH_VERSION));
        QCOMPARE(run->startedMonoNs, 1234);
        QCOMPARE(run->endedMonoNs, 99);
        QCOMPARE(run->endedUtc, QDateTime(QDate(2025, 2, 3), QTime(4, 5, 6, 789), Qt::UTC));
        QVERIFY(run->startedUtc.isValid());
        QCOMPARE(run->snapshot, (QJsonObject{{u"p"_s, 0}}));
        QCOMPARE(run->summary, (QJsonObject{{u"n"_s, 1}}));
        QCOMPARE(run->requestCount, 1);
        QVERIFY(s.listRuns().value(0).snapshot.isEmpty()); // listRuns stays light

        BillItemRow b;
        b.category = u"gpu"_s;
        b.provider = u"cloud"_s;
        b.resourceId = u"node-1"_s;
        b.startUtc = QDateTime(QDate(2025, 2, 3), QTime(0, 0), Qt::UTC);
        b.endUtc = b.startUtc.addSecs(3600);
        b.amountMinor = 98765;
        b.amountScale = 4;
        b.currency = u"USD"_s;
        b.billingUnit = u"hour"_s;
        b.minIncrementS = 60;
        b.notes = u"idle 5 min"_s;
        b.source = u"invoice"_s;
        b.reference = u"INV-1"_s;
        b.confirmed = true;
        b.amountKind = u"rate"_s;
        b.details = QJsonObject{{u"quantity"_s, u"8"_s}, {u"min_increment_unit"_s, u"second"_s}};
        b.id = s.saveBillItem(b);
        QVERIFY2(b.id > 0, qPrintable(s.lastError()));
        const BillItemRow lb = s.listBillItems().value(0);
        QCOMPARE(lb.id, b.id);
        QCOMPARE(lb.category, b.category);
        QCOMPARE(lb.provider, b.provider);
        QCOMPARE(lb.resourceId, b.resourceId);
        QCOMPARE(lb.startUtc, b.startUtc);
        QCOMPARE(lb.endUtc, b.endUtc);
        QCOMPARE(lb.amountMinor, b.amountMinor);
        QCOMPARE(lb.amountScale, 4);
        QCOMPARE(lb.currency, b.currency);
        QCOMPARE(lb.billingUnit, b.billingUnit);
        QCOMPARE(lb.minIncrementS, b.minIncrementS);
        QCOMPARE(lb.notes, b.notes);
        QCOMPARE(lb.source, b.source);
        QCOMPARE(lb.reference, b.reference);
        QCOMPARE(lb.confirmed, true);
        QCOMPARE(lb.amountKind, u"rate"_s);
        QCOMPARE(lb.details, b.details);
        BillItemRow bad = b;
        bad.id = 0;
        bad.category = u"snacks"_s;
        QCOMPARE(s.saveBillItem(bad), 0); // categories are checked by the schema
        QCOMPARE(s.listBillItems().size(), 1);

        TestWindowRow w;
        w.name = u"window"_s;
        w.sutId = sut.id;
        w.startUtc = b.startUtc;
        w.endUtc = b.endUtc;
        w.runIds = {qMin(sweepRuns[0].id, sweepRuns[1].id), qMax(sweepRuns[0].id, sweepRuns[1].id)};
        w.billRules = {{b.id, u"whole"_s}};
        w.id = s.saveTestWindow(w);
        QVERIFY2(w.id > 0, qPrintable(s.lastError()));
        auto lw = s.loadTestWindow(w.id);
        QVERIFY(lw);
        QCOMPARE(lw->name, w.name);
        QCOMPARE(lw->sutId, sut.id);
        QCOMPARE(lw->startUtc, w.startUtc);
        QCOMPARE(lw->endUtc, w.endUtc);
        QCOMPARE(lw->runIds, w.runIds);
        QCOMPARE(lw->billRules.size(), 1);
        QCOMPARE(lw->billRules[0].rule, u"whole"_s);
        w.runIds = {sweepRuns[1].id};
        w.billRules = {{b.id, u"prorate"_s}};
        QCOMPARE(s.saveTestWindow(w), w.id);
        QCOMPARE(s.loadTestWindow(w.id)->runIds, w.runIds);
        QCOMPARE(s.loadTestWindow(w.id)->billRules[0].rule, u"prorate"_s);
        w.runIds = {424242}; // foreign keys are on: an unknown run is refused, nothing changes
        QCOMPARE(s.saveTestWindow(w), 0);
        QCOMPARE(s.loadTestWindow(w.id)->runIds, QList<qint64>{sweepRuns[1].id});

        // Deleting a run removes its requests and its window links.
        QVERIFY(s.deleteRun(sweepRuns[1].id));
        QVERIFY(s.loadTestWindow(w.id)->runIds.isEmpty());
        QVERIFY(s.loadRequests(sweepRuns[1].id).isEmpty());
        QVERIFY(!s.loadRun(sweepRuns[1].id));
        QVERIFY(s.deleteTestWindow(w.id));
        QVERIFY(s.deleteBillItem(b.id));
        QVERIFY(s.deleteSweep(sw.id));
        QCOMPARE(s.loadRun(sweepRuns[0].id)->sweepId, 0); // unlinked, kept
        QVERIFY(s.deleteSut(sut.id));
        QVERIFY(s.deleteDataset(ds.id));
        QVERIFY(s.deleteLoadProfile(lp.id));
        QVERIFY(!s.deleteSut(sut.id));
        QVERIFY(s.integrityCheck());
    }

    void visitorStreamsAndStops()
    {
        const QString path = freshPath();
        {
            ProjectStore s;
            QVERIFY(s.open(path));
        }
        const qint64 run = writeRun(path, 300);
        ProjectStore s;
        QVERIFY(s.open(path));
        qint64 seen = 0;
        QVERIFY(s.visitRequests(run, [&](const RequestRecord &r) {
            if (r.index != seen)
                return false;
            return ++seen < 100;
        }));
        QCOMPARE(seen, 100);
    }

    void noColumnCanHoldASecret()
    {
        const QString path = freshPath();
        {
            ProjectStore s;
            QVERIFY(s.open(path));
        }
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"cols"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(u"SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p "
                       "WHERE m.type = 'table'"_s));
        int columns = 0;
        while (q.next()) {
            ++columns;
            QVERIFY2(!looksLikeSecretKey(q.value(1).toString()),
                     qPrintable(q.value(0).toString() + u"."_s + q.value(1).toString()));
        }
        QVERIFY(columns > 50);
        q = QSqlQuery();
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(u"cols"_s);
    }

    void secretsNeverReachTheFile()
    {
        const QString path = freshPath();
        {
            ProjectStore s;
            QVERIFY(s.open(path));
            StoredSut sut;
            sut.config.name = u"s"_s;
            sut.config.extraHeaders = {{u"X-Api-Key"_s, u"sk-leak-1"_s}};
            QVERIFY2(s.saveSut(sut) > 0, qPrintable(s.lastError()));
        }
        RunWriter w;
        QVERIFY(w.open(path));
        QVERIFY(w.beginRun(
                    QJsonObject{{u"sut"_s,
                                 QJsonObject{{u"headers"_s, QJsonObject{{u"Authorization"_s,
                                                                         u"Bearer sk-leak-2"_s}}}}},
                                {u"api_key"_s, u"sk-leak-3"_s}},
                    RunInfo{}) > 0);
        QVERIFY(w.finishRun(StoredRunStatus::Completed, {}));
        w.close();
        const QByteArray bytes = fileBytes(path) + fileBytes(path + u"-wal"_s);
        QVERIFY(!bytes.isEmpty());
        for (const char *leak : {"sk-leak-1", "sk-leak-2", "sk-leak-3"})
            QVERIFY2(!bytes.contains(leak), leak);
    }

    void refusesWithoutTouching_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("says");
        QTest::newRow("newer") << u"newer"_s << int(ProjectFile::State::Newer) << u"newer"_s;
        QTest::newRow("foreign sqlite")
            << u"foreign"_s << int(ProjectFile::State::Foreign) << u"not a ServeBench project"_s;
        QTest::newRow("other application id")
            << u"otherapp"_s << int(ProjectFile::State::Foreign) << u"another application"_s;
        QTest::newRow("truncated")
            << u"truncated"_s << int(ProjectFile::State::Corrupt) << u"truncated"_s;
        QTest::newRow("header only")
            << u"header"_s << int(ProjectFile::State::Corrupt) << u"truncated"_s;
        QTest::newRow("text file")
            << u"text"_s << int(ProjectFile::State::Corrupt) << u"not an SQLite database"_s;
        QTest::newRow("damaged page")
            << u"damaged"_s << int(ProjectFile::State::Corrupt) << u"damaged"_s;
    }

    void refusesWithoutTouching()
    {
        QFETCH(QString, kind);
        QFETCH(int, state);
        QFETCH(QString, says);
        const QString path = freshPath();
        if (kind == "newer"_L1 || kind == "truncated"_L1 || kind == "header"_L1 ||
            kind == "damaged"_L1) {
            {
                ProjectStore s;
                QVERIFY(s.open(path));
            }
            QVERIFY(writeRun(path, 2000) > 0);
        }
        if (kind == "newer"_L1) {
            rawSql(path, {u"PRAGMA user_version = %1"_s.arg(ProjectSchema::currentVersion() + 1),
                          u"CREATE TABLE from_the_future(x)"_s});
        } else if (kind == "foreign"_L1) {
            rawSql(path,
                   {u"CREATE TABLE contacts(name TEXT)"_s, u"INSERT INTO contacts VALUES ('x')"_s});
        } else if (kind == "otherapp"_L1) {
            rawSql(path, {u"PRAGMA application_id = 1234"_s, u"CREATE TABLE t(x)"_s});
        } else if (kind == "truncated"_L1) {
            const QByteArray all = fileBytes(path);
            QVERIFY(all.size() > 8192);
            QVERIFY(writeBytes(path, all.left(all.size() / 2)));
        } else if (kind == "header"_L1) {
            QVERIFY(writeBytes(path, fileBytes(path).left(100)));
        } else if (kind == "text"_L1) {
            QVERIFY(writeBytes(path, "name,value\nnot,a database\n"));
        } else if (kind == "damaged"_L1) {
            // The schema page overwritten: right size, right magic, unreadable content.
            QByteArray all = fileBytes(path);
            for (int i = 100; i < 4096; ++i)
                all[i] = char(0xA5);
            QVERIFY(writeBytes(path, all));
        }
        QVERIFY(!QFile::exists(path + u"-wal"_s));
        const QByteArray before = fileBytes(path);
        QVERIFY(!before.isEmpty());

        for (auto mode : {ProjectStore::OpenMode::ReadWrite, ProjectStore::OpenMode::ReadOnly}) {
            ProjectStore s;
            QVERIFY(!s.open(path, mode));
            QCOMPARE(int(s.openState()), state);
            QVERIFY2(s.lastError().contains(says, Qt::CaseInsensitive), qPrintable(s.lastError()));
            QVERIFY(s.lastError().contains(QFileInfo(path).fileName()));
            QVERIFY(!s.isOpen());
        }
        RunWriter w;
        QString error;
        QVERIFY(!w.open(path, &error));
        QVERIFY(!error.isEmpty());

        QCOMPARE(fileBytes(path), before);
        QVERIFY(!QFile::exists(path + u"-wal"_s));
        QVERIFY(!QFile::exists(path + u"-shm"_s));
    }

    void readOnlyModeReadsAndRefusesWrites()
    {
        const QString path = freshPath();
        {
            ProjectStore s;
            QVERIFY(s.open(path));
        }
        const qint64 run = writeRun(path, 50);
        const QByteArray before = fileBytes(path);
        ProjectStore s;
        QVERIFY2(s.open(path, ProjectStore::OpenMode::ReadOnly), qPrintable(s.lastError()));
        QVERIFY(s.isReadOnly());
        QCOMPARE(s.loadRequests(run).size(), 50);
        QCOMPARE(s.saveSut(StoredSut{0, SutConfig{.name = u"x"_s}, {}, {}}), 0);
        QVERIFY(s.lastError().contains(u"read-only"_s));
        s.close();
        QCOMPARE(fileBytes(path), before);
    }

    void readOnlyFileIsRefusedForWriting()
    {
        // File permissions bind only non-root users; the helper drops to "nobody" when we are
        // root, so the check is real either way.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile::setPermissions(dir.path(), QFileDevice::Permissions(0x7777));
        const QString path = dir.filePath(u"ro.sbproj"_s);
        {
            ProjectStore s;
            QVERIFY(s.open(path));
        }
        QVERIFY(writeRun(path, 10) > 0);
        QVERIFY(
            QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const QByteArray before = fileBytes(path);

        auto runChild = [&](const QString &mode) {
            QProcess p;
            p.start(QStringLiteral(SB_STORE_CRASH_CHILD),
                    {u"open"_s, path, mode, u"--as-nobody"_s});
            [&] {
                QVERIFY(p.waitForFinished(30000));
            }();
            return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        };
        const QString rw = runChild(u"rw"_s);
        QVERIFY2(rw.startsWith(u"refused "_s) && rw.contains(u"read-only"_s), qPrintable(rw));
        QCOMPARE(fileBytes(path), before);

        // It still opens for reading (with the folder writable it may gain side files, never
        // a changed main file).
        const QString ro = runChild(u"ro"_s);
        QCOMPARE(ro, u"ok 1"_s);
        QCOMPARE(fileBytes(path), before);
    }
};

QTEST_GUILESS_MAIN(TestProjectStore)
#include "tst_projectstore.moc"
