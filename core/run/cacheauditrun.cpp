#include "cacheauditrun.h"

#include "client/endpointprobe.h"
#include "common/version.h"
#include "data/dataset.h"
#include "data/seededrng.h"
#include "data/syntheticprompt.h"
#include "run/runcontroller.h"
#include "run/runrequest.h"
#include "sim/simulator.h"

#include <QDateTime>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

const char *const kPassLabels[] = {"A (cold: new unique prefixes)", "B (warm: A's prompts again)",
                                   "C (control: new unique prefixes)"};

PlanIssue issue(const char *field, const char *id, const QStringList &args = {})
{
    return {QString::fromLatin1(field), Message(id, args)};
}

} // namespace

QJsonObject CacheAuditRequest::parametersJson() const
{
    return {{u"num_prompts"_s, numPrompts},      {u"random_input_len"_s, inputLen},
            {u"random_output_len"_s, outputLen}, {u"max_concurrency"_s, maxConcurrency},
            {u"seed"_s, QString::number(seed)},  {u"timeout_s"_s, timeoutS}};
}

QList<PlanIssue> validateCacheAudit(const CacheAuditRequest &r)
{
    // The SUT's checks are the run's (URL, headers, proxy).
    RunRequest asRun;
    asRun.plan.sut = r.sut;
    QList<PlanIssue> out;
    for (const PlanIssue &i : validateRunRequest(asRun))
        if (i.field == "base-url"_L1 || i.field == "endpoint"_L1 || i.field == "header"_L1 ||
            i.field == "proxy"_L1)
            out.append(i);
    if (r.numPrompts < 2 || r.numPrompts > limits::kMaxRequests)
        out.append(
            issue("num-prompts", "audit.num_prompts", {QString::number(limits::kMaxRequests)}));
    if (r.inputLen < 2 || r.inputLen > limits::kMaxTokens)
        out.append(
            issue("random-input-len", "audit.input_len", {QString::number(limits::kMaxTokens)}));
    if (r.outputLen < 1 || r.outputLen > limits::kMaxTokens)
        out.append(
            issue("random-output-len", "plan.tokens.range", {QString::number(limits::kMaxTokens)}));
    if (r.maxConcurrency < 1 || r.maxConcurrency > limits::kMaxConcurrency)
        out.append(issue("max-concurrency", "plan.concurrency.range",
                         {QString::number(limits::kMaxConcurrency)}));
    if (!(r.timeoutS > 0 && r.timeoutS <= limits::kMaxTimeoutS))
        out.append(issue("timeout", "plan.timeout.range", {QString::number(limits::kMaxTimeoutS)}));
    return out;
}

bool prepareCacheAudit(const CacheAuditRequest &request, const QByteArray &apiKey,
                       PreparedCacheAudit *out, PlanIssue *error)
{
    const QList<PlanIssue> issues = validateCacheAudit(request);
    if (!issues.isEmpty()) {
        *error = issues.first();
        return false;
    }
    PreparedCacheAudit p;
    p.request = request;
    p.apiKey = apiKey;
    SutConfig &sut = p.request.sut;
    if (sut.builtInSimulator) {
        // The built-in simulator is audited with a prefix cache to find: the audit then
        // demonstrates itself, and its tests have a known answer.
        SimConfig cfg;
        cfg.prefixCache = true;
        cfg.prefillMsPerToken = 0.1;
        cfg.recordLog = false;
        auto sim = std::make_shared<Simulator>(cfg);
        if (!sim->start()) {
            *error = issue("base-url", "prepare.simulator.start", {sim->errorString()});
            return false;
        }
        p.simulator = sim;
        sut.baseUrl = sim->baseUrl().toString();
        if (sut.name.isEmpty())
            sut.name = u"built-in simulator"_s;
        p.note = u"No endpoint given: auditing the built-in simulator at %1 with its prefix cache "
                 "ON (blocks of %2 tokens) and prefill %3 ms per uncached prompt token (TTFT %4 "
                 "ms + prefill)."_s.arg(sut.baseUrl)
                     .arg(cfg.prefixBlockTokens)
                     .arg(cfg.prefillMsPerToken)
                     .arg(cfg.ttftMs);
    }
    QString why;
    if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &p.transportOptions,
                                 &why)) {
        *error = issue(sut.caFile.isEmpty() ? "proxy" : "ca-file", "prepare.detail", {why});
        return false;
    }
    EndpointProbe probe(sut, apiKey, p.transportOptions,
                        int(std::min(request.timeoutS, 60.0) * 1000));
    const ModelList models = probe.models();
    if (!models.reachable) {
        *error = issue("base-url", "prepare.unreachable", {sut.baseUrl, models.error});
        return false;
    }
    if (sut.model.isEmpty()) {
        if (models.models.isEmpty()) {
            *error = issue("model", "prepare.model.none", {models.error});
            return false;
        }
        sut.model = models.models.first();
    }
    if (sut.name.isEmpty())
        sut.name = sut.baseUrl;
    *out = std::move(p);
    return true;
}

CacheAuditRun::CacheAuditRun(PreparedCacheAudit prepared, QObject *parent)
    : QObject(parent), m_prepared(std::move(prepared))
{}

CacheAuditRun::~CacheAuditRun()
{
    if (m_controller) {
        m_controller->disconnect(this);
        m_controller->stop();
    }
}

bool CacheAuditRun::start(QString *error)
{
    if (m_running) {
        *error = u"the audit is already running"_s;
        return false;
    }
    const CacheAuditRequest &r = m_prepared.request;
    // Prompt bodies from the seed; prefixes from a fresh nonce, so a second audit against the
    // same server starts cold too. One prefix word changes every block hash after it, which is
    // all a prefix cache keys on.
    SeededRng rng(r.seed);
    m_bodies.clear();
    for (int i = 0; i < r.numPrompts; ++i)
        m_bodies.append(SyntheticPromptBuilder::build(r.inputLen - 1, rng));
    m_nonce = QString::number(QRandomGenerator::system()->generate64(), 36);
    m_records.clear();
    m_running = true;
    m_stopped = false;
    QMetaObject::invokeMethod(this, &CacheAuditRun::startPass, Qt::QueuedConnection);
    return true;
}

void CacheAuditRun::stop()
{
    if (!m_running)
        return;
    m_stopped = true;
    if (m_controller && m_controller->status() == RunStatus::Running)
        m_controller->stop();
}

void CacheAuditRun::startPass()
{
    const int index = int(m_records.size());
    if (m_stopped) {
        m_running = false;
        emit finished(false, {});
        return;
    }
    if (index == 3) {
        m_result = auditCache(m_records[0], m_records[1], m_records[2]);
        m_running = false;
        emit finished(true, {});
        return;
    }
    const CacheAuditRequest &r = m_prepared.request;
    const QChar pass = index == 2 ? u'C' : u'A'; // B repeats A's prompts exactly
    QList<PromptItem> items;
    for (int i = 0; i < r.numPrompts; ++i) {
        PromptItem item;
        item.prompt = u"audit-%1-%2%3: "_s.arg(m_nonce).arg(pass).arg(i) + m_bodies.at(i);
        item.inputTokens = r.inputLen;
        item.outputTokens = r.outputLen;
        item.sourceIndex = i; // the pairing key (RequestRecord::datasetItem)
        items.append(item);
    }
    RunPlan plan;
    plan.name = u"audit-cache"_s;
    plan.sut = r.sut;
    plan.dataset.kind = DatasetKind::Random;
    plan.dataset.randomInputLen = r.inputLen;
    plan.dataset.randomOutputLen = r.outputLen;
    LoadProfile &p = plan.profile;
    p.numPrompts = r.numPrompts;
    p.requestRate = std::numeric_limits<double>::infinity();
    p.maxConcurrency = r.maxConcurrency;
    p.seed = r.seed;
    p.timeoutS = r.timeoutS;
    p.cacheBust = false; // the audit places its own prefixes
    plan.params.ignoreEos = true;

    m_controller = std::make_unique<RunController>();
    m_controller->configure(plan, items, m_prepared.apiKey);
    m_controller->setTransportOptions(m_prepared.transportOptions);
    connect(m_controller.get(), &RunController::finished, this, &CacheAuditRun::onPassFinished);
    QString error;
    if (!m_controller->start(&error)) {
        m_running = false;
        emit finished(false, error);
        return;
    }
    emit passStarted(index, QString::fromLatin1(kPassLabels[index]));
}

void CacheAuditRun::onPassFinished()
{
    const bool interrupted = m_controller->status() != RunStatus::Completed;
    m_records.append(m_controller->records());
    m_controller.release()->deleteLater();
    if (interrupted)
        m_stopped = true;
    startPass();
}

QJsonObject CacheAuditRun::resultJson() const
{
    const SutConfig &sut = m_prepared.request.sut;
    QJsonObject j = m_result.toJson();
    j[u"tool_version"_s] = QString::fromLatin1(toolVersion());
    j[u"date"_s] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    j[u"sut"_s] = QJsonObject{{u"base_url"_s, sut.baseUrl},
                              {u"endpoint"_s, sut.endpoint},
                              {u"backend"_s, QString::fromLatin1(apiFlavourName(sut.flavour))},
                              {u"model"_s, sut.model},
                              {u"built_in_simulator"_s, sut.builtInSimulator}};
    j[u"parameters"_s] = m_prepared.request.parametersJson();
    return j;
}

} // namespace sb
