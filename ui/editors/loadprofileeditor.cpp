#include "loadprofileeditor.h"

#include "fielderror.h"
#include "schedulepreview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
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
    auto *scroll = makeFormScrollArea(split);
    scroll->setMinimumWidth(440);
    QWidget *page = scroll->widget();
    auto *layout = new QVBoxLayout(page);
    m_title = makeEditorTitle(page);
    layout->addWidget(m_title);
    auto *form = new QFormLayout;
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
    addRow(u"burstiness"_s, m_burstiness);
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
    m_duration = dspin(0, 1e7, 1);
    m_duration->setObjectName(u"duration"_s);
    addRow(u"duration"_s, m_duration);
    m_warmupRequests = ispin(0, 100000000);
    m_warmupRequests->setObjectName(u"warmupRequests"_s);
    addRow(u"warmupRequests"_s, m_warmupRequests, u"warmup"_s);
    m_warmupSeconds = dspin(0, 1e6, 1);
    addRow(u"warmupSeconds"_s, m_warmupSeconds);
    m_seed = new QLineEdit(page);
    m_seed->setObjectName(u"seed"_s);
    addRow(u"seed"_s, m_seed, u"seed"_s);
    m_sloTtft = dspin(0, 1e7, 1);
    m_sloTpot = dspin(0, 1e7, 1);
    m_sloE2el = dspin(0, 1e7, 1);
    m_sloTtft->setObjectName(u"sloTtft"_s);
    addRow(u"sloTtft"_s, m_sloTtft);
    addRow(u"sloTpot"_s, m_sloTpot);
    addRow(u"sloE2el"_s, m_sloE2el);
    m_percentiles = new QLineEdit(page);
    m_percentiles->setObjectName(u"percentiles"_s);
    addRow(u"percentiles"_s, m_percentiles, u"percentiles"_s);
    m_timeout = dspin(1, 1e6, 0);
    addRow(u"timeout"_s, m_timeout);
    m_cacheBust = new QCheckBox(page);
    m_cacheBust->setObjectName(u"cacheBust"_s);
    addRow(u"cache"_s, m_cacheBust);

    // The requests themselves (vLLM's --temperature, --ignore-eos, --seed, --extra-body).
    m_requestTitle = new QLabel(page);
    QFont sub = m_requestTitle->font();
    sub.setBold(true);
    m_requestTitle->setFont(sub);
    form->addRow(m_requestTitle);
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
    auto *rlay = new QVBoxLayout(right);
    m_previewTitle = new QLabel(right);
    rlay->addWidget(m_previewTitle);
    m_preview = new SchedulePreview(right);
    rlay->addWidget(m_preview, 1);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({480, 800});

    auto changed = [this] {
        if (m_filling)
            return;
        updateWidgets();
        validate();
        emit edited();
    };
    for (QLineEdit *e : {m_name, m_seed, m_percentiles, m_temperature, m_requestSeed})
        connect(e, &QLineEdit::textChanged, this, changed);
    connect(m_ignoreEos, &QCheckBox::toggled, this, changed);
    connect(m_extraBody, &QPlainTextEdit::textChanged, this, changed);
    for (QComboBox *c : {m_scenario, m_arrival, m_rampUp})
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    for (QDoubleSpinBox *s : {m_rate, m_burstiness, m_rampStart, m_rampEnd, m_duration,
                              m_warmupSeconds, m_sloTtft, m_sloTpot, m_sloE2el, m_timeout})
        connect(s, &QDoubleSpinBox::valueChanged, this, changed);
    for (QSpinBox *s : {m_maxConcurrency, m_closedLoop, m_numPrompts, m_warmupRequests})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_cacheBust, &QCheckBox::toggled, this, changed);
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
        {u"duration"_s, tr("Duration (s):")},
        {u"warmupRequests"_s, tr("Warm-up requests:")},
        {u"warmupSeconds"_s, tr("Warm-up (s):")},
        {u"seed"_s, tr("Seed:")},
        {u"sloTtft"_s, tr("SLO TTFT (ms):")},
        {u"sloTpot"_s, tr("SLO TPOT (ms):")},
        {u"sloE2el"_s, tr("SLO E2EL (ms):")},
        {u"percentiles"_s, tr("Percentiles:")},
        {u"timeout"_s, tr("Request timeout (s):")},
        {u"cache"_s, tr("Cache policy:")},
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
    m_cacheBust->setToolTip(
        tr("Cache bust: a random prefix per run keeps repeated runs independent "
           "of the server's prefix cache"));
    m_burstiness->setToolTip(tr("Gamma shape: 1 is Poisson, below 1 burstier, above 1 more even"));
    m_maxConcurrency->setToolTip(tr("Caps outstanding requests (open loop with a cap)"));
    m_closedLoop->setToolTip(tr("Keeps exactly this many requests in flight; the rate is ignored"));
    m_sloTtft->setToolTip(tr("Goodput counts requests meeting every SLO that is set"));
    m_warmupRequests->setToolTip(tr("Issued and stored, excluded from every metric"));
    m_requestTitle->setText(tr("Request parameters"));
    m_ignoreEos->setText(tr("Ignore EOS"));
    m_ignoreEos->setToolTip(tr("Sends ignore_eos: true (vLLM), so every request produces the "
                               "dataset's output length and runs stay comparable"));
    m_temperature->setPlaceholderText(tr("empty: not sent (the server's default)"));
    m_requestSeed->setPlaceholderText(tr("empty: not sent"));
    m_requestSeed->setToolTip(tr("Sent as the request's \"seed\"; the arrival schedule's seed "
                                 "is the Seed above"));
    m_extraBody->setPlaceholderText(u"{\"top_p\": 0.9}"_s);
    m_extraBody->setToolTip(tr("A JSON object merged into every request body"));
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
    m_rate->setEnabled(!ramp && !closed);
}

void LoadProfileEditor::setProfile(const QString &name, const LoadProfile &p,
                                   const RequestParams &params)
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
    m_duration->setValue(p.durationS);
    m_warmupRequests->setValue(p.warmupRequests);
    m_warmupSeconds->setValue(p.warmupSeconds);
    m_seed->setText(QString::number(p.seed));
    m_sloTtft->setValue(std::max(0.0, p.goodput.ttftMs));
    m_sloTpot->setValue(std::max(0.0, p.goodput.tpotMs));
    m_sloE2el->setValue(std::max(0.0, p.goodput.e2elMs));
    QStringList pcts;
    for (double v : p.metricPercentiles)
        pcts << QString::number(v);
    m_percentiles->setText(pcts.join(u", "_s));
    m_timeout->setValue(p.timeoutS);
    m_cacheBust->setChecked(p.cacheBust);
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
    p.durationS = m_duration->value();
    p.warmupRequests = m_warmupRequests->value();
    p.warmupSeconds = m_warmupSeconds->value();
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
    p.cacheBust = m_cacheBust->isChecked();
    return p;
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
    if (p.rampUpStrategy != RampUpStrategy::None) {
        if (!(p.rampUpStartRps > 0) || !(p.rampUpEndRps > 0))
            e[u"rampUp"_s] = tr("Both ramp-up rates must be above 0.");
        else if (p.rampUpStartRps > p.rampUpEndRps)
            e[u"rampUp"_s] = tr("The start rate exceeds the end rate.");
    }
    if (p.numPrompts <= 0 && p.durationS <= 0)
        e[u"count"_s] = tr("Set a number of requests or a duration.");
    if (p.numPrompts > 0 && p.warmupRequests >= p.numPrompts)
        e[u"warmup"_s] = tr("Warm-up would use every request: nothing would be measured.");
    if (p.closedLoopConcurrency > 0 && p.maxConcurrency > 0)
        e[u"concurrency"_s] = tr("Choose a cap (open loop) or a closed loop, not both.");
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
    if (p.scenario == Scenario::Server && p.unlimitedRate() &&
        p.rampUpStrategy == RampUpStrategy::None)
        e[u"rate"_s] = tr("The Server scenario needs a finite target rate.");
    if (p.scenario == Scenario::Offline && !p.unlimitedRate())
        e[u"rate"_s] = tr("The Offline scenario issues every request at once: set the rate to "
                          "unlimited.");
    if (p.scenario == Scenario::Server && p.arrival != ArrivalProcess::Poisson)
        e[u"scenario"_s] = tr("MLPerf Server uses Poisson arrivals.");
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

} // namespace sb
