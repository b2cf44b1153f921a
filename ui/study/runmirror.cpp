#include "runmirror.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

RunMirror::RunMirror(QObject *parent) : RunController(parent)
{
    setKeepRecords(false);
}

bool RunMirror::prepareTransport(QString *error)
{
    *error = u"a mirror of a run issues no requests"_s;
    return false;
}

bool RunMirror::start(QString *error)
{
    return prepareTransport(error);
}

void RunMirror::stop()
{
    emit stopRequested();
}

void RunMirror::begin(const RunPlan &plan, qint64 runStartNs, qint64 plannedRequests)
{
    m_plan = plan;
    m_status = RunStatus::Running;
    m_runStartNs = runStartNs;
    m_runEndNs = 0;
    m_planned = plannedRequests;
    m_issued.store(0);
    emit begun(plan);
}

void RunMirror::feed(const QList<RequestRecord> &records, qint64 issued)
{
    m_issued.store(issued);
    // The dashboard counts and queues each one in O(1); the reduction is its worker's.
    for (const RequestRecord &r : records)
        emit requestCompleted(r);
}

void RunMirror::end(RunStatus status, qint64 runEndNs, qint64 issued)
{
    m_issued.store(issued);
    m_status = status;
    m_runEndNs = runEndNs;
    emit finished(status);
}

namespace {

// Lives in the source controller's thread, as its child.
class RunRelay : public QObject
{
public:
    RunRelay(RunController *source, RunMirror *mirror) : QObject(source), m_mirror(mirror)
    {
        connect(source, &RunController::requestCompleted, this,
                [this](const RequestRecord &r) { m_pending.append(r); });
        connect(source, &RunController::finished, this, [this, source](RunStatus status) {
            m_timer.stop();
            flush(source);
            const qint64 endNs = source->runEndNs();
            const qint64 issued = source->issued();
            QMetaObject::invokeMethod(
                m_mirror, [m = m_mirror, status, endNs, issued] { m->end(status, endNs, issued); },
                Qt::QueuedConnection);
        });
        m_timer.setInterval(100);
        connect(&m_timer, &QTimer::timeout, this, [this, source] { flush(source); });
        m_timer.start();
    }

private:
    void flush(RunController *source)
    {
        QList<RequestRecord> batch;
        batch.swap(m_pending);
        const qint64 issued = source->issued();
        QMetaObject::invokeMethod(
            m_mirror, [m = m_mirror, batch, issued] { m->feed(batch, issued); },
            Qt::QueuedConnection);
    }

    RunMirror *m_mirror;
    QList<RequestRecord> m_pending;
    QTimer m_timer;
};

} // namespace

void relayRun(RunController *source, const RunPlan &plan, RunMirror *mirror)
{
    const qint64 startNs = source->runStartNs();
    const qint64 planned = source->plannedRequests();
    QMetaObject::invokeMethod(
        mirror, [mirror, plan, startNs, planned] { mirror->begin(plan, startNs, planned); },
        Qt::QueuedConnection);
    // Records the controller already holds (it started a moment ago) go first.
    if (!source->records().isEmpty())
        QMetaObject::invokeMethod(
            mirror,
            [mirror, records = source->records(), issued = source->issued()] {
                mirror->feed(records, issued);
            },
            Qt::QueuedConnection);
    new RunRelay(source, mirror);
}

} // namespace sb
