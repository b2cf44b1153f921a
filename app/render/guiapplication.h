#pragma once

#include <QCoreApplication>
#include <memory>

namespace sb {

// The application object for a CLI command: a QGuiApplication when the command renders (the
// PDF writer and the fonts need one), on the "offscreen" platform when no display is set and
// the user chose no platform; a plain QCoreApplication otherwise.
std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool needGui);

} // namespace sb
