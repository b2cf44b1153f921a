// Precompiled for every test (cmake/precompiled.cmake): QtTest on top of the core's headers.
#pragma once
#include "pch_core.h"
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
