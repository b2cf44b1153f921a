#include "cacheauditdialog.h"

#include "common/backgroundjobs.h"
#include "keychainstore.h"
#include "run/cacheauditrun.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

CacheAuditDialog::CacheAuditDialog(const SutConfig &sut, ApiKeyStore *keys, QWidget *parent)
    : QDialog(parent), m_sut(sut), m_keys(keys), m_jobs(new BackgroundJobs(this))
{
    setObjectName(u"cacheAuditDialog"_s);
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    auto spin = [&](int lo, int hi, int value, const char *name) {
        auto *s = new QSpinBox(this);
        s->setRange(lo, hi);
        s->setValue(value);
        s->setObjectName(QString::fromLatin1(name));
        return s;
    };
    const CacheAuditRequest defaults;
    m_prompts = spin(2, 100000, defaults.numPrompts, "prompts");
    m_inputLen = spin(2, 1000000, defaults.inputLen, "inputLen");
    m_outputLen = spin(1, 1000000, defaults.outputLen, "outputLen");
    m_concurrency = spin(1, 100000, defaults.maxConcurrency, "concurrency");
    m_seed = new QLineEdit(QString::number(defaults.seed), this);
    m_timeout = new QDoubleSpinBox(this);
    m_timeout->setRange(1, 86400);
    m_timeout->setValue(defaults.timeoutS);
    for (QWidget *w : std::initializer_list<QWidget *>{m_prompts, m_inputLen, m_outputLen,
                                                       m_concurrency, m_seed, m_timeout}) {
        auto *label = new QLabel(this);
        m_labels.append(label);
        form->addRow(label, w);
    }
    m_status = new QLabel(this);
    m_status->setObjectName(u"status"_s);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_result = new QPlainTextEdit(this);
    m_result->setObjectName(u"result"_s);
    m_result->setReadOnly(true);
    m_result->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_result->setMinimumSize(640, 260);
    layout->addWidget(m_result, 1);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_start = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_stop = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_save = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_start->setObjectName(u"start"_s);
    m_stop->setObjectName(u"stop"_s);
    m_save->setObjectName(u"save"_s);
    layout->addWidget(m_buttons);
    connect(m_start, &QPushButton::clicked, this, &CacheAuditDialog::startAudit);
    connect(m_stop, &QPushButton::clicked, this, &CacheAuditDialog::stopAudit);
    connect(m_save, &QPushButton::clicked, this, &CacheAuditDialog::saveJson);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &CacheAuditDialog::reject);
    if (m_keys)
        connect(m_keys, &ApiKeyStore::keyFetched, this,
                [this](quint64 ticket, const QByteArray &key, const QString &) {
                    if (ticket == m_keyTicket)
                        prepare(key);
                });
    retranslateUi();
    setBusy(false);
    m_save->setEnabled(false);
}

CacheAuditDialog::~CacheAuditDialog()
{
    delete m_jobs; // joins a preparation in flight
    m_jobs = nullptr;
    m_audit.reset();
}

void CacheAuditDialog::retranslateUi()
{
    setWindowTitle(tr("Prefix-cache audit: %1").arg(m_sut.name));
    m_intro->setText(
        tr("Finds out whether the server caches prompt prefixes. Pass A sends the prompts behind "
           "new unique prefixes (cold), pass B sends exactly A's prompts again (warm if the "
           "server caches prefixes), pass C sends the same bodies behind new prefixes (cold "
           "again, a control for drift). The effect is the TTFT ratio B/C, paired by prompt, "
           "with a 95 % confidence interval (docs/cache-audit.md)."));
    const QStringList labels = {tr("Prompts per pass:"),    tr("Prompt length (tokens):"),
                                tr("Output tokens:"),       tr("Max concurrency:"),
                                tr("Seed of the prompts:"), tr("Request timeout (s):")};
    for (qsizetype i = 0; i < m_labels.size() && i < labels.size(); ++i)
        m_labels[i]->setText(labels.at(i));
    m_start->setText(tr("Start audit"));
    m_stop->setText(tr("Stop"));
    m_save->setText(tr("Save JSON…"));
}

void CacheAuditDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void CacheAuditDialog::reject()
{
    stopAudit();
    QDialog::reject();
}

bool CacheAuditDialog::isRunning() const
{
    return !m_start->isEnabled();
}

QString CacheAuditDialog::resultText() const
{
    return m_result->toPlainText();
}

void CacheAuditDialog::setBusy(bool busy)
{
    m_start->setEnabled(!busy);
    m_stop->setEnabled(busy);
    for (QWidget *w : std::initializer_list<QWidget *>{m_prompts, m_inputLen, m_outputLen,
                                                       m_concurrency, m_seed, m_timeout})
        w->setEnabled(!busy);
}

void CacheAuditDialog::startAudit()
{
    if (isRunning())
        return;
    m_result->clear();
    m_save->setEnabled(false);
    setBusy(true);
    if (m_sut.builtInSimulator || !m_keys) {
        prepare(m_sut.builtInSimulator ? QByteArray() : qgetenv("OPENAI_API_KEY"));
        return;
    }
    m_status->setText(tr("Reading the API key …"));
    m_keyTicket = m_keys->fetch(m_sut.apiKeyRef);
}

void CacheAuditDialog::prepare(const QByteArray &apiKey)
{
    CacheAuditRequest request;
    request.sut = m_sut;
    request.numPrompts = m_prompts->value();
    request.inputLen = m_inputLen->value();
    request.outputLen = m_outputLen->value();
    request.maxConcurrency = m_concurrency->value();
    bool seedOk = false;
    request.seed = m_seed->text().trimmed().toULongLong(&seedOk);
    request.timeoutS = m_timeout->value();
    if (!seedOk) {
        m_status->setText(tr("The seed must be a whole number from 0 to 18446744073709551615."));
        setBusy(false);
        return;
    }
    m_status->setText(tr("Checking the endpoint …"));
    struct Prepared
    {
        bool ok = false;
        std::shared_ptr<PreparedCacheAudit> audit;
        PlanIssue issue;
    };
    m_jobs->run(
        [request, apiKey] {
            Prepared p;
            p.audit = std::make_shared<PreparedCacheAudit>();
            p.ok = prepareCacheAudit(request, apiKey, p.audit.get(), &p.issue);
            return p;
        },
        [this](Prepared p) {
            if (!p.ok) {
                m_status->setText(tr("The audit cannot start: %1: %2")
                                      .arg(p.issue.field, p.issue.message.translated()));
                setBusy(false);
                emit auditFinished(false);
                return;
            }
            launch(std::move(*p.audit));
        });
}

void CacheAuditDialog::launch(PreparedCacheAudit prepared)
{
    if (!prepared.note.isEmpty())
        m_result->appendPlainText(prepared.note);
    m_audit = std::make_unique<CacheAuditRun>(std::move(prepared));
    connect(m_audit.get(), &CacheAuditRun::passStarted, this,
            [this](int index, const QString &label) {
                m_status->setText(tr("Pass %1 of 3: %2 …").arg(index + 1).arg(label));
            });
    connect(m_audit.get(), &CacheAuditRun::finished, this, [this](bool ok, const QString &error) {
        setBusy(false);
        if (ok) {
            m_status->setText(tr("Audit finished."));
            m_result->appendPlainText(m_audit->result().formatText());
            m_save->setEnabled(true);
        } else {
            m_status->setText(error.isEmpty() ? tr("Stopped before the audit finished.")
                                              : tr("The audit failed: %1").arg(error));
        }
        emit auditFinished(ok);
    });
    QString error;
    if (!m_audit->start(&error)) {
        m_status->setText(tr("The audit failed: %1").arg(error));
        setBusy(false);
        emit auditFinished(false);
    }
}

void CacheAuditDialog::stopAudit()
{
    if (m_audit && m_audit->isRunning())
        m_audit->stop();
}

void CacheAuditDialog::saveJson()
{
    if (!m_audit)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the audit"), u"cache-audit.json"_s, tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    const QByteArray data = QJsonDocument(m_audit->resultJson()).toJson(QJsonDocument::Indented);
    m_jobs->run(
        [path, data] {
            QSaveFile f(path);
            if (!f.open(QIODevice::WriteOnly) || f.write(data) < 0 || !f.commit())
                return f.errorString();
            return QString();
        },
        [this, path](QString error) {
            m_status->setText(error.isEmpty() ? tr("Saved %1.").arg(path)
                                              : tr("Cannot write %1: %2").arg(path, error));
        });
}

} // namespace sb
