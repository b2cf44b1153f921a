#include "guiapplication.h"

#include <QGuiApplication>

namespace sb {

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool needGui)
{
    if (!needGui)
        return std::make_unique<QCoreApplication>(argc, argv);
    // A headless CI machine has no display: render offscreen unless the user chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QGuiApplication>(argc, argv);
}

} // namespace sb
