#include "loadprofileeditor.h"

#include "fielderror.h"
#include "schedulepreview.h"

#include "load/mlperf.h"
#include "run/metricsplan.h"
#include "run/planvalidation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

LoadProfileEditor::LoadProfileEditor(QWidget *parent) : QWidget(parent)
{
    buildUi();
    retranslateUi();
    updateWidgets();
    validate();
}

LoadProfileEditor::~LoadProfileEditor() = default;

void LoadProfileEditor::buildUi()
{
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Horizontal, this);
    outer->addWidget(split);
    m_scroll = makeFormScrollArea(split);
    QWidget *page = m_scroll->widget();
    auto *layout = new QVBoxLayout(page);
    m_title = makeEditorTitle(page);
    layout->addWidget(m_title);
    auto *form = new QFormLayout;
    setUpFormLayout(form);
    layout->addLayout(form);

    auto addRow = [&](const QString &key, QWidget *field, const QString &errorKey = {}) {
        QLabel *label = m_labels.add(key, field, page);
        form->addRow(label, errorKey.isEmpty() ? field : m_errors.wrap(errorKey, field, page));
    };
    auto dspin = [&](double lo, double hi, int decimals) {
        auto *s = new QDoubleSpinBox(page);
        s->setRange(lo, hi);
        s->setDecimals(decimals);
        return s;
    };
    auto ispin = [&](int lo, int hi) {
        auto *s = new QSpinBox(page);
        s->setRange(lo, hi);
        return s;
    };

    m_name = new QLineEdit(page);
    m_name->setObjectName(u"name"_s);
    addRow(u"name"_s, m_name, u"name"_s);
    m_scenario = new QComboBox(page);
    m_scenario->setObjectName(u"scenario"_s);
    for (Scenario s : {Scenario::None, Scenario::Server, Scenario::Offline, Scenario::SingleStream})
        m_scenario->addItem({}, int(s));
    addRow(u"scenario"_s, m_scenario, u"scenario"_s);
    m_arrival = new QComboBox(page);
    m_arrival->setObjectName(u"arrival"_s);
    for (ArrivalProcess a :
         {ArrivalProcess::Poisson, ArrivalProcess::Constant, ArrivalProcess::Gamma})
        m_arrival->addItem({}, int(a));
    addRow(u"arrival"_s, m_arrival);
    m_rate = dspin(0, 1e6, 2);
    m_rate->setObjectName(u"rate"_s);
    addRow(u"rate"_s, m_rate, u"rate"_s);
    m_burstiness = dspin(0.01, 1000, 2);
    m_burstiness->setObjectName(u"burstiness"_s);
    addRow(u"burstiness"_s, m_burstiness, u"burstiness"_s);
    m_rampUp = new QComboBox(page);
    m_rampUp->setObjectName(u"rampUpStrategy"_s);
    for (RampUpStrategy r :
         {RampUpStrategy::None, RampUpStrategy::Linear, RampUpStrategy::Exponential})
        m_rampUp->addItem({}, int(r));
    addRow(u"rampUpStrategy"_s, m_rampUp);
    auto *rampRow = new QWidget(page);
    auto *rl = new QHBoxLayout(rampRow);
    rl->setContentsMargins(0, 0, 0, 0);
    m_rampStart = new QDoubleSpinBox(rampRow);
    m_rampEnd = new QDoubleSpinBox(rampRow);
    for (QDoubleSpinBox *s : {m_rampStart, m_rampEnd}) {
        s->setRange(0, 1e6);
        s->setDecimals(2);
    }
    m_rampStart->setObjectName(u"rampStart"_s);
    m_rampEnd->setObjectName(u"rampEnd"_s);
    rl->addWidget(m_rampStart);
    rl->addWidget(new QLabel(u"→"_s, rampRow));
    rl->addWidget(m_rampEnd);
    addRow(u"rampUp"_s, rampRow, u"rampUp"_s);
    m_maxConcurrency = ispin(0, 1000000);
    m_maxConcurrency->setObjectName(u"maxConcurrency"_s);
    addRow(u"maxConcurrency"_s, m_maxConcurrency, u"concurrency"_s);
    m_closedLoop = ispin(0, 1000000);
    m_closedLoop->setObjectName(u"closedLoop"_s);
    addRow(u"closedLoop"_s, m_closedLoop);
    m_numPrompts = ispin(0, 100000000);
    m_numPrompts->setObjectName(u"numPrompts"_s);
    addRow(u"numPrompts"_s, m_numPrompts, u"count"_s);
    // Embeddings and rerank: dataset items per request (docs/metrics.md, "Embeddings and
    // rerank"); a generation SUT sends one, which the run checks against the SUT.
    m_batchSize = ispin(1, 65536);
    m_batchSize->setObjectName(u"batchSize"_s);
    addRow(u"batchSize"_s, m_batchSize, u"batchSize"_s);
    m_duration = dspin(0, 1e7, 1);
    m_duration->setObjectName(u"duration"_s);
    addRow(u"duration"_s, m_duration);
    m_warmupRequests = ispin(0, 100000000);
    m_warmupRequests->setObjectName(u"warmupRequests"_s);
    addRow(u"warmupRequests"_s, m_warmupRequests, u"warmup"_s);
    m_warmupSeconds = dspin(0, 1e6, 1);
    addRow(u"warmupSeconds"_s, m_warmupSeconds);
    // How often the server's /metrics is scraped during a run (docs/server-metrics.md); the
    // bounds are the plan's own (validateServerMetrics).
    m_metricsInterval = dspin(metricslimits::kMinIntervalS, metricslimits::kMaxIntervalS, 2);
    m_metricsInterval->setObjectName(u"metricsInterval"_s);
    m_metricsInterval->setSingleStep(0.1);
    addRow(u"metricsInterval"_s, m_metricsInterval);
    m_seed = new QLineEdit(page);
    m_seed->setObjectName(u"seed"_s);
    addRow(u"seed"_s, m_seed, u"seed"_s);
    m_sloTtft = dspin(0, 1e7, 1);
    m_sloTpot = dspin(0, 1e7, 1);
    m_sloE2el = dspin(0, 1e7, 1);
    m_sloTtft->setObjectName(u"sloTtft"_s);
    addRow(u"sloTtft"_s, m_sloTtft, u"slo"_s);
    addRow(u"sloTpot"_s, m_sloTpot);
    addRow(u"sloE2el"_s, m_sloE2el);
    m_percentiles = new QLineEdit(page);
    m_percentiles->setObjectName(u"percentiles"_s);
    addRow(u"percentiles"_s, m_percentiles, u"percentiles"_s);
    m_timeout = dspin(1, 1e6, 0);
    m_timeout->setObjectName(u"timeout"_s);
    addRow(u"timeout"_s, m_timeout, u"timeout"_s);
    // The plan's names (LoadProfile::connectionMode), so the stored value is what the CLI takes.
    m_connectionMode = new QComboBox(page);
    m_connectionMode->setObjectName(u"connectionMode"_s);
    for (const char *mode : {"warm", "per-request", "lazy"})
        m_connectionMode->addItem(QString(), QVariant(QString::fromLatin1(mode)));
    addRow(u"connectionMode"_s, m_connectionMode, u"connectionMode"_s);
    m_idleTimeout = dspin(0, 86400, 1);
    m_idleTimeout->setObjectName(u"idleTimeout"_s);
    addRow(u"idleTimeout"_s, m_idleTimeout, u"idleTimeout"_s);
    auto *traceRow = new QWidget(page);
    auto *tl = new QHBoxLayout(traceRow);
    tl->setContentsMargins(0, 0, 0, 0);
    m_tracePath = new QLineEdit(traceRow);
    m_tracePath->setObjectName(u"tracePath"_s);
    reservePathWidth(m_tracePath);
    auto *browse = new QToolButton(traceRow);
    browse->setText(u"…"_s);
    connect(browse, &QToolButton::clicked, this, &LoadProfileEditor::browseTrace);
    tl->addWidget(m_tracePath, 1);
    tl->addWidget(browse);
    addRow(u"trace"_s, traceRow, u"trace"_s);
    m_traceScale = dspin(0, 1000, 3);
    m_traceScale->setObjectName(u"traceScale"_s);
    addRow(u"traceScale"_s, m_traceScale);
    m_traceFormat = new QComboBox(page);
    m_traceFormat->setObjectName(u"traceFormat"_s);
    for (TraceFormat f : {TraceFormat::ServeBench, TraceFormat::Mooncake})
        m_traceFormat->addItem({}, int(f));
    addRow(u"traceFormat"_s, m_traceFormat);
    m_traceBlock = ispin(1, 1000000);
    m_traceBlock->setObjectName(u"traceBlockSize"_s);
    addRow(u"traceBlockSize"_s, m_traceBlock);
    m_cacheBust = new QCheckBox(page);
    m_cacheBust->setObjectName(u"cacheBust"_s);
    addRow(u"cache"_s, m_cacheBust);
    // --cache-policy reset (docs/cache-audit.md): the engine's own reset before the run.
    m_cacheReset = new QComboBox(page);
    m_cacheReset->setObjectName(u"cacheReset"_s);
    for (const char *v : {"", "refuse", "bust"})
        m_cacheReset->addItem({}, QString::fromLatin1(v));
    addRow(u"cacheReset"_s, m_cacheReset);
    // The cancellation load: a share of the requests the client closes on purpose, after a
    // delay from the request being written or after a number of token chunks (docs/metrics.md).
    m_cancelRate = dspin(0, 100, 1);
    m_cancelRate->setObjectName(u"cancelRate"_s);
    addRow(u"cancelRate"_s, m_cancelRate, u"cancel"_s);
    m_cancelDelay = dspin(0, 86400, 3);
    m_cancelDelay->setObjectName(u"cancelDelay"_s);
    m_cancelDelay->setSingleStep(0.1);
    addRow(u"cancelDelay"_s, m_cancelDelay);
    m_cancelTokens = ispin(0, 1000000);
    m_cancelTokens->setObjectName(u"cancelTokens"_s);
    addRow(u"cancelTokens"_s, m_cancelTokens);

    auto sectionTitle = [&] {
        auto *l = new QLabel(page);
        QFont sub = l->font();
        sub.setBold(true);
        l->setFont(sub);
        form->addRow(l);
        return l;
    };
    // Sessions (--num-sessions, --session-rate, --users, --history, --think-time[-ms],
    // --session-header): how a multi-turn dataset's sessions run (docs/sessions.md).
    m_sessionsTitle = sectionTitle();
    m_numSessions = ispin(0, 10000000);
    m_numSessions->setObjectName(u"numSessions"_s);
    addRow(u"numSessions"_s, m_numSessions, u"sessions"_s);
    m_sessionRate = dspin(0, 1e6, 3);
    m_sessionRate->setObjectName(u"sessionRate"_s);
    addRow(u"sessionRate"_s, m_sessionRate);
    m_users = ispin(0, 100000);
    m_users->setObjectName(u"users"_s);
    addRow(u"users"_s, m_users);
    m_history = new QComboBox(page);
    m_history->setObjectName(u"history"_s);
    for (HistoryMode h : {HistoryMode::Served, HistoryMode::Reference})
        m_history->addItem({}, int(h));
    addRow(u"history"_s, m_history);
    m_thinkModel = new QComboBox(page);
    m_thinkModel->setObjectName(u"thinkTime"_s);
    for (ThinkTimeModel t : {ThinkTimeModel::None, ThinkTimeModel::Fixed,
                             ThinkTimeModel::Exponential, ThinkTimeModel::Dataset})
        m_thinkModel->addItem({}, int(t));
    addRow(u"thinkTime"_s, m_thinkModel, u"think"_s);
    m_thinkMs = dspin(0, 1e9, 1);
    m_thinkMs->setObjectName(u"thinkTimeMs"_s);
    addRow(u"thinkTimeMs"_s, m_thinkMs);
    m_sessionHeader = new QLineEdit(page);
    m_sessionHeader->setObjectName(u"sessionHeader"_s);
    addRow(u"sessionHeader"_s, m_sessionHeader, u"sessionHeader"_s);

    // MLPerf scenario constraints (--mlperf-preset, --ttft-slo-ms, …): whether a scenario run is
    // VALID depends on them.
    m_mlperfTitle = sectionTitle();
    m_mlperfPreset = new QComboBox(page);
    m_mlperfPreset->setObjectName(u"mlperfPreset"_s);
    m_mlperfPreset->addItem({}, QString());
    for (const QString &name : mlperfPresetNames())
        m_mlperfPreset->addItem(name, name);
    addRow(u"mlperfPreset"_s, m_mlperfPreset, u"mlperf"_s);
    m_boundTtft = dspin(0, 1e7, 1);
    m_boundTtft->setObjectName(u"boundTtft"_s);
    addRow(u"boundTtft"_s, m_boundTtft);
    m_boundTpot = dspin(0, 1e7, 1);
    m_boundTpot->setObjectName(u"boundTpot"_s);
    addRow(u"boundTpot"_s, m_boundTpot);
    m_sloPercentile = dspin(0, 99.999, 3);
    m_sloPercentile->setObjectName(u"sloPercentile"_s);
    addRow(u"sloPercentile"_s, m_sloPercentile);
    m_minQueryCount = ispin(0, 100000000);
    addRow(u"minQueryCount"_s, m_minQueryCount);
    m_minDuration = dspin(0, 1e6, 0);
    addRow(u"minDuration"_s, m_minDuration);

    // How the profile runs (--sweep, --find-max-valid-rate, --rate-tolerance, --transport).
    m_executionTitle = sectionTitle();
    m_mode = new QComboBox(page);
    m_mode->setObjectName(u"mode"_s);
    for (RunMode m : {RunMode::Single, RunMode::Sweep, RunMode::MaxValidRate})
        m_mode->addItem({}, int(m));
    addRow(u"mode"_s, m_mode, u"execution"_s);
    m_sweepRates = ispin(0, 100);
    m_sweepRates->setObjectName(u"sweepRates"_s);
    addRow(u"sweepRates"_s, m_sweepRates);
    // A series (--num-runs): the same plan run N times, each run stored, the spread over runs
    // reported; it goes to the pipeline as RunRequest::numRuns like the CLI's flag.
    m_numRuns = ispin(1, limits::kMaxSeriesRuns);
    m_numRuns->setObjectName(u"numRuns"_s);
    addRow(u"numRuns"_s, m_numRuns, u"numRuns"_s);
    m_tolerance = dspin(0.1, 50, 1);
    m_tolerance->setObjectName(u"tolerance"_s);
    m_tolerance->setSuffix(u" %"_s);
    addRow(u"tolerance"_s, m_tolerance);
    m_transport = new QComboBox(page);
    m_transport->setObjectName(u"transport"_s);
    for (TransportKind k : {TransportKind::Socket, TransportKind::Qnam})
        m_transport->addItem({}, int(k));
    addRow(u"transport"_s, m_transport);

    // The requests themselves (vLLM's --temperature, --ignore-eos, --seed, --extra-body).
    m_requestTitle = sectionTitle();
    m_ignoreEos = new QCheckBox(page);
    m_ignoreEos->setObjectName(u"ignoreEos"_s);
    addRow(u"ignoreEos"_s, m_ignoreEos);
    m_temperature = new QLineEdit(page);
    m_temperature->setObjectName(u"temperature"_s);
    addRow(u"temperature"_s, m_temperature, u"temperature"_s);
    m_requestSeed = new QLineEdit(page);
    m_requestSeed->setObjectName(u"requestSeed"_s);
    addRow(u"requestSeed"_s, m_requestSeed, u"requestSeed"_s);
    m_extraBody = new QPlainTextEdit(page);
    m_extraBody->setObjectName(u"extraBody"_s);
    m_extraBody->setMaximumHeight(70);
    m_extraBody->setTabChangesFocus(true);
    addRow(u"extraBody"_s, m_extraBody, u"extraBody"_s);
    layout->addStretch(1);

    auto *right = new QWidget(split);
    // The plot shrinks before the form does: a chart's own minimum would take the room the form's
    // fields need at 1280x800.
    right->setMinimumWidth(240);
    auto *rlay = new QVBoxLayout(right);
    m_previewTitle = new QLabel(right);
    rlay->addWidget(m_previewTitle);
    m_preview = new SchedulePreview(right);
    rlay->addWidget(m_preview, 1);
    // No fixed sizes: the form takes the width its rows ask for (makeFormScrollArea), the plot the
    // rest.
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);

    auto changed = [this] {
        if (m_filling)
            return;
        updateWidgets();
        validate();
        emit edited();
    };
    for (QLineEdit *e : {m_name, m_seed, m_percentiles, m_temperature, m_requestSeed, m_tracePath,
                         m_sessionHeader})
        connect(e, &QLineEdit::textChanged, this, changed);
    connect(m_ignoreEos, &QCheckBox::toggled, this, changed);
    connect(m_extraBody, &QPlainTextEdit::textChanged, this, changed);
    for (QComboBox *c : {m_scenario, m_arrival, m_rampUp, m_mlperfPreset, m_mode, m_transport,
                         m_traceFormat, m_history, m_thinkModel, m_connectionMode})
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    for (QDoubleSpinBox *s :
         {m_rate,          m_burstiness,      m_rampStart,   m_rampEnd,       m_duration,
          m_warmupSeconds, m_metricsInterval, m_sloTtft,     m_sloTpot,       m_sloE2el,
          m_timeout,       m_boundTtft,       m_boundTpot,   m_sloPercentile, m_minDuration,
          m_traceScale,    m_tolerance,       m_sessionRate, m_thinkMs,       m_idleTimeout,
          m_cancelRate,    m_cancelDelay})
        connect(s, &QDoubleSpinBox::valueChanged, this, changed);
    for (QSpinBox *s :
         {m_maxConcurrency, m_closedLoop, m_numPrompts, m_warmupRequests, m_minQueryCount,
          m_sweepRates, m_numRuns, m_traceBlock, m_numSessions, m_users, m_cancelTokens,
          m_batchSize})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_cacheBust, &QCheckBox::toggled, this, changed);
    connect(m_cacheReset, &QComboBox::currentIndexChanged, this, [this, changed] {
        // A reset and unique prefixes are two policies: the reset's fallback may be the bust.
        const bool reset = m_cacheReset->currentIndex() > 0;
        if (reset)
            m_cacheBust->setChecked(false);
        m_cacheBust->setEnabled(!reset);
        changed();
    });
}

void LoadProfileEditor::retranslateUi()
{
    m_title->setText(tr("Load profile"));
    m_previewTitle->setText(tr("Arrival schedule (the same seed the run uses)"));
    const QList<QPair<QString, QString>> labels = {
        {u"name"_s, tr("&Name:")},
        {u"scenario"_s, tr("Scenario:")},
        {u"arrival"_s, tr("Arrival process:")},
        {u"rate"_s, tr("Request &rate (req/s):")},
        {u"burstiness"_s, tr("Burstiness:")},
        {u"rampUpStrategy"_s, tr("Ramp-up:")},
        {u"rampUp"_s, tr("Ramp-up rates (req/s):")},
        {u"maxConcurrency"_s, tr("Max concurrency:")},
        {u"closedLoop"_s, tr("Closed-loop concurrency:")},
        {u"numPrompts"_s, tr("Requests:")},
        {u"batchSize"_s, tr("Items per request:")},
        {u"duration"_s, tr("Duration (s):")},
        {u"warmupRequests"_s, tr("Warm-up requests:")},
        {u"warmupSeconds"_s, tr("Warm-up (s):")},
        {u"metricsInterval"_s, tr("Server metrics every (s):")},
        {u"seed"_s, tr("Seed:")},
        {u"sloTtft"_s, tr("SLO TTFT (ms):")},
        {u"sloTpot"_s, tr("SLO TPOT (ms):")},
        {u"sloE2el"_s, tr("SLO E2EL (ms):")},
        {u"percentiles"_s, tr("Percentiles:")},
        {u"timeout"_s, tr("Request timeout (s):")},
        {u"connectionMode"_s, tr("Connections:")},
        {u"idleTimeout"_s, tr("Idle timeout (s, 0 = none):")},
        {u"trace"_s, tr("Trace replay (JSONL):")},
        {u"traceScale"_s, tr("Trace time scale:")},
        {u"traceFormat"_s, tr("Trace format:")},
        {u"traceBlockSize"_s, tr("Trace block size (tokens):")},
        {u"numSessions"_s, tr("Sessions:")},
        {u"sessionRate"_s, tr("Session rate (sessions/s):")},
        {u"users"_s, tr("Users (closed loop):")},
        {u"history"_s, tr("History:")},
        {u"thinkTime"_s, tr("Think time:")},
        {u"thinkTimeMs"_s, tr("Think time (ms):")},
        {u"sessionHeader"_s, tr("Session header:")},
        {u"mlperfPreset"_s, tr("MLPerf preset:")},
        {u"boundTtft"_s, tr("TTFT bound (ms):")},
        {u"boundTpot"_s, tr("TPOT bound (ms):")},
        {u"sloPercentile"_s, tr("Bound percentile:")},
        {u"minQueryCount"_s, tr("Minimum queries:")},
        {u"minDuration"_s, tr("Minimum duration (s):")},
        {u"mode"_s, tr("Run as:")},
        {u"sweepRates"_s, tr("Sweep rates:")},
        {u"numRuns"_s, tr("Repeat runs:")},
        {u"tolerance"_s, tr("Search tolerance:")},
        {u"transport"_s, tr("HTTP client:")},
        {u"cache"_s, tr("Cache policy:")},
        {u"cacheReset"_s, tr("Prefix-cache reset:")},
        {u"cancelRate"_s, tr("Cancel requests (%):")},
        {u"cancelDelay"_s, tr("Cancel delay (s):")},
        {u"cancelTokens"_s, tr("Or cancel after tokens:")},
        {u"ignoreEos"_s, tr("End of sequence:")},
        {u"temperature"_s, tr("Temperature:")},
        {u"requestSeed"_s, tr("Sampling seed:")},
        {u"extraBody"_s, tr("Extra body (JSON):")},
    };
    m_labels.setTexts(labels);
    m_scenario->setItemText(0, tr("None (plain benchmark)"));
    m_scenario->setItemText(1, tr("MLPerf Server"));
    m_scenario->setItemText(2, tr("MLPerf Offline"));
    m_scenario->setItemText(3, tr("MLPerf SingleStream"));
    m_arrival->setItemText(0, tr("Poisson"));
    m_arrival->setItemText(1, tr("Constant"));
    m_arrival->setItemText(2, tr("Gamma (bursty)"));
    m_rampUp->setItemText(0, tr("None"));
    m_rampUp->setItemText(1, tr("Linear"));
    m_rampUp->setItemText(2, tr("Exponential"));
    m_rate->setSpecialValueText(tr("unlimited (all at once)"));
    m_maxConcurrency->setSpecialValueText(tr("unlimited"));
    m_closedLoop->setSpecialValueText(tr("off (open loop)"));
    m_numPrompts->setSpecialValueText(tr("by duration"));
    m_duration->setSpecialValueText(tr("by request count"));
    for (QDoubleSpinBox *s : {m_sloTtft, m_sloTpot, m_sloE2el})
        s->setSpecialValueText(tr("not set"));
    m_seed->setPlaceholderText(tr("0 … 18446744073709551615"));
    m_percentiles->setPlaceholderText(tr("e.g. 50, 90, 99"));
    m_cacheBust->setText(tr("Cache bust (random prefix per run)"));
    m_cancelRate->setSpecialValueText(tr("none"));
    m_cancelRate->setToolTip(
        tr("This share of the requests, chosen from the seed, is cancelled by the client: counted "
           "apart, neither a failure nor part of the latency statistics"));
    m_cancelDelay->setToolTip(tr("Seconds from the request being fully written to its cancel"));
    m_cancelTokens->setSpecialValueText(tr("off (after the delay)"));
    m_cancelTokens->setToolTip(
        tr("Cancel once this many token chunks arrived, instead of after the delay"));
    m_cacheReset->setItemText(0, tr("none: the cache as earlier traffic left it"));
    m_cacheReset->setItemText(1, tr("reset before the run; no run without a reset"));
    m_cacheReset->setItemText(2, tr("reset before the run; cache bust without a reset"));
    m_cacheReset->setToolTip(
        tr("Calls the engine's own prefix-cache reset before the run (vLLM POST "
           "/reset_prefix_cache, SGLang POST /flush_cache) and checks on its prefix-cache "
           "counters that the first requests found nothing cached"));
    m_cacheBust->setToolTip(
        tr("Cache bust: a random prefix per run keeps repeated runs independent "
           "of the server's prefix cache"));
    m_burstiness->setToolTip(tr("Gamma shape: 1 is Poisson, below 1 burstier, above 1 more even"));
    m_maxConcurrency->setToolTip(tr("Caps outstanding requests (open loop with a cap)"));
    m_batchSize->setToolTip(
        tr("Embeddings and rerank endpoints only: dataset items per request (the inputs of an "
           "embeddings request, the documents of a rerank request; vLLM's --random-batch-size)"));
    m_metricsInterval->setToolTip(
        tr("How often the server's Prometheus metrics are scraped during a run, besides once "
           "before the first request and once after the last (the SUT's scrape setting says "
           "what is scraped)"));
    m_closedLoop->setToolTip(tr("Keeps exactly this many requests in flight; the rate is ignored"));
    m_sloTtft->setToolTip(tr("Goodput counts requests meeting every SLO that is set"));
    m_warmupRequests->setToolTip(tr("Issued and stored, excluded from every metric"));
    m_requestTitle->setText(tr("Request parameters"));
    m_mlperfTitle->setText(tr("MLPerf scenario constraints"));
    m_executionTitle->setText(tr("Execution"));
    m_mlperfPreset->setItemText(0, tr("none (bounds below)"));
    for (QDoubleSpinBox *s : {m_boundTtft, m_boundTpot})
        s->setSpecialValueText(tr("not set"));
    m_sloPercentile->setSpecialValueText(tr("scenario default (Server 99, SingleStream 90)"));
    m_minQueryCount->setSpecialValueText(tr("not checked"));
    m_minDuration->setSpecialValueText(tr("not checked"));
    m_boundTtft->setToolTip(tr("The Server scenario is VALID when TTFT at the bound percentile "
                               "stays under this (with early stopping)"));
    m_tracePath->setPlaceholderText(tr("empty: arrivals from the rate above"));
    m_tracePath->setToolTip(tr("Replays send times and lengths from a JSONL trace: one object "
                               "per line with timestamp, input_tokens (or prompt) and "
                               "output_tokens"));
    m_traceScale->setToolTip(tr("Multiplies the trace's times: 0.5 replays twice as fast"));
    m_traceFormat->setItemText(0, tr("ServeBench (timestamp s, input_tokens, output_tokens)"));
    m_traceFormat->setItemText(1, tr("Mooncake (timestamp ms, input_length, output_length, "
                                     "hash_ids)"));
    m_traceBlock->setToolTip(tr("Mooncake: tokens per hash id (512 in the published traces)"));
    m_sessionsTitle->setText(tr("Sessions (multi-turn datasets)"));
    m_numSessions->setSpecialValueText(tr("by duration"));
    m_sessionRate->setSpecialValueText(tr("all at once"));
    m_sessionRate->setToolTip(tr("Sessions arriving per second (open loop); the arrival process "
                                 "and burstiness above apply"));
    m_users->setSpecialValueText(tr("off (open loop)"));
    m_users->setToolTip(tr("Closed loop: this many users, each starting its next session when "
                           "the last one ends"));
    m_connectionMode->setItemText(0, tr("Warm (opened before the clock)"));
    m_connectionMode->setItemText(1, tr("New per request (as vLLM's client)"));
    m_connectionMode->setItemText(2, tr("Lazy (opened on demand, kept alive)"));
    m_connectionMode->setToolTip(tr("Warm keeps connection set-up out of every request's times; "
                                    "per-request puts a handshake into every TTFT, like vLLM's "
                                    "benchmark client. The summary shows TTFT without set-up."));
    m_idleTimeout->setToolTip(tr("A response that sends nothing for this long fails as a "
                                 "timeout, whatever its total timeout."));
    m_history->setItemText(0, tr("Served answers (realistic)"));
    m_history->setItemText(1, tr("Reference answers (reproducible)"));
    m_history->setToolTip(tr("What a turn resends of the earlier answers: what the server "
                             "streamed, or the dataset's own answers"));
    m_thinkModel->setItemText(0, tr("None"));
    m_thinkModel->setItemText(1, tr("Fixed"));
    m_thinkModel->setItemText(2, tr("Exponential (mean below)"));
    m_thinkModel->setItemText(3, tr("From the dataset (think_time_ms)"));
    m_thinkMs->setToolTip(tr("The pause between a turn's answer and the next turn's send"));
    m_sessionHeader->setPlaceholderText(tr("e.g. X-Session-ID (empty: none)"));
    m_sessionHeader->setToolTip(tr("A header carrying the session's id, for routers that pin "
                                   "sessions to a replica"));
    m_mode->setItemText(0, tr("One run"));
    m_mode->setItemText(1, tr("Rate sweep (synchronous, max throughput, rates between)"));
    m_mode->setItemText(2, tr("Search the highest VALID Server rate"));
    m_sweepRates->setToolTip(tr("Rates between the synchronous baseline and the maximum "
                                "throughput"));
    m_numRuns->setToolTip(tr("Run the plan this many times as a series (--num-runs): each run is "
                             "stored on its own, and comparisons test candidates over runs "
                             "(the mean of the runs with its 95 % interval). One run only "
                             "for sweeps and searches."));
    m_tolerance->setToolTip(tr("The search stops when the bracket is narrower than this "
                               "fraction of the maximum throughput"));
    m_transport->setItemText(0, tr("socket (kernel receive times)"));
    m_transport->setItemText(1, tr("Qt network manager pool"));
    m_ignoreEos->setText(tr("Ignore EOS"));
    m_ignoreEos->setToolTip(tr("Sends ignore_eos: true (vLLM), so every request produces the "
                               "dataset's output length and runs stay comparable"));
    m_temperature->setPlaceholderText(tr("empty: not sent (the server's default)"));
    m_requestSeed->setPlaceholderText(tr("empty: not sent"));
    m_requestSeed->setToolTip(tr("Sent as the request's \"seed\"; the arrival schedule's seed "
                                 "is the Seed above"));
    m_extraBody->setPlaceholderText(u"{\"top_p\": 0.9}"_s);
    m_extraBody->setToolTip(tr("A JSON object merged into every request body"));
    holdComboWidths(m_scroll->widget());
    validate();
    m_preview->setProfile(profile());
}

void LoadProfileEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void LoadProfileEditor::updateWidgets()
{
    const auto arrival = ArrivalProcess(m_arrival->currentData().toInt());
    const bool ramp = RampUpStrategy(m_rampUp->currentData().toInt()) != RampUpStrategy::None;
    const bool closed = m_closedLoop->value() > 0;
    m_burstiness->setEnabled(arrival == ArrivalProcess::Gamma);
    m_rampStart->setEnabled(ramp);
    m_rampEnd->setEnabled(ramp);
    const bool trace = !m_tracePath->text().trimmed().isEmpty();
    m_rate->setEnabled(!ramp && !closed && !trace);
    m_traceScale->setEnabled(trace);
    m_cancelDelay->setEnabled(m_cancelRate->value() > 0 && m_cancelTokens->value() == 0);
    m_cancelTokens->setEnabled(m_cancelRate->value() > 0);
    m_traceFormat->setEnabled(trace);
    m_traceBlock->setEnabled(trace && TraceFormat(m_traceFormat->currentData().toInt()) ==
                                          TraceFormat::Mooncake);
    const auto think = ThinkTimeModel(m_thinkModel->currentData().toInt());
    m_thinkMs->setEnabled(think == ThinkTimeModel::Fixed || think == ThinkTimeModel::Exponential);
    m_sessionRate->setEnabled(m_users->value() == 0);
    const auto mode = RunMode(m_mode->currentData().toInt());
    m_sweepRates->setEnabled(mode == RunMode::Sweep);
    m_numRuns->setEnabled(mode == RunMode::Single);
    m_tolerance->setEnabled(mode == RunMode::MaxValidRate);
}

void LoadProfileEditor::browseTrace()
{
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Trace to replay"), m_tracePath->text(),
                                     tr("JSONL traces (*.jsonl);;All files (*)"));
    if (!file.isEmpty())
        m_tracePath->setText(file);
}

void LoadProfileEditor::setProfile(const QString &name, const LoadProfile &p,
                                   const RequestParams &params, const RunExecution &execution)
{
    m_filling = true;
    m_base = p;
    m_name->setText(name);
    m_scenario->setCurrentIndex(m_scenario->findData(int(p.scenario)));
    m_arrival->setCurrentIndex(m_arrival->findData(int(p.arrival)));
    m_rate->setValue(p.unlimitedRate() ? 0.0 : p.requestRate);
    m_burstiness->setValue(p.burstiness);
    m_rampUp->setCurrentIndex(m_rampUp->findData(int(p.rampUpStrategy)));
    m_rampStart->setValue(p.rampUpStartRps);
    m_rampEnd->setValue(p.rampUpEndRps);
    m_maxConcurrency->setValue(p.maxConcurrency);
    m_closedLoop->setValue(p.closedLoopConcurrency);
    m_numPrompts->setValue(p.numPrompts);
    m_batchSize->setValue(p.batchSize);
    m_duration->setValue(p.durationS);
    m_warmupRequests->setValue(p.warmupRequests);
    m_warmupSeconds->setValue(p.warmupSeconds);
    m_metricsInterval->setValue(p.metricsIntervalS);
    m_seed->setText(QString::number(p.seed));
    m_sloTtft->setValue(std::max(0.0, p.goodput.ttftMs));
    m_sloTpot->setValue(std::max(0.0, p.goodput.tpotMs));
    m_sloE2el->setValue(std::max(0.0, p.goodput.e2elMs));
    QStringList pcts;
    for (double v : p.metricPercentiles)
        pcts << QString::number(v);
    m_percentiles->setText(pcts.join(u", "_s));
    m_timeout->setValue(p.timeoutS);
    // An unknown name (a hand-edited project) shows as warm; validation names the field.
    m_connectionMode->setCurrentIndex(std::max(0, m_connectionMode->findData(p.connectionMode)));
    m_idleTimeout->setValue(p.idleTimeoutS);
    m_tracePath->setText(p.tracePath);
    m_traceScale->setValue(p.traceTimeScale);
    m_traceFormat->setCurrentIndex(m_traceFormat->findData(int(p.traceFormat)));
    m_traceBlock->setValue(p.traceBlockSize);
    m_numSessions->setValue(p.numSessions);
    m_sessionRate->setValue(p.sessionRate > 0 && p.sessionRate < 1e300 ? p.sessionRate : 0.0);
    m_users->setValue(p.sessionUsers);
    m_history->setCurrentIndex(m_history->findData(int(p.history)));
    m_thinkModel->setCurrentIndex(m_thinkModel->findData(int(p.thinkTime)));
    m_thinkMs->setValue(p.thinkTimeMs);
    m_sessionHeader->setText(p.sessionHeader);
    m_mlperfPreset->setCurrentIndex(std::max(0, m_mlperfPreset->findData(p.mlperfPreset)));
    m_boundTtft->setValue(std::max(0.0, p.ttftSloMs));
    m_boundTpot->setValue(std::max(0.0, p.tpotSloMs));
    m_sloPercentile->setValue(std::max(0.0, p.sloPercentile));
    m_minQueryCount->setValue(int(std::min<qint64>(p.minQueryCount, 100000000)));
    m_minDuration->setValue(p.minDurationS);
    m_mode->setCurrentIndex(m_mode->findData(int(execution.mode)));
    m_sweepRates->setValue(execution.sweepRates);
    m_numRuns->setValue(std::clamp(execution.numRuns, 1, limits::kMaxSeriesRuns));
    m_tolerance->setValue(execution.rateTolerance * 100);
    m_transport->setCurrentIndex(m_transport->findData(int(execution.transport)));
    m_cacheReset->setCurrentIndex(
        p.cacheReset ? std::max(1, m_cacheReset->findData(p.cacheResetFallback)) : 0);
    m_cacheBust->setChecked(p.cacheBust && !p.cacheReset);
    m_cacheBust->setEnabled(!p.cacheReset);
    m_cancelRate->setValue(p.cancelRatePct);
    m_cancelDelay->setValue(p.cancelDelayS);
    m_cancelTokens->setValue(p.cancelAfterTokens);
    m_ignoreEos->setChecked(params.ignoreEos);
    m_temperature->setText(params.temperature >= 0 ? QString::number(params.temperature)
                                                   : QString());
    m_requestSeed->setText(params.seed >= 0 ? QString::number(params.seed) : QString());
    m_extraBody->setPlainText(
        params.extraBody.isEmpty()
            ? QString()
            : QString::fromUtf8(QJsonDocument(params.extraBody).toJson(QJsonDocument::Compact)));
    m_filling = false;
    updateWidgets();
    validate();
    scrollFormToTop(m_scroll);
}

QString LoadProfileEditor::name() const
{
    return m_name->text().trimmed();
}

LoadProfile LoadProfileEditor::profile() const
{
    LoadProfile p = m_base;
    p.scenario = Scenario(m_scenario->currentData().toInt());
    p.arrival = ArrivalProcess(m_arrival->currentData().toInt());
    p.requestRate = m_rate->value() > 0 ? m_rate->value() : std::numeric_limits<double>::infinity();
    p.burstiness = p.arrival == ArrivalProcess::Poisson ? 1.0 : m_burstiness->value();
    if (p.arrival == ArrivalProcess::Constant)
        p.burstiness = 1.0;
    p.rampUpStrategy = RampUpStrategy(m_rampUp->currentData().toInt());
    p.rampUpStartRps = m_rampStart->value();
    p.rampUpEndRps = m_rampEnd->value();
    p.maxConcurrency = m_maxConcurrency->value();
    p.closedLoopConcurrency = m_closedLoop->value();
    p.numPrompts = m_numPrompts->value();
    p.batchSize = m_batchSize->value();
    p.durationS = m_duration->value();
    p.warmupRequests = m_warmupRequests->value();
    p.warmupSeconds = m_warmupSeconds->value();
    p.metricsIntervalS = m_metricsInterval->value();
    p.seed = m_seed->text().trimmed().toULongLong();
    p.goodput.ttftMs = m_sloTtft->value() > 0 ? m_sloTtft->value() : -1;
    p.goodput.tpotMs = m_sloTpot->value() > 0 ? m_sloTpot->value() : -1;
    p.goodput.e2elMs = m_sloE2el->value() > 0 ? m_sloE2el->value() : -1;
    p.metricPercentiles.clear();
    const QStringList parts = m_percentiles->text().split(u',', Qt::SkipEmptyParts);
    for (const QString &s : parts) {
        bool ok = false;
        const double v = s.trimmed().toDouble(&ok);
        if (ok)
            p.metricPercentiles.append(v);
    }
    p.timeoutS = m_timeout->value();
    p.connectionMode = m_connectionMode->currentData().toString();
    p.idleTimeoutS = m_idleTimeout->value();
    p.tracePath = m_tracePath->text().trimmed();
    p.traceTimeScale = m_traceScale->value();
    p.traceFormat = TraceFormat(m_traceFormat->currentData().toInt());
    p.traceBlockSize = m_traceBlock->value();
    p.numSessions = m_numSessions->value();
    p.sessionRate = m_sessionRate->value() > 0 ? m_sessionRate->value()
                                               : std::numeric_limits<double>::infinity();
    p.sessionUsers = m_users->value();
    p.history = HistoryMode(m_history->currentData().toInt());
    p.thinkTime = ThinkTimeModel(m_thinkModel->currentData().toInt());
    p.thinkTimeMs = m_thinkMs->value();
    p.sessionHeader = m_sessionHeader->text().trimmed();
    p.mlperfPreset = m_mlperfPreset->currentData().toString();
    p.ttftSloMs = m_boundTtft->value() > 0 ? m_boundTtft->value() : -1;
    p.tpotSloMs = m_boundTpot->value() > 0 ? m_boundTpot->value() : -1;
    p.sloPercentile = m_sloPercentile->value() > 0 ? m_sloPercentile->value() : -1;
    p.minQueryCount = m_minQueryCount->value();
    p.minDurationS = m_minDuration->value();
    p.cacheReset = m_cacheReset->currentIndex() > 0;
    p.cacheResetFallback = p.cacheReset ? m_cacheReset->currentData().toString() : u"refuse"_s;
    p.cacheBust = !p.cacheReset && m_cacheBust->isChecked();
    p.cancelRatePct = m_cancelRate->value();
    p.cancelAfterTokens = p.cancelRatePct > 0 ? m_cancelTokens->value() : 0;
    p.cancelDelayS = p.cancelRatePct > 0 && p.cancelAfterTokens == 0 ? m_cancelDelay->value() : 0;
    return p;
}

RunExecution LoadProfileEditor::execution() const
{
    RunExecution e;
    e.mode = RunMode(m_mode->currentData().toInt());
    e.sweepRates = m_sweepRates->value();
    e.rateTolerance = m_tolerance->value() / 100.0;
    // Sweeps and searches run each step once; the field is disabled for them.
    e.numRuns = e.mode == RunMode::Single ? m_numRuns->value() : 1;
    e.transport = TransportKind(m_transport->currentData().toInt());
    return e;
}

RequestParams LoadProfileEditor::params() const
{
    RequestParams r;
    r.ignoreEos = m_ignoreEos->isChecked();
    bool ok = false;
    const double t = m_temperature->text().trimmed().toDouble(&ok);
    r.temperature = ok && t >= 0 ? t : -1;
    const qint64 seed = m_requestSeed->text().trimmed().toLongLong(&ok);
    r.seed = ok && seed >= 0 ? seed : -1;
    r.extraBody = QJsonDocument::fromJson(m_extraBody->toPlainText().toUtf8()).object();
    return r;
}

void LoadProfileEditor::validate()
{
    QHash<QString, QString> e;
    const LoadProfile p = profile();
    if (name().isEmpty())
        e[u"name"_s] = tr("Give the load profile a name.");
    bool seedOk = false;
    m_seed->text().trimmed().toULongLong(&seedOk);
    if (!seedOk)
        e[u"seed"_s] = tr("A whole number from 0 to 18446744073709551615.");
    const QStringList parts = m_percentiles->text().split(u',', Qt::SkipEmptyParts);
    for (const QString &s : parts) {
        bool ok = false;
        const double v = s.trimmed().toDouble(&ok);
        if (!ok || !(v > 0 && v < 100)) {
            e[u"percentiles"_s] =
                tr("\"%1\" is not a percentile between 0 and 100.").arg(s.trimmed());
            break;
        }
    }
    if (const QString t = m_temperature->text().trimmed(); !t.isEmpty()) {
        bool ok = false;
        const double v = t.toDouble(&ok);
        if (!ok || !(v >= 0 && v <= 100))
            e[u"temperature"_s] = tr("A number from 0 upwards (0 is greedy), or empty.");
    }
    if (const QString s = m_requestSeed->text().trimmed(); !s.isEmpty()) {
        bool ok = false;
        if (s.toLongLong(&ok) < 0 || !ok)
            e[u"requestSeed"_s] = tr("A whole number from 0 to 9223372036854775807, or empty.");
    }
    if (const QByteArray body = m_extraBody->toPlainText().trimmed().toUtf8(); !body.isEmpty()) {
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
        if (pe.error != QJsonParseError::NoError)
            e[u"extraBody"_s] =
                tr("Not valid JSON at character %1: %2").arg(pe.offset + 1).arg(pe.errorString());
        else if (!doc.isObject())
            e[u"extraBody"_s] = tr("A JSON object, e.g. {\"top_p\": 0.9}.");
    }

    // Everything a run would refuse, in the run pipeline's own words: the profile is checked as
    // part of a request whose SUT and dataset are known to be fine.
    RunRequest request;
    request.plan.sut.builtInSimulator = true;
    request.plan.profile = p;
    request.plan.params = params();
    request.setExecution(execution());
    static const QHash<QString, QString> fieldKeys = {
        {u"request-rate"_s, u"rate"_s},
        {u"burstiness"_s, u"burstiness"_s},
        {u"arrival"_s, u"scenario"_s},
        {u"ramp-up-start-rps"_s, u"rampUp"_s},
        {u"ramp-up-end-rps"_s, u"rampUp"_s},
        {u"num-prompts"_s, u"count"_s},
        {u"duration"_s, u"count"_s},
        {u"warmup-requests"_s, u"warmup"_s},
        {u"warmup-seconds"_s, u"warmup"_s},
        {u"max-concurrency"_s, u"concurrency"_s},
        {u"concurrency"_s, u"concurrency"_s},
        {u"timeout"_s, u"timeout"_s},
        {u"connection-mode"_s, u"connectionMode"_s},
        {u"idle-timeout"_s, u"idleTimeout"_s},
        {u"trace"_s, u"trace"_s},
        {u"trace-time-scale"_s, u"trace"_s},
        {u"mlperf-preset"_s, u"mlperf"_s},
        {u"ttft-slo-ms"_s, u"mlperf"_s},
        {u"tpot-slo-ms"_s, u"mlperf"_s},
        {u"slo-percentile"_s, u"mlperf"_s},
        {u"min-query-count"_s, u"mlperf"_s},
        {u"min-duration"_s, u"mlperf"_s},
        {u"metric-percentiles"_s, u"percentiles"_s},
        {u"goodput"_s, u"slo"_s},
        {u"temperature"_s, u"temperature"_s},
        {u"sweep"_s, u"execution"_s},
        {u"rate-tolerance"_s, u"execution"_s},
        {u"find-max-valid-rate"_s, u"execution"_s},
        {u"num-runs"_s, u"numRuns"_s},
        {u"request-cancellation-rate"_s, u"cancel"_s},
        {u"request-cancellation-delay"_s, u"cancel"_s},
        {u"request-cancellation-after-tokens"_s, u"cancel"_s},
        {u"random-batch-size"_s, u"batchSize"_s},
    };
    static const QHash<QString, QString> sessionKeys = {
        {u"session-rate"_s, u"sessions"_s},  {u"users"_s, u"sessions"_s},
        {u"num-sessions"_s, u"sessions"_s},  {u"think-time"_s, u"think"_s},
        {u"think-time-ms"_s, u"think"_s},    {u"session-header"_s, u"sessionHeader"_s},
        {u"trace-block-size"_s, u"trace"_s},
    };
    for (const PlanIssue &issue : validateRunRequest(request)) {
        // Whether the session settings apply depends on the dataset the run uses: the run
        // checks that combination (ProjectRunner), the editor the settings themselves (below).
        if (qstrcmp(issue.message.id(), "plan.sessions.not_sessions") == 0 ||
            qstrcmp(issue.message.id(), "plan.batch.not_pooling") == 0)
            continue;
        const QString key =
            fieldKeys.value(issue.field, sessionKeys.value(issue.field, u"scenario"_s));
        if (!e.contains(key))
            e[key] = issue.message.translated();
    }
    // The session settings as a session workload would check them.
    RunRequest sessions = request;
    sessions.plan.dataset.multiTurn = true;
    sessions.plan.dataset.kind = DatasetKind::Custom; // any think-time model may apply
    sessions.plan.dataset.path = u"sessions.jsonl"_s;
    sessions.plan.profile.requestRate = std::numeric_limits<double>::infinity();
    for (const PlanIssue &issue : validateRunRequest(sessions)) {
        const QString key = sessionKeys.value(issue.field);
        if (!key.isEmpty() && !e.contains(key))
            e[key] = issue.message.translated();
    }

    m_errors.show(e);
    const bool valid = e.isEmpty();
    if (valid)
        m_preview->setProfile(p);
    if (valid != m_valid) {
        m_valid = valid;
        emit validityChanged(valid);
    }
}

bool LoadProfileEditor::isValid() const
{
    return m_valid;
}

QStringList LoadProfileEditor::errors() const
{
    return m_errors.errors();
}

QString LoadProfileEditor::errorFor(const QString &field) const
{
    return m_errors.errorFor(field);
}

void LoadProfileEditor::focusFirstField()
{
    focusFormField(m_scroll, m_name);
}
} // namespace sb
