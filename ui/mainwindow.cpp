#include "mainwindow.h"

#include <QLabel>

namespace sb {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("ServeBench"));
    setCentralWidget(new QLabel(tr("ServeBench workbench"), this));
    resize(1200, 800);
}

} // namespace sb
