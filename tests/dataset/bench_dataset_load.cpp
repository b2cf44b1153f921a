// Loads a dataset and prints what it took; run under /usr/bin/time -v for peak RSS.
//   dataset_loadbench FILE [NUM_PROMPTS] [sharegpt|custom]
// Not a test: timing goals do not belong in unit tests on a shared machine.
//
// Measured (Release, Qt 6.4.2, 2-core Xeon VM shared with other jobs, load average ~5.5) on a
// 650 MiB (681,574,724 bytes) file from make_sharegpt_large.py, 58,132 conversations, 1000
// sampled: peak RSS 82 MB; CPU 6.6-6.9 s user, of which about 4.5 s is Qt's software SHA-256 (on
// its own thread) and the rest the parse, token counting and sampling; wall 12.8-14.1 s under
// that load.
#include "config/runplan.h"
#include "data/dataset.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <cstdio>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: dataset_loadbench FILE [NUM_PROMPTS] [sharegpt|custom]\n");
        return 2;
    }
    sb::DatasetSpec spec;
    spec.kind = sb::DatasetKind::ShareGpt;
    if (args.size() > 3)
        sb::datasetKindFromName(args.at(3), &spec.kind);
    spec.path = args.at(1);
    const int n = args.size() > 2 ? args.at(2).toInt() : 1000;
    QElapsedTimer t;
    t.start();
    sb::LoadedDataset ds;
    QString error;
    if (!sb::loadDataset(spec, n, 0, &ds, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const double s = double(t.nsecsElapsed()) / 1e9;
    std::printf("%s\nload: %.2f s\n", QJsonDocument(ds.info.toJson()).toJson().constData(), s);
    return 0;
}
