#pragma once

#include "config/runplan.h"

#include <QDialog>
#include <memory>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace sb {

class ApiKeyStore;
class BackgroundJobs;
class CacheAuditRun;
struct PreparedCacheAudit;

// The prefix-cache audit of one SUT, as `servebench-cli audit-cache` runs it (core/run's
// CacheAuditRun): three passes over the same prompt bodies, and the paired TTFT ratio with its
// interval. Not modal; preparation runs in a worker thread, the passes in the transport's.
class CacheAuditDialog : public QDialog
{
    Q_OBJECT
public:
    CacheAuditDialog(const SutConfig &sut, ApiKeyStore *keys, QWidget *parent = nullptr);
    ~CacheAuditDialog() override;

    bool isRunning() const;
    QString resultText() const;

public slots:
    void startAudit();
    void stopAudit();

signals:
    void auditFinished(bool ok);

protected:
    void changeEvent(QEvent *event) override;
    void reject() override;

private:
    void retranslateUi();
    void prepare(const QByteArray &apiKey);
    void launch(PreparedCacheAudit prepared);
    void setBusy(bool busy);
    void saveJson();

    SutConfig m_sut;
    ApiKeyStore *m_keys;
    BackgroundJobs *m_jobs;
    quint64 m_keyTicket = 0;
    std::unique_ptr<CacheAuditRun> m_audit;
    QLabel *m_intro;
    QSpinBox *m_prompts;
    QSpinBox *m_inputLen;
    QSpinBox *m_outputLen;
    QSpinBox *m_concurrency;
    QLineEdit *m_seed;
    QDoubleSpinBox *m_timeout;
    QLabel *m_status;
    QPlainTextEdit *m_result;
    QPushButton *m_start;
    QPushButton *m_stop;
    QPushButton *m_save;
    QDialogButtonBox *m_buttons;
    QList<QLabel *> m_labels;
};

} // namespace sb
