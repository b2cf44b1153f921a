// Precompiled for the tests that drive the workbench (cmake/precompiled.cmake).
#pragma once
#include "pch_test.h"
#include <QtCharts>
#include <QtWidgets>
