#pragma once

#include "editorform.h"
#include "fielderror.h"

#include "config/runplan.h"
#include "run/runrequest.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QPlainTextEdit;
class QScrollArea;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb {

class FieldError;
class SchedulePreview;

// Edits one load profile (docs/design.md, load generation): scenario, arrival process, rate and
// burstiness, ramp-up or trace replay, concurrency (open loop with a cap, or closed loop),
// request count or duration, warm-up, goodput SLOs and MLPerf constraints, seed and cache
// policy, how the profile is executed (one run, a rate sweep, the max-valid-rate search), with a
// plot of the arrival schedule the run will use. The settings are checked by the run pipeline's
// own validation (validateRunRequest), so the editor refuses exactly what a run would.
class LoadProfileEditor : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProfileEditor(QWidget *parent = nullptr);
    ~LoadProfileEditor() override;

    // A new entity: its first field takes the focus (editorform.h).

    void focusFirstField();

    void setProfile(const QString &name, const LoadProfile &profile,
                    const RequestParams &params = RequestParams(),
                    const RunExecution &execution = RunExecution());
    QString name() const;
    LoadProfile profile() const;
    // What every request of the profile's runs sends besides the prompt and max_tokens.
    RequestParams params() const;
    RunExecution execution() const;

    bool isValid() const;
    QStringList errors() const;
    // Field keys: name, rate, burstiness, rampUp, count, warmup, concurrency, seed, percentiles,
    // scenario, slo, mlperf, timeout, trace, execution, temperature, requestSeed, extraBody,
    // sessions, think, sessionHeader.
    QString errorFor(const QString &field) const;
    SchedulePreview *preview() const { return m_preview; }

signals:
    void edited();
    void validityChanged(bool valid);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildUi();
    void retranslateUi();
    void validate();
    void updateWidgets();

    void browseTrace();

    LoadProfile m_base; // keeps what this editor does not show (percentile metrics)
    bool m_filling = false;
    bool m_valid = true;
    FieldErrors m_errors;
    FormLabels m_labels;

    QScrollArea *m_scroll;
    QLabel *m_title;
    QLineEdit *m_name;
    QComboBox *m_scenario;
    QComboBox *m_arrival;
    QDoubleSpinBox *m_rate;
    QDoubleSpinBox *m_burstiness;
    QComboBox *m_rampUp;
    QDoubleSpinBox *m_rampStart;
    QDoubleSpinBox *m_rampEnd;
    QSpinBox *m_maxConcurrency;
    QSpinBox *m_closedLoop;
    QSpinBox *m_numPrompts;
    QSpinBox *m_batchSize;
    QDoubleSpinBox *m_duration;
    QSpinBox *m_warmupRequests;
    QDoubleSpinBox *m_warmupSeconds;
    QDoubleSpinBox *m_metricsInterval;
    QLineEdit *m_seed;
    QDoubleSpinBox *m_sloTtft;
    QDoubleSpinBox *m_sloTpot;
    QDoubleSpinBox *m_sloE2el;
    QDoubleSpinBox *m_timeout;
    QComboBox *m_connectionMode;
    QDoubleSpinBox *m_idleTimeout;
    QCheckBox *m_cacheBust;
    QComboBox *m_cacheReset; // keep / reset, refuse without one / reset, else bust
    // The cancellation load (--request-cancellation-*; docs/metrics.md).
    QDoubleSpinBox *m_cancelRate;
    QDoubleSpinBox *m_cancelDelay;
    QSpinBox *m_cancelTokens;
    QLabel *m_requestTitle;
    QCheckBox *m_ignoreEos;
    QLineEdit *m_temperature;
    QLineEdit *m_requestSeed;
    QPlainTextEdit *m_extraBody;
    QLineEdit *m_percentiles;
    QLabel *m_mlperfTitle;
    QComboBox *m_mlperfPreset;
    QDoubleSpinBox *m_boundTtft;
    QDoubleSpinBox *m_boundTpot;
    QDoubleSpinBox *m_sloPercentile;
    QSpinBox *m_minQueryCount;
    QDoubleSpinBox *m_minDuration;
    QLineEdit *m_tracePath;
    QDoubleSpinBox *m_traceScale;
    QComboBox *m_traceFormat;
    QSpinBox *m_traceBlock;
    // Sessions (docs/sessions.md): used when the run's dataset is multi-turn.
    QLabel *m_sessionsTitle;
    QSpinBox *m_numSessions;
    QDoubleSpinBox *m_sessionRate;
    QSpinBox *m_users;
    QComboBox *m_history;
    QComboBox *m_thinkModel;
    QDoubleSpinBox *m_thinkMs;
    QLineEdit *m_sessionHeader;
    QLabel *m_executionTitle;
    QComboBox *m_mode;
    QSpinBox *m_sweepRates;
    QSpinBox *m_numRuns;
    QDoubleSpinBox *m_tolerance;
    QComboBox *m_transport;
    QLabel *m_previewTitle;
    SchedulePreview *m_preview;
};

} // namespace sb
