#include "pdfrenderer.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QScreen>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextOption>
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
    // Wrap at word boundaries only: QTextDocument's default also breaks inside a word when a
    // table column is narrow, which printed 'succ essfu l'. Wide tables get landscape pages
    // and short run codes instead (htmlreport.cpp).
    QTextOption option = doc.defaultTextOption();
    option.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(option);
    doc.setPageSize(pageSizePoints);
    doc.setHtml(html);
}

QPageLayout a4Layout(QPageLayout::Orientation orientation = QPageLayout::Portrait)
{
    return QPageLayout(QPageSize(QPageSize::A4), orientation, QMarginsF(15, 15, 15, 15),
                       QPageLayout::Millimeter);
}

// The report cut at its page marks (htmlreport.h) into documents of their own, each with the
// page's head (its style) so every part is styled alike.
struct Part
{
    QString html;
    QPageLayout::Orientation orientation = QPageLayout::Portrait;
};

QList<Part> splitAtPageMarks(const QString &html)
{
    static const QRegularExpression mark(u"<!--sb:page (portrait|landscape)-->"_s);
    const qsizetype bodyAt = html.indexOf("<body>"_L1);
    const QString head = bodyAt < 0 ? QString() : html.left(bodyAt + 6);
    const QString tail = u"</body>\n</html>\n"_s;
    QList<Part> parts;
    qsizetype from = bodyAt < 0 ? 0 : bodyAt + 6;
    QPageLayout::Orientation orientation = QPageLayout::Portrait;
    QRegularExpressionMatchIterator it = mark.globalMatch(html, from);
    const auto add = [&](qsizetype to) {
        QString body = html.mid(from, to - from);
        if (!body.trimmed().isEmpty())
            parts.append(
                {head + body + (body.contains("</body>"_L1) ? QString() : tail), orientation});
    };
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        add(m.capturedStart());
        from = m.capturedEnd();
        orientation =
            m.captured(1) == "landscape"_L1 ? QPageLayout::Landscape : QPageLayout::Portrait;
    }
    add(html.size());
    if (parts.isEmpty())
        parts.append({html, QPageLayout::Portrait});
    return parts;
}

// QTextDocument without a paint device measures fonts in pixels of the screen's logical DPI
// (as qt_defaultDpiY() does); the page is laid out in the same pixels, so a 10 pt font is
// 10 pt on paper. (Laying out over the page's size in points made the type a third larger
// than its stated size at 96 dpi.)
double layoutDpi()
{
    if (QCoreApplication::testAttribute(Qt::AA_Use96Dpi))
        return 96;
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        return qRound(screen->logicalDotsPerInchY());
    return 100;
}

QSizeF printableSize(QPageLayout::Orientation orientation)
{
    return a4Layout(orientation).paintRect(QPageLayout::Inch).size() * layoutDpi();
}

} // namespace

QByteArray renderPdfFromHtml(const QString &html, const QString &title, QString *error)
{
    const QList<Part> parts = splitAtPageMarks(html);
    QByteArray pdf;
    QBuffer buffer(&pdf);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageLayout(a4Layout(parts.first().orientation));
        writer.setTitle(title);
        writer.setCreator(u"ServeBench"_s);
        writer.setResolution(300);
        QPainter painter(&writer);
        // Laid out in layout pixels over the printable area, drawn scaled to the device.
        const double scale = writer.resolution() / layoutDpi();
        bool first = true;
        for (const Part &part : parts) {
            if (!first) {
                writer.setPageLayout(a4Layout(part.orientation));
                writer.newPage();
            }
            ReportDocument doc;
            const QSizeF page = printableSize(part.orientation);
            setUp(doc, part.html, page);
            for (int p = 0; p < doc.pageCount(); ++p) {
                if (p > 0)
                    writer.newPage();
                painter.save();
                painter.scale(scale, scale);
                const QRectF view(0, p * page.height(), page.width(), page.height());
                painter.translate(0, -view.top());
                painter.setClipRect(view);
                QAbstractTextDocumentLayout::PaintContext context;
                context.clip = view;
                doc.documentLayout()->draw(&painter, context);
                painter.restore();
            }
            first = false;
        }
    }
    buffer.close();
    if (pdf.isEmpty() && error)
        *error = u"the PDF writer produced no output"_s;
    return pdf;
}

QStringList pdfTextOverflows(const QString &html)
{
    QStringList out;
    const QList<Part> parts = splitAtPageMarks(html);
    for (qsizetype n = 0; n < parts.size(); ++n) {
        const Part &part = parts.at(n);
        ReportDocument doc;
        const QSizeF page = printableSize(part.orientation);
        setUp(doc, part.html, page);
        QAbstractTextDocumentLayout *layout = doc.documentLayout();
        // Each laid-out line's own text, where it really ends on the page (a cell's block is as
        // wide as its cell; the words in it may run further when they cannot be broken).
        for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
            const QTextLayout *lines = block.layout();
            if (!lines)
                continue;
            const double left = layout->blockBoundingRect(block).left();
            for (int i = 0; i < lines->lineCount(); ++i) {
                const QTextLine line = lines->lineAt(i);
                const double right = left + line.x() + line.naturalTextWidth();
                if (right > page.width() + 0.5)
                    out << u"part %1 (%2): '%3' ends at %4 px on a %5 px page"_s.arg(n + 1)
                               .arg(part.orientation == QPageLayout::Landscape ? u"landscape"_s
                                                                               : u"portrait"_s)
                               .arg(block.text().mid(line.textStart(), line.textLength()).left(60))
                               .arg(qRound(right))
                               .arg(qRound(page.width()));
            }
        }
    }
    return out;
}

int pdfPageCount(const QString &html)
{
    int pages = 0;
    for (const Part &part : splitAtPageMarks(html)) {
        ReportDocument doc;
        setUp(doc, part.html, printableSize(part.orientation));
        pages += doc.pageCount();
    }
    return pages;
}

} // namespace sb
