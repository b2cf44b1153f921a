// Writes one large run through RunWriter into a fresh project file and reads it back:
//   store_scale [requests=1000000] [chunks-per-request=100] [--keep <file>]
//   store_scale --read <file>   (reads run 1 of a kept file: the read half alone)
// Prints write throughput, file size per request and per chunk, and the time to open the file
// and load every request. The producer holds back when the writer's queue passes 50,000
// records, as a live run's memory would have to.

#include "common/clock.h"
#include "metrics/requestrecord.h"
#include "metrics/summary.h"
#include "report/runreport.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <cstdio>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

RequestRecord makeRecord(qint64 i, int chunks, QRandomGenerator &rng)
{
    RequestRecord r;
    r.index = i;
    r.datasetItem = qint32(i % 10000);
    r.requestId = u"sb-%1"_s.arg(i);
    r.tSched = 1'000'000'000'000 + i * 1'000'000;
    r.tQueued = r.tSched;
    r.tSend = r.tSched + qint64(rng.bounded(200'000));
    // Real CLOCK_MONOTONIC readings: nanosecond resolution, 80 ms TTFT, ~12 ms ITL with jitter.
    qint64 t = r.tSend + 80'000'000 + qint64(rng.bounded(40'000'000));
    r.chunkTimes.reserve(chunks);
    r.chunkTokens.reserve(chunks);
    for (int c = 0; c < chunks; ++c) {
        r.chunkTimes.append(t);
        r.chunkTokens.append(1);
        t += 10'000'000 + qint64(rng.bounded(5'000'000));
    }
    r.tFirst = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.first();
    r.tLast = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.last();
    r.tEnd = r.tLast + 100'000;
    r.inputTokens = 512;
    r.outputTokens = chunks;
    r.inputSource = TokenSource::ServerUsage;
    r.outputSource = TokenSource::ServerUsage;
    r.expectedInputTokens = 512;
    r.expectedOutputTokens = chunks;
    r.httpStatus = 200;
    r.finishReason = u"length"_s;
    r.outputChars = chunks * 4;
    return r;
}

void print(const char *label, const QString &value)
{
    std::printf("%-40s%s\n", label, value.toUtf8().constData());
    std::fflush(stdout);
}

// Opens the file, streams every request of the run, then loads them into a list and
// summarizes them: what `show` does.
int readBack(const QString &path, qint64 runId, qint64 expectRequests, qint64 expectChunks)
{
    QElapsedTimer timer, total;
    timer.start();
    total.start();
    ProjectStore store;
    if (!store.open(path)) {
        std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
        return 1;
    }
    print("Open time (ms):", QString::number(timer.nsecsElapsed() / 1e6, 'f', 1));
    timer.restart();
    qint64 visited = 0, visitedChunks = 0;
    store.visitRequests(runId, [&](const RequestRecord &r) {
        ++visited;
        visitedChunks += r.chunkTimes.size();
        return true;
    });
    print("Stream all requests (s):", QString::number(timer.nsecsElapsed() / 1e9, 'f', 2));
    // What `servebench-cli show` does: two streamed passes, records kept without their chunks.
    timer.restart();
    RunReportInput in;
    QString error;
    if (!loadStoredRunForReport(store, runId, SummaryOptions(), &in, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    print("Streamed summary, 2 passes (s):", QString::number(timer.nsecsElapsed() / 1e9, 'f', 2));
    const RunSummary streamed = *in.summary;
    in = RunReportInput(); // its memory back before the list is loaded
    total.restart();
    timer.restart();
    const QList<RequestRecord> all = store.loadRequests(runId);
    const double loadS = timer.nsecsElapsed() / 1e9;
    print("Load all requests into a list (s):", QString::number(loadS, 'f', 2));
    print("Load throughput (req/s):", QString::number(all.size() / loadS, 'f', 0));
    timer.restart();
    const RunSummary summary = summarize(all);
    print("Summarize (s):", QString::number(timer.nsecsElapsed() / 1e9, 'f', 2));
    print("Load + summarize (s):", QString::number(total.nsecsElapsed() / 1e9, 'f', 2));
    print("Completed requests:", QString::number(summary.completed));
    if (streamed.completed != summary.completed ||
        streamed.itl.percentile(99) != summary.itl.percentile(99)) {
        std::fprintf(stderr, "the streamed summary differs from the loaded one\n");
        return 1;
    }
    if (expectRequests >= 0 && (all.size() != expectRequests || visited != expectRequests ||
                                visitedChunks != expectChunks)) {
        std::fprintf(stderr, "read back %lld / %lld records, expected %lld\n", qint64(all.size()),
                     visited, expectRequests);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    if (const qsizetype k = args.indexOf(u"--read"_s); k >= 0 && k + 1 < args.size())
        return readBack(args[k + 1], 1, -1, -1);
    QString keep;
    if (const qsizetype k = args.indexOf(u"--keep"_s); k >= 0 && k + 1 < args.size()) {
        keep = args[k + 1];
        args.remove(k, 2);
    }
    const qint64 requests = args.value(0, u"1000000"_s).toLongLong();
    const int chunks = args.value(1, u"100"_s).toInt();
    QTemporaryDir dir;
    const QString path = keep.isEmpty() ? dir.filePath(u"scale.sbproj"_s) : keep;

    {
        ProjectStore store;
        if (!store.open(path)) {
            std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
            return 1;
        }
    }
    RunWriter writer;
    QString error;
    if (!writer.open(path, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const qint64 runId = writer.beginRun(QJsonObject{{u"name"_s, u"scale"_s}}, RunInfo{}, &error);
    QRandomGenerator rng(1);
    qint64 peakQueue = 0, producerWaits = 0;
    QElapsedTimer timer;
    timer.start();
    for (qint64 i = 0; i < requests; ++i) {
        writer.append(makeRecord(i, chunks, rng));
        if (i % 1024 == 0) {
            const qint64 q = writer.queuedCount();
            peakQueue = qMax(peakQueue, q);
            while (writer.queuedCount() > 50'000) {
                ++producerWaits;
                QThread::msleep(5);
            }
            if (writer.hasFailed())
                break;
        }
    }
    if (!writer.finishRun(StoredRunStatus::Completed, {}, {}, {}, 0, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const double writeS = timer.nsecsElapsed() / 1e9;
    const qint64 batches = writer.batchesCommitted();
    writer.close();

    const qint64 totalChunks = requests * chunks;
    const qint64 bytes = QFileInfo(path).size();
    qint64 blobBytes = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"stats"_s);
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        if (q.exec(u"SELECT sum(length(chunks)) FROM requests"_s) && q.next())
            blobBytes = q.value(0).toLongLong();
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(u"stats"_s);

    print("Requests written:", QString::number(requests));
    print("Chunks written:", QString::number(totalChunks));
    print("Write time (s):", QString::number(writeS, 'f', 2));
    print("Write throughput (req/s):", QString::number(requests / writeS, 'f', 0));
    print("Write throughput (chunks/s):", QString::number(totalChunks / writeS, 'f', 0));
    print("Batches committed:", QString::number(batches));
    print("Peak writer queue (records):", QString::number(peakQueue));
    print("Producer back-pressure waits:", QString::number(producerWaits));
    print("File size (MB):", QString::number(bytes / 1e6, 'f', 1));
    print("File bytes per request:", QString::number(double(bytes) / requests, 'f', 1));
    print("File bytes per chunk:",
          QString::number(double(bytes) / qMax<qint64>(1, totalChunks), 'f', 2));
    print("Blob bytes per chunk:",
          QString::number(double(blobBytes) / qMax<qint64>(1, totalChunks), 'f', 2));

    return readBack(path, runId, requests, totalChunks);
}
