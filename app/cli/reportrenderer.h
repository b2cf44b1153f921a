#pragma once

#include <QCoreApplication>
#include <memory>

namespace sb {

class ReportRenderer;

// The application object for a CLI command: a QGuiApplication when the command renders (the
// PDF writer and the fonts need one), on the "offscreen" platform when no display is set and
// the user chose no platform; a plain QCoreApplication otherwise, and always in a build without
// QtGui (SERVEBENCH_CLI_RENDER=OFF).
std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool needGui);

// The renderer `report` draws charts and the PDF with; null in a build without QtGui, where
// reports are written without chart images and without a PDF.
std::unique_ptr<ReportRenderer> cliReportRenderer();

} // namespace sb
