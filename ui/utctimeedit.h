#pragma once

#include <QDateTime>

class QDateTimeEdit;
class QWidget;

namespace sb {

// A date-time field for a test window's bounds: UTC (the project stores UTC and bills state it,
// docs/cost.md), to the second, the zone written in the field so nobody reads it as local time.
QDateTimeEdit *newUtcTimeEdit(QWidget *parent);
void setUtcTime(QDateTimeEdit *edit, const QDateTime &time);

// Whole seconds around a run's millisecond times, so a window typed from them holds the runs.
QDateTime floorToSecond(const QDateTime &time);
QDateTime ceilToSecond(const QDateTime &time);

// What the field says, in UTC; `original` (the value it was set from) when the field still
// shows it, so an untouched bound keeps its milliseconds.
QDateTime utcTimeOf(const QDateTimeEdit *edit, const QDateTime &original = {});

} // namespace sb
