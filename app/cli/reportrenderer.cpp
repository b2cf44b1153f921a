#include "reportrenderer.h"

#include "report/reportoutputs.h"

#ifdef SERVEBENCH_HAVE_RENDER
#include "qtreportrenderer.h"

#include <QGuiApplication>
#endif

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
