#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb {

struct ReportContent;

// The acceptance bundle (docs/design.md, comparison and acceptance): one folder per comparison
// holding everything needed to check and reproduce the numbers.
//
//   README.txt                     what each file is
//   report/report.html, report.pdf the rendered report (PDF only when given)
//   report/summary.csv             the comparison table (metric, run, value, differences)
//   report/report.json             comparison + comparability + per-run results and costs
//   definitions/metric-definitions.json, .txt
//   runs/<id>/sut.json             SUT manifest (no secrets: the key is a reference)
//   runs/<id>/dataset.json         dataset version, hash and sampling parameters
//   runs/<id>/command.txt          the servebench-cli command line that reproduces the run
//   runs/<id>/snapshot.json        the frozen run plan
//   runs/<id>/result.json          vLLM-compatible result with per-request arrays
//   runs/<id>/requests.csv         raw per-request results
//   runs/<id>/failed-requests.json every failed request with its class and message
//   runs/<id>/server-metrics/<n>-<target>.json  each scraped target's scrapes and series
//   cost/bill-items.json           the bill items considered
//   cost/bill-mapping.csv          how each item maps to each run's test window
//   cost/windows.json              each window's breakdown
//   manifest.json                  tool version, runs, every file with size and sha256
//   MANIFEST.sha256                `sha256sum -c` format over every other file
//
// Refuses a target that exists and is not empty (a bundle is never mixed with older files). The
// run folders, cost files and manifest are bundlewriter.h's, shared with a study's bundle.
bool writeAcceptanceBundle(const QString &dir, const ReportContent &content, const QString &html,
                           const QByteArray &pdf, QStringList *files, QString *error);

// Re-hashes every file listed in MANIFEST.sha256; problems name each missing or changed file and
// any file present but not listed.
bool verifyAcceptanceBundle(const QString &dir, QStringList *problems);

// A stored command line with anything that looks like a credential replaced by <redacted>
// (Bearer tokens, sk- keys, --api-key values, secret-looking --header values).
QString scrubCommandLine(const QString &command);

} // namespace sb
