#pragma once

#include <QString>
#include <QStringList>

namespace sb {

struct ReportContent;

// Which report files to write; empty paths are skipped.
struct ReportOutputs
{
    QString html;   // self-contained HTML report
    QString pdf;    // the same content for printing
    QString csv;    // the comparison summary; per-request rows go to <name>-requests.csv
    QString json;   // the report JSON
    QString bundle; // the acceptance bundle, written into this new folder

    bool any() const
    {
        return !html.isEmpty() || !pdf.isEmpty() || !csv.isEmpty() || !json.isEmpty() ||
               !bundle.isEmpty();
    }
};

// Renders (chart PNGs, the PDF) and writes what `outputs` asks for, as `servebench-cli report`
// and the workbench's Compare tab both do. Needs a QGuiApplication; may run in a worker thread
// (it paints on QImage and QPdfWriter only). `written` lists every file or folder written, in
// order; false with a reason naming the file otherwise (files written before stay).
bool writeReportOutputs(const ReportContent &content, const ReportOutputs &outputs,
                        QStringList *written, QString *error);

} // namespace sb
