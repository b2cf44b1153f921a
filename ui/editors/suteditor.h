#pragma once

#include "editorform.h"
#include "fielderror.h"

#include "config/runplan.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace sb {

class ApiKeyStore;
class ConnectionProbe;
class FieldError;
struct ConnectionProbeResult;

// Edits one SUT (docs/design.md, vocabulary): every descriptive field, the API key's reference
// (never the key itself: it goes to the keychain), and a connection test. Validates as the user
// types; each problem is shown under its field.
class SutEditor : public QWidget
{
    Q_OBJECT
public:
    explicit SutEditor(QWidget *parent = nullptr);
    ~SutEditor() override;

    void setKeyStore(ApiKeyStore *store);
    // A new entity: its first field takes the focus (editorform.h).
    void focusFirstField();
    void setConfig(const SutConfig &config);
    SutConfig config() const;

    bool isValid() const;
    QStringList errors() const;
    // Field keys: name, baseUrl, endpoint, model, extraHeaders, apiKey, metrics, metricsTargets.
    QString errorFor(const QString &field) const;

    // The running connection test, for tests and for the main window's status bar.
    ConnectionProbe *probe() const { return m_probe; }
    QString probeText() const;
    // The metrics URL field's placeholder: the URL "auto" scrapes (for tests).
    QString metricsPlaceholder() const;
    QString keyStatusText() const;

public slots:
    void testConnection();
    void saveKeyToKeychain();
    // Saves the token typed for a metrics target under the entry named beside it; a target
    // refers to it as token-keychain=ENTRY.
    void saveTokenToKeychain();

signals:
    void edited();
    void validityChanged(bool valid);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildUi();
    void retranslateUi();
    void validate();
    void updateKeyWidgets();
    void onProbeFinished(const ConnectionProbeResult &result);
    // The metrics URL field's placeholder: the URL a run scrapes for c's own endpoint.
    void updateMetricsPlaceholder(const SutConfig &c);
    // The metrics targets, one `name=URL[,token-env=V|,token-keychain=E]` per line (the syntax
    // of --metrics-target); badLine: the first line that is not (1-based, 0 when all are).
    static QList<MetricsTarget> parseTargetLines(const QString &text, int *badLine);

    bool m_loading = false;
    bool m_valid = true;
    bool m_keychainNoteSaid = false; // the status bar heard "no keychain here" already
    ApiKeyStore *m_keys = nullptr;
    ConnectionProbe *m_probe;
    quint64 m_keyTicket = 0;
    quint64 m_storeTicket = 0;
    FieldErrors m_errors;
    FormLabels m_labels;

    QScrollArea *m_scroll;
    QLineEdit *m_name;
    QCheckBox *m_simulator;
    QLineEdit *m_baseUrl;
    QLineEdit *m_endpoint;
    QComboBox *m_flavour;
    QLineEdit *m_model;
    QLineEdit *m_revision;
    QLineEdit *m_engine;
    QLineEdit *m_engineVersion;
    QLineEdit *m_gpuModel;
    QSpinBox *m_gpuCount;
    QLineEdit *m_image;
    QSpinBox *m_replicas;
    QSpinBox *m_containers;
    QSpinBox *m_workers;
    QLineEdit *m_region;
    QLineEdit *m_clientLocation;
    QLineEdit *m_caFile;
    QPushButton *m_caBrowse;
    QLineEdit *m_proxy;
    QLineEdit *m_tokenizer;
    QPushButton *m_tokenizerBrowse;
    // A managed server (docs/managed-servers.md): ServeBench starts and stops it.
    QLineEdit *m_serverStart;
    QLineEdit *m_serverStop;
    QLineEdit *m_serverHealth;
    QSpinBox *m_serverTimeout;
    QComboBox *m_serverLifetime;
    QPlainTextEdit *m_headers;
    QPlainTextEdit *m_notes;
    QComboBox *m_keySource;
    QLineEdit *m_keyName;
    QLineEdit *m_keyValue;
    QPushButton *m_saveKey;
    QLabel *m_keyStatus;
    QComboBox *m_metricsMode;
    QLineEdit *m_metricsUrl;
    QPlainTextEdit *m_metricsTargets;
    QLineEdit *m_tokenEntry;
    QLineEdit *m_tokenValue;
    QPushButton *m_saveToken;
    QPushButton *m_test;
    QLabel *m_probeResult;
    QLabel *m_title;
};

} // namespace sb
