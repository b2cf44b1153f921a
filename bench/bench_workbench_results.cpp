// The workbench's Results view of a large stored run, as a user gets it: the real main window
// opens a project file, the run is selected in the project tree, and the bench times what the
// window shows and when, with the process's memory.
//
//   bench_workbench_results <project file> [runs=3]
//
// Make the file with `store_scale 1000000 100 --keep FILE` (a million requests of 100 chunks).
// Per run, in a fresh process state (a new main window), from the click on the run:
//   table      the request table shows its first screenful of rows (read from the file)
//   summary    the summary table is filled (the run's statistics, derived from the records)
//   charts     the charts are drawn (the last stage)
//   sorted     after the charts: the table sorted by TTFT, descending (a header click)
//   rss        the process's peak resident memory (VmHWM) and its resident memory at the end
//   gui p99    the GUI thread's responsiveness: gaps between ticks of a 5 ms timer, p99 and max
//              (a gap of g ms means no event was handled for about g − 5 ms)
// QT_QPA_PLATFORM defaults to offscreen.
#include "benchutil.h"

#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "models/requesttablemodel.h"
#include "projectdocument.h"
#include "projecttreemodel.h"
#include "resultsview.h"
#include "settings.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

using namespace bench;
using namespace sb;
using namespace Qt::StringLiterals;

namespace {

double vmKb(const char *key)
{
    QFile f(u"/proc/self/status"_s);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(qstrlen(key)).trimmed().split(' ').value(0).toDouble();
    return 0;
}

QModelIndex findRun(const ProjectTreeModel *m, const QModelIndex &parent)
{
    for (int r = 0; r < m->rowCount(parent); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (m->kindAt(i) == EntityKind::Run)
            return i;
        const QModelIndex inner = findRun(m, i);
        if (inner.isValid())
            return inner;
    }
    return {};
}

// Runs the event loop until `done` holds or the deadline passes; true when it held. The loop
// blocks between checks (every 10 ms): a spinning wait would take a core from the worker.
bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    loop.exec();
    return done();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_workbench_results <project file> [runs=3]\n");
        return 2;
    }
    const QString project = QString::fromLocal8Bit(argv[1]);
    const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
    printHost();
    std::printf("# platform %s, project %s\n", qPrintable(QGuiApplication::platformName()),
                qPrintable(project));
    std::printf("# %3s %5s | %8s %8s %8s %8s | %8s %8s | %8s %8s | %s\n", "run", "load", "table s",
                "summ. s", "charts s", "sorted s", "peak MB", "end MB", "gui p99", "gui max",
                "requests");
    std::vector<double> f[8];
    for (int run = 0; run < runs; ++run) {
        QTemporaryDir dir;
        Settings settings(dir.filePath(u"settings.ini"_s));
        ApiKeyStore keys(new KeychainUnavailableBackend);
        MainWindow w(&settings, &keys);
        w.resize(1600, 1000);
        w.show();
        if (!w.openProject(project)) {
            std::fprintf(stderr, "cannot open %s\n", qPrintable(project));
            return 1;
        }
        auto *tree = w.findChild<QTreeView *>();
        auto *view = w.findChild<ResultsView *>();
        const QModelIndex runIndex = findRun(w.treeModel(), {});
        if (!tree || !view || !runIndex.isValid()) {
            std::fprintf(stderr, "no run in %s\n", qPrintable(project));
            return 1;
        }
        const double load = loadAverage();

        std::vector<double> gaps;
        QElapsedTimer tick;
        QTimer meter;
        meter.setTimerType(Qt::PreciseTimer);
        meter.setInterval(5);
        QElapsedTimer since;
        QObject::connect(&meter, &QTimer::timeout, &meter, [&] {
            const double gap = double(tick.nsecsElapsed()) / 1e6;
            gaps.push_back(gap);
            tick.restart();
            // SB_BENCH_DUMP_STALLS=1: when each gap over 16 ms ended, to set beside the stages.
            if (gap > 16 && qEnvironmentVariableIsSet("SB_BENCH_DUMP_STALLS"))
                std::printf("#   gap %.1f ms ending at %.3f s\n", gap,
                            double(since.nsecsElapsed()) / 1e9);
        });
        bool summary = false, charts = false, ordered = false;
        const auto stage = [&since](const char *name) {
            if (qEnvironmentVariableIsSet("SB_BENCH_DUMP_STALLS"))
                std::printf("#   %s at %.3f s\n", name, double(since.nsecsElapsed()) / 1e9);
        };
        QObject::connect(view, &ResultsView::requestsShown, view, [&] { stage("requests"); });
        QObject::connect(view, &ResultsView::summaryShown, view, [&] {
            summary = true;
            stage("summary");
        });
        QObject::connect(view, &ResultsView::chartsShown, view, [&] {
            charts = true;
            stage("charts");
        });
        QObject::connect(view, &ResultsView::requestOrderShown, view, [&] {
            ordered = true;
            stage("order");
        });

        QElapsedTimer clock;
        clock.start();
        since.start();
        tick.start();
        meter.start();
        tree->setCurrentIndex(runIndex); // the click
        QTableView *table = view->requestTable();
        const auto firstRowShown = [&] {
            const QAbstractItemModel *m = table->model();
            return m->rowCount() > 0 && m->index(0, RequestTableModel::TtftColumn).data().isValid();
        };
        view->tabs()->setCurrentIndex(1); // the Requests tab: its rows are painted
        waitFor(firstRowShown, 120000);
        const double tTable = double(clock.nsecsElapsed()) / 1e9;
        waitFor([&] { return summary; }, 300000);
        const double tSummary = double(clock.nsecsElapsed()) / 1e9;
        waitFor([&] { return charts; }, 300000);
        const double tCharts = double(clock.nsecsElapsed()) / 1e9;
        QElapsedTimer sortClock;
        sortClock.start();
        table->sortByColumn(RequestTableModel::TtftColumn, Qt::DescendingOrder);
        waitFor([&] { return ordered && firstRowShown(); }, 300000);
        const double tSorted = double(sortClock.nsecsElapsed()) / 1e9;
        meter.stop();
        const double peakMb = vmKb("VmHWM:") / 1024;
        const double endMb = vmKb("VmRSS:") / 1024;
        std::vector<double> g = gaps;
        const double p99 = percentile(g, 99);
        const double mx = g.empty() ? 0 : *std::max_element(g.begin(), g.end());
        const double vals[8] = {tTable, tSummary, tCharts, tSorted, peakMb, endMb, p99, mx};
        for (int i = 0; i < 8; ++i)
            f[i].push_back(vals[i]);
        std::printf("  %3d %5.2f | %8.2f %8.2f %8.2f %8.2f | %8.0f %8.0f | %8.1f %8.1f | %d\n", run,
                    load, tTable, tSummary, tCharts, tSorted, peakMb, endMb, p99, mx,
                    table->model()->rowCount());
        std::fflush(stdout);
    }
    static const char *names[] = {"table s", "summary s", "charts s",   "sorted s",
                                  "peak MB", "end MB",    "gui p99 ms", "gui max ms"};
    std::printf("= median [min – max] of %d runs:", runs);
    for (int i = 0; i < 8; ++i)
        std::printf("%s %s %s", i ? ";" : "", names[i],
                    mmm(f[i], i >= 4 && i < 6 ? 0 : 2).constData());
    std::printf("\n");
    return 0;
}
