// Precompiled for the workbench's units and the tests that drive it (cmake/precompiled.cmake).
#pragma once
#include "pch_core.h"
#include <QtCharts>
#include <QtWidgets>
