#include "qtreportrenderer.h"

#include "chartrenderer.h"
#include "pdfrenderer.h"

#include <QGuiApplication>

using namespace Qt::StringLiterals;

namespace sb {

QMap<QString, QByteArray> QtReportRenderer::chartPngs(const QList<ChartSpec> &specs) const
{
    return renderChartPngs(specs);
}

QByteArray QtReportRenderer::pdf(const QString &html, const QString &title, QString *why) const
{
    return renderPdfFromHtml(html, title, why);
}

bool QtReportRenderer::available(QString *why)
{
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return true;
    *why = u"rendering the report needs a QGuiApplication"_s;
    return false;
}

} // namespace sb
