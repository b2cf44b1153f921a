#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace sb {

// Renders the report's HTML into a PDF (A4, 15 mm margins) through QTextDocument and
// QPdfWriter, so the PDF shows the same content as the HTML. Each page mark (htmlreport.h)
// starts a new page in the orientation it names; words are never broken inside. Images given as
// data: URIs (the report's charts) are decoded here; nothing is fetched from a network or a file.
// Needs a QGuiApplication. Returns the PDF bytes; empty with *error on failure.
QByteArray renderPdfFromHtml(const QString &html, const QString &title, QString *error = nullptr);

// Every line of text that runs past the right margin of its page (words are never broken, so
// a table too wide for its page would have its last columns clipped): empty when everything
// fits. For tests.
QStringList pdfTextOverflows(const QString &html);

// The number of pages the same document takes, for tests and messages.
int pdfPageCount(const QString &html);

} // namespace sb
