#pragma once

#include "report/reportoutputs.h"

namespace sb {

// The report renderer of a build with QtGui: charts painted on a QImage (chartrenderer.h), the
// PDF laid out by QTextDocument and QPdfWriter (pdfrenderer.h). Needs a QGuiApplication (the
// "offscreen" platform will do); may be used from a worker thread.
class QtReportRenderer : public ReportRenderer
{
public:
    QMap<QString, QByteArray> chartPngs(const QList<ChartSpec> &specs) const override;
    QByteArray pdf(const QString &html, const QString &title, QString *why) const override;

    // Whether this process can render: a QGuiApplication exists. *why says what is missing.
    static bool available(QString *why);
};

} // namespace sb
