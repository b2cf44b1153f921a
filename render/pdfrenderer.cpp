#include "pdfrenderer.h"

#include <QBuffer>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

// QTextDocument resolves <img src> through loadResource(); decoding data: URIs here keeps the
// PDF self-contained and never lets the document reach for a file or the network.
class ReportDocument : public QTextDocument
{
public:
    using QTextDocument::QTextDocument;

protected:
    QVariant loadResource(int type, const QUrl &name) override
    {
        if (type != QTextDocument::ImageResource)
            return {};
        const QString url = name.toString(QUrl::FullyEncoded);
        if (!url.startsWith("data:"_L1))
            return {};
        const qsizetype comma = url.indexOf(u',');
        if (comma < 0 || !url.left(comma).endsWith(";base64"_L1))
            return {};
        QImage image;
        image.loadFromData(QByteArray::fromBase64(url.mid(comma + 1).toLatin1()));
        return image.isNull() ? QVariant() : QVariant(image);
    }
};

void setUp(ReportDocument &doc, const QString &html, QSizeF pageSizePoints)
{
    QFont font(u"DejaVu Sans"_s);
    font.setPointSizeF(9);
    doc.setDefaultFont(font);
    doc.setPageSize(pageSizePoints);
    doc.setHtml(html);
}

QPageLayout a4Layout()
{
    return QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15),
                       QPageLayout::Millimeter);
}

} // namespace

QByteArray renderPdfFromHtml(const QString &html, const QString &title, QString *error)
{
    QByteArray pdf;
    QBuffer buffer(&pdf);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageLayout(a4Layout());
        writer.setTitle(title);
        writer.setCreator(u"ServeBench"_s);
        writer.setResolution(300);
        ReportDocument doc;
        // Lay out in points (1/72 in) over the printable area; print() scales to the device.
        setUp(doc, html, writer.pageLayout().paintRect(QPageLayout::Point).size());
        doc.print(&writer);
    }
    buffer.close();
    if (pdf.isEmpty() && error)
        *error = u"the PDF writer produced no output"_s;
    return pdf;
}

int pdfPageCount(const QString &html)
{
    ReportDocument doc;
    setUp(doc, html, a4Layout().paintRect(QPageLayout::Point).size());
    return doc.pageCount();
}

} // namespace sb
