#pragma once

#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QString>

#include <deque>

namespace sb {

// --max-error-rate: stops a run whose recent requests fail too often. Over the last `window`
// finished requests (warm-up ones included: they fail for the same reasons), the error rate is
// failed / window; once at least `window` requests have finished and the rate exceeds the
// bound (strictly), the stopper trips and stays tripped.
class ErrorRateStopper
{
public:
    explicit ErrorRateStopper(double maxErrorRate, qint64 window = 50);

    // Returns exceeded() after counting r.
    bool add(const RequestRecord &r);

    bool exceeded() const { return m_exceeded; }
    double rate() const; // over the current window; 0 before any request
    qint64 finished() const { return m_finished; }
    qint64 windowFailures() const { return m_windowFailures; }
    // The count of finished requests when it tripped (0: never).
    qint64 trippedAt() const { return m_trippedAt; }
    QString reason() const; // "12 of the last 50 requests failed (24.0 % > 10.0 %)"
    QJsonObject toJson() const;

private:
    double m_max;
    qint64 m_window;
    std::deque<bool> m_recent;
    qint64 m_windowFailures = 0;
    qint64 m_finished = 0;
    bool m_exceeded = false;
    qint64 m_trippedAt = 0;
    double m_rateAtTrip = 0;
};

} // namespace sb
