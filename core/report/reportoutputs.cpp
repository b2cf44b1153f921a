#include "reportoutputs.h"

#include "report/bundle.h"
#include "report/htmlreport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        *error = u"%1: %2"_s.arg(path, f.errorString());
        return false;
    }
    return true;
}
} // namespace

bool writeReportOutputs(const ReportContent &loaded, const ReportOutputs &outputs,
                        const ReportRenderer *renderer, QStringList *written, QString *error)
{
    // The files say when they were written: a comparison left open in the workbench is
    // exported minutes or days after it was computed (its containers are shared, not copied).
    ReportContent content = loaded;
    content.generatedUtc = QDateTime::currentDateTimeUtc();
    if (!outputs.pdf.isEmpty() && !renderer) {
        *error = u"%1: this servebench-cli was built without QtGui (SERVEBENCH_CLI_RENDER=OFF) "
                 "and cannot draw a PDF; write --html instead"_s.arg(outputs.pdf);
        return false;
    }
    const bool needHtml =
        !outputs.html.isEmpty() || !outputs.pdf.isEmpty() || !outputs.bundle.isEmpty();
    const bool needPdf = renderer && (!outputs.pdf.isEmpty() || !outputs.bundle.isEmpty());
    QString html;
    if (needHtml)
        html = renderHtmlReport(
            content, renderer ? renderer->chartPngs(content.charts) : QMap<QString, QByteArray>(),
            outputs.translated);
    QByteArray pdf;
    if (needPdf) {
        QString why;
        pdf = renderer->pdf(html, content.title, &why);
        if (pdf.isEmpty()) {
            *error = u"PDF: "_s + why;
            return false;
        }
    }
    const auto write = [&](const QString &path, const QByteArray &data) {
        if (path.isEmpty())
            return true;
        if (!writeFile(path, data, error))
            return false;
        written->append(path);
        return true;
    };
    if (!write(outputs.html, html.toUtf8()) || !write(outputs.pdf, pdf) ||
        !write(outputs.json, QJsonDocument(reportJson(content)).toJson(QJsonDocument::Indented)) ||
        !write(outputs.csv, content.comparison.summaryCsv()))
        return false;
    if (!outputs.csv.isEmpty()) {
        const QFileInfo fi(outputs.csv);
        if (!write(fi.dir().filePath(fi.completeBaseName() + u"-requests.csv"_s),
                   reportRequestsCsv(content)))
            return false;
    }
    if (!outputs.bundle.isEmpty()) {
        QStringList files;
        QString why;
        if (!writeAcceptanceBundle(outputs.bundle, content, html, pdf, &files, &why)) {
            *error = u"acceptance bundle %1: %2"_s.arg(outputs.bundle, why);
            return false;
        }
        written->append(outputs.bundle);
    }
    return true;
}

} // namespace sb
