#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sb {

struct ChartSpec;
struct ReportContent;

// Which report files to write; empty paths are skipped.
struct ReportOutputs
{
    QString html;   // self-contained HTML report
    QString pdf;    // the same content for printing
    QString csv;    // the comparison summary; per-request rows go to <name>-requests.csv
    QString json;   // the report JSON
    QString bundle; // the acceptance bundle, written into this new folder
    // The HTML and PDF (and the bundle's copies) in the installed language; CSV and JSON stay
    // English, as every machine-read form does.
    bool translated = false;

    bool any() const
    {
        return !html.isEmpty() || !pdf.isEmpty() || !csv.isEmpty() || !json.isEmpty() ||
               !bundle.isEmpty();
    }
};

// Drawing is the one part of a report that needs QtGui (PNG charts, the PDF). The core writes
// every file through this interface, so a build without QtGui still writes the HTML (without
// chart images), CSV, JSON and the bundle (without the PDF); the render library implements it.
class ReportRenderer
{
public:
    virtual ~ReportRenderer() = default;
    // Every chart by its key; charts without data are left out.
    virtual QMap<QString, QByteArray> chartPngs(const QList<ChartSpec> &specs) const = 0;
    // The HTML laid out for printing; empty with *why on failure.
    virtual QByteArray pdf(const QString &html, const QString &title, QString *why) const = 0;
};

// Writes what `outputs` asks for, as `servebench-cli report` and the workbench's Compare tab
// both do. renderer may be null (a build without QtGui): then a PDF is refused with a reason,
// the HTML says its charts were not drawn and the bundle holds no PDF. `written` lists every file
// or folder written, in order; false with a reason naming the file otherwise (files written
// before stay).
bool writeReportOutputs(const ReportContent &content, const ReportOutputs &outputs,
                        const ReportRenderer *renderer, QStringList *written, QString *error);

} // namespace sb
