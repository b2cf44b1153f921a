#include "reportrenderer.h"

#include "report/reportoutputs.h"

#ifdef SERVEBENCH_HAVE_RENDER
#include "qtreportrenderer.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QTemporaryDir>
#endif

using namespace Qt::StringLiterals;

namespace sb {

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool needGui)
{
#ifdef SERVEBENCH_HAVE_RENDER
    if (needGui) {
        // A headless CI machine has no display: render offscreen unless the user chose one.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
            qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // QGuiApplication looks for "flatpak-info" in the runtime directory when it starts
        // (QStandardPaths::RuntimeLocation), and on a machine without a login session (CI, a
        // container, ssh) that prints "QStandardPaths: XDG_RUNTIME_DIR not set" on every
        // `report`. The CLI talks to no session service: it gets a private, empty runtime
        // directory (mode 0700, as the XDG spec asks) for its lifetime instead.
        static std::unique_ptr<QTemporaryDir> runtimeDir;
        if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
            runtimeDir =
                std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/servebench-runtime-XXXXXX"_s);
            if (runtimeDir->isValid())
                qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtimeDir->path()));
        }
        return std::make_unique<QGuiApplication>(argc, argv);
    }
#else
    Q_UNUSED(needGui);
#endif
    return std::make_unique<QCoreApplication>(argc, argv);
}

std::unique_ptr<ReportRenderer> cliReportRenderer()
{
#ifdef SERVEBENCH_HAVE_RENDER
    return std::make_unique<QtReportRenderer>();
#else
    return {};
#endif
}

} // namespace sb
