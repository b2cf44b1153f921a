#include "suteditor.h"

#include "client/proxyconfig.h"
#include "run/managedserver.h"

#include <cmath>
#include "config/runplan.h"
#include "connectionprobe.h"
#include "fielderror.h"
#include "keychainbackend.h"
#include "keychainstore.h"
#include "run/metricsplan.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
enum KeySource { KeyDefault, KeyEnv, KeyKeychain };
enum MetricsMode { MetricsAuto, MetricsOff, MetricsUrl };

// A file path with its Browse button in one row (the CA file, the tokenizer): the line edit is
// named `name`, the button `name` + "Browse"; the row is the line edit's parent.
QLineEdit *pathField(QWidget *page, const QString &name, QPushButton **browse)
{
    auto *row = new QWidget(page);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *edit = new QLineEdit(row);
    edit->setObjectName(name);
    *browse = new QPushButton(row);
    (*browse)->setObjectName(name + u"Browse"_s);
    layout->addWidget(edit, 1);
    layout->addWidget(*browse);
    return edit;
}

HeaderList parseHeaders(const QString &text, QString *error)
{
    HeaderList out;
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(u':');
        if (colon <= 0) {
            if (error && error->isEmpty())
                *error = SutEditor::tr("Line %1: write a header as \"Name: value\".").arg(i + 1);
            continue;
        }
        const QString name = line.left(colon).trimmed();
        const QString value = line.mid(colon + 1).trimmed();
        if (looksLikeSecretHeader(name) && !isApiKeyReference(value) && error && error->isEmpty())
            *error = SutEditor::tr("Line %1: %2 carries a credential. Headers are stored in the "
                                   "project; put the key in the API key field and write "
                                   "{api_key} here where it goes (e.g. \"%2: {api_key}\").")
                         .arg(i + 1)
                         .arg(name);
        out.append({name, value});
    }
    return out;
}
} // namespace

SutEditor::SutEditor(QWidget *parent) : QWidget(parent), m_probe(new ConnectionProbe(this))
{
    buildUi();
    retranslateUi();
    connect(m_probe, &ConnectionProbe::progress, this,
            [this](const QString &m) { m_probeResult->setText(m); });
    connect(m_probe, &ConnectionProbe::finished, this, &SutEditor::onProbeFinished);
    validate();
}

SutEditor::~SutEditor() = default;

void SutEditor::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = makeFormScrollArea(this);
    outer->addWidget(m_scroll);
    QWidget *page = m_scroll->widget();
    auto *layout = new QVBoxLayout(page);
    m_title = makeEditorTitle(page);
    layout->addWidget(m_title);

    auto *form = new QFormLayout;
    setUpFormLayout(form);
    layout->addLayout(form);

    auto addRow = [&](const QString &key, QWidget *field, bool withError) {
        QLabel *label = m_labels.add(key, field, page);
        form->addRow(label, withError ? m_errors.wrap(key, field, page) : field);
    };
    auto spin = [&](int max) {
        auto *s = new QSpinBox(page);
        s->setRange(0, max);
        return s;
    };

    m_name = new QLineEdit(page);
    m_name->setObjectName(u"name"_s);
    addRow(u"name"_s, m_name, true);
    m_simulator = new QCheckBox(page);
    m_simulator->setObjectName(u"simulator"_s);
    addRow(u"simulator"_s, m_simulator, false);
    m_baseUrl = new QLineEdit(page);
    m_baseUrl->setObjectName(u"baseUrl"_s);
    m_baseUrl->setPlaceholderText(u"http://gpu-host:8000"_s);
    addRow(u"baseUrl"_s, m_baseUrl, true);
    m_flavour = new QComboBox(page);
    m_flavour->setObjectName(u"flavour"_s);
    m_flavour->addItem({}, int(ApiFlavour::Completions));
    m_flavour->addItem({}, int(ApiFlavour::Chat));
    m_flavour->addItem({}, int(ApiFlavour::Responses));
    m_flavour->addItem({}, int(ApiFlavour::Messages));
    m_flavour->addItem({}, int(ApiFlavour::Embeddings));
    m_flavour->addItem({}, int(ApiFlavour::Rerank));
    addRow(u"flavour"_s, m_flavour, false);
    m_endpoint = new QLineEdit(page);
    m_endpoint->setObjectName(u"endpoint"_s);
    addRow(u"endpoint"_s, m_endpoint, true);
    m_model = new QLineEdit(page);
    m_model->setObjectName(u"model"_s);
    addRow(u"model"_s, m_model, true);
    // The connection test right under the fields it tests, its result beside it: reachable
    // without scrolling, and never pushed away by the notes further down (the API key's).
    auto *testRow = new QWidget(page);
    auto *testLayout = new QHBoxLayout(testRow);
    testLayout->setContentsMargins(0, 0, 0, 0);
    m_test = new QPushButton(testRow);
    m_test->setObjectName(u"testConnection"_s);
    m_probeResult = new QLabel(testRow);
    m_probeResult->setObjectName(u"probeResult"_s);
    m_probeResult->setWordWrap(true);
    m_probeResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testLayout->addWidget(m_test, 0, Qt::AlignTop);
    testLayout->addWidget(m_probeResult, 1);
    form->addRow(QString(), testRow);
    m_revision = new QLineEdit(page);
    addRow(u"revision"_s, m_revision, false);
    m_engine = new QLineEdit(page);
    m_engine->setPlaceholderText(u"vLLM, SGLang, TGI, TensorRT-LLM …"_s);
    addRow(u"engine"_s, m_engine, false);
    m_engineVersion = new QLineEdit(page);
    addRow(u"engineVersion"_s, m_engineVersion, false);
    m_gpuModel = new QLineEdit(page);
    m_gpuModel->setPlaceholderText(u"H100 80GB SXM"_s);
    addRow(u"gpuModel"_s, m_gpuModel, false);
    m_gpuCount = spin(4096);
    addRow(u"gpuCount"_s, m_gpuCount, false);
    m_image = new QLineEdit(page);
    m_image->setPlaceholderText(u"vllm/vllm-openai:v0.10.1"_s);
    addRow(u"image"_s, m_image, false);
    m_replicas = spin(100000);
    addRow(u"replicas"_s, m_replicas, false);
    m_containers = spin(100000);
    addRow(u"containers"_s, m_containers, false);
    m_workers = spin(100000);
    addRow(u"workers"_s, m_workers, false);
    m_region = new QLineEdit(page);
    addRow(u"region"_s, m_region, false);
    m_clientLocation = new QLineEdit(page);
    addRow(u"clientLocation"_s, m_clientLocation, false);
    m_headers = new QPlainTextEdit(page);
    m_headers->setObjectName(u"extraHeaders"_s);
    m_headers->setMaximumHeight(70);
    m_headers->setTabChangesFocus(true);
    addRow(u"extraHeaders"_s, m_headers, true);
    // How the endpoint is reached: a private CA and the proxy, as `run --ca-file / --proxy`.
    m_caFile = pathField(page, u"caFile"_s, &m_caBrowse);
    addRow(u"caFile"_s, m_caFile->parentWidget(), true);
    m_proxy = new QLineEdit(page);
    m_proxy->setObjectName(u"proxy"_s);
    addRow(u"proxy"_s, m_proxy, true);
    // The model's tokenizer, as `run --tokenizer` (docs/tokenizers.md).
    m_tokenizer = pathField(page, u"tokenizer"_s, &m_tokenizerBrowse);
    addRow(u"tokenizer"_s, m_tokenizer->parentWidget(), true);
    // A managed server, as `run --server-start-cmd …` (docs/managed-servers.md).
    m_serverStart = new QLineEdit(page);
    m_serverStart->setObjectName(u"serverStart"_s);
    addRow(u"serverStart"_s, m_serverStart, true);
    m_serverStop = new QLineEdit(page);
    m_serverStop->setObjectName(u"serverStop"_s);
    addRow(u"serverStop"_s, m_serverStop, false);
    m_serverHealth = new QLineEdit(page);
    m_serverHealth->setObjectName(u"serverHealth"_s);
    addRow(u"serverHealth"_s, m_serverHealth, true);
    m_serverTimeout = new QSpinBox(page);
    m_serverTimeout->setObjectName(u"serverTimeout"_s);
    m_serverTimeout->setRange(1, 86400);
    m_serverTimeout->setValue(600);
    addRow(u"serverTimeout"_s, m_serverTimeout, false);
    m_serverLifetime = new QComboBox(page);
    m_serverLifetime->setObjectName(u"serverLifetime"_s);
    m_serverLifetime->addItem(QString(), u"session"_s);
    m_serverLifetime->addItem(QString(), u"run"_s);
    addRow(u"serverLifetime"_s, m_serverLifetime, false);
    m_notes = new QPlainTextEdit(page);
    m_notes->setMaximumHeight(90);
    m_notes->setTabChangesFocus(true);
    addRow(u"notes"_s, m_notes, false);

    // API key: where it lives, never the key itself in the project.
    m_keySource = new QComboBox(page);
    m_keySource->setObjectName(u"keySource"_s);
    m_keySource->addItem({}, KeyDefault);
    m_keySource->addItem({}, KeyEnv);
    m_keySource->addItem({}, KeyKeychain);
    addRow(u"keySource"_s, m_keySource, false);
    m_keyName = new QLineEdit(page);
    m_keyName->setObjectName(u"keyName"_s);
    addRow(u"apiKey"_s, m_keyName, true);
    auto *keyRow = new QWidget(page);
    auto *keyLayout = new QHBoxLayout(keyRow);
    keyLayout->setContentsMargins(0, 0, 0, 0);
    m_keyValue = new QLineEdit(keyRow);
    m_keyValue->setObjectName(u"keyValue"_s);
    m_keyValue->setEchoMode(QLineEdit::Password);
    m_saveKey = new QPushButton(keyRow);
    m_saveKey->setObjectName(u"saveKey"_s);
    keyLayout->addWidget(m_keyValue, 1);
    keyLayout->addWidget(m_saveKey);
    addRow(u"keyValue"_s, keyRow, false);
    m_keyStatus = new QLabel(page);
    m_keyStatus->setObjectName(u"keyStatus"_s);
    m_keyStatus->setWordWrap(true);
    form->addRow(QString(), m_keyStatus);

    // Server metrics (docs/server-metrics.md): what is scraped beside the runs. Tokens of extra
    // targets are references, as the API key's: the token itself goes to the keychain or stays
    // in the environment.
    auto *metricsRow = new QWidget(page);
    auto *metricsLayout = new QHBoxLayout(metricsRow);
    metricsLayout->setContentsMargins(0, 0, 0, 0);
    m_metricsMode = new QComboBox(metricsRow);
    m_metricsMode->setObjectName(u"metricsMode"_s);
    m_metricsMode->addItem({}, MetricsAuto);
    m_metricsMode->addItem({}, MetricsOff);
    m_metricsMode->addItem({}, MetricsUrl);
    m_metricsUrl = new QLineEdit(metricsRow);
    m_metricsUrl->setObjectName(u"metricsUrl"_s);
    metricsLayout->addWidget(m_metricsMode);
    metricsLayout->addWidget(m_metricsUrl, 1);
    addRow(u"metrics"_s, metricsRow, true);
    m_metricsTargets = new QPlainTextEdit(page);
    m_metricsTargets->setObjectName(u"metricsTargets"_s);
    m_metricsTargets->setMaximumHeight(70);
    m_metricsTargets->setTabChangesFocus(true);
    m_metricsTargets->setPlaceholderText(
        u"dcgm=http://gpu-host:9400/metrics,token-env=DCGM_TOKEN"_s);
    addRow(u"metricsTargets"_s, m_metricsTargets, true);
    auto *tokenRow = new QWidget(page);
    auto *tokenLayout = new QHBoxLayout(tokenRow);
    tokenLayout->setContentsMargins(0, 0, 0, 0);
    m_tokenEntry = new QLineEdit(tokenRow);
    m_tokenEntry->setObjectName(u"tokenEntry"_s);
    m_tokenValue = new QLineEdit(tokenRow);
    m_tokenValue->setObjectName(u"tokenValue"_s);
    m_tokenValue->setEchoMode(QLineEdit::Password);
    m_saveToken = new QPushButton(tokenRow);
    m_saveToken->setObjectName(u"saveToken"_s);
    tokenLayout->addWidget(m_tokenEntry);
    tokenLayout->addWidget(m_tokenValue, 1);
    tokenLayout->addWidget(m_saveToken);
    addRow(u"metricsToken"_s, tokenRow, false);

    layout->addStretch(1);

    auto changed = [this] {
        if (m_loading)
            return;
        validate();
        emit edited();
    };
    for (QLineEdit *e :
         {m_name, m_baseUrl, m_endpoint, m_model, m_revision, m_engine, m_engineVersion, m_gpuModel,
          m_image, m_region, m_clientLocation, m_keyName, m_caFile, m_proxy, m_tokenizer,
          m_serverStart, m_serverStop, m_serverHealth})
        connect(e, &QLineEdit::textChanged, this, changed);
    connect(m_serverTimeout, &QSpinBox::valueChanged, this, changed);
    connect(m_serverLifetime, &QComboBox::currentIndexChanged, this, changed);
    for (QSpinBox *s : {m_gpuCount, m_replicas, m_containers, m_workers})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_headers, &QPlainTextEdit::textChanged, this, changed);
    connect(m_metricsTargets, &QPlainTextEdit::textChanged, this, changed);
    connect(m_metricsUrl, &QLineEdit::textChanged, this, changed);
    connect(m_metricsMode, &QComboBox::currentIndexChanged, this, [this, changed] {
        m_metricsUrl->setEnabled(m_metricsMode->currentData().toInt() == MetricsUrl);
        changed();
    });
    connect(m_saveToken, &QPushButton::clicked, this, &SutEditor::saveTokenToKeychain);
    connect(m_notes, &QPlainTextEdit::textChanged, this, changed);
    connect(m_flavour, &QComboBox::currentIndexChanged, this, changed);
    connect(m_simulator, &QCheckBox::toggled, this, [this, changed] {
        m_baseUrl->setEnabled(!m_simulator->isChecked());
        changed();
    });
    connect(m_keySource, &QComboBox::currentIndexChanged, this, [this, changed] {
        if (!m_loading) {
            const int src = m_keySource->currentData().toInt();
            if (src == KeyEnv && m_keyName->text().isEmpty())
                m_keyName->setText(ApiKeyStore::fallbackVariable());
            if (src == KeyKeychain && m_keyName->text().isEmpty())
                m_keyName->setText(m_name->text().trimmed());
        }
        updateKeyWidgets();
        changed();
    });
    connect(m_caBrowse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Choose a CA certificate file"), QFileInfo(m_caFile->text()).absolutePath(),
            tr("Certificates (*.pem *.crt *.cer);;All files (*)"));
        if (!file.isEmpty())
            m_caFile->setText(file);
    });
    connect(m_tokenizerBrowse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Choose the model's tokenizer"), QFileInfo(m_tokenizer->text()).absolutePath(),
            tr("Tokenizers (tokenizer.json *.tiktoken);;All files (*)"));
        if (!file.isEmpty())
            m_tokenizer->setText(file);
    });
    connect(m_saveKey, &QPushButton::clicked, this, &SutEditor::saveKeyToKeychain);
    connect(m_test, &QPushButton::clicked, this, &SutEditor::testConnection);
    updateKeyWidgets();
}

void SutEditor::retranslateUi()
{
    m_title->setText(tr("System under test"));
    const QList<QPair<QString, QString>> labels = {
        {u"name"_s, tr("&Name:")},
        {u"simulator"_s, tr("Built-in simulator:")},
        {u"baseUrl"_s, tr("&Base URL:")},
        {u"flavour"_s, tr("API flavour:")},
        {u"endpoint"_s, tr("Endpoint path:")},
        {u"model"_s, tr("&Model:")},
        {u"revision"_s, tr("Weights revision:")},
        {u"engine"_s, tr("Serving engine:")},
        {u"engineVersion"_s, tr("Engine version:")},
        {u"gpuModel"_s, tr("GPU model:")},
        {u"gpuCount"_s, tr("GPU count:")},
        {u"image"_s, tr("Container image:")},
        {u"replicas"_s, tr("Replicas:")},
        {u"containers"_s, tr("Containers:")},
        {u"workers"_s, tr("Workers per container:")},
        {u"region"_s, tr("Region:")},
        {u"clientLocation"_s, tr("Client location:")},
        {u"extraHeaders"_s, tr("Extra headers:")},
        {u"caFile"_s, tr("CA certificates:")},
        {u"proxy"_s, tr("HTTP proxy:")},
        {u"tokenizer"_s, tr("Tokenizer:")},
        {u"serverStart"_s, tr("Server start command:")},
        {u"serverStop"_s, tr("Server stop command:")},
        {u"serverHealth"_s, tr("Server health URL:")},
        {u"serverTimeout"_s, tr("Server start timeout:")},
        {u"serverLifetime"_s, tr("Server restarted:")},
        {u"notes"_s, tr("Notes:")},
        {u"keySource"_s, tr("API key source:")},
        {u"apiKey"_s, tr("Variable / account:")},
        {u"keyValue"_s, tr("API key:")},
        {u"metrics"_s, tr("Server metrics:")},
        {u"metricsTargets"_s, tr("More metrics targets:")},
        {u"metricsToken"_s, tr("Target token:")},
    };
    m_labels.setTexts(labels);
    m_simulator->setText(tr("Start ServeBench's own simulator for runs (no server needed)"));
    m_flavour->setItemText(0, tr("OpenAI completions (/v1/completions)"));
    m_flavour->setItemText(1, tr("OpenAI chat (/v1/chat/completions)"));
    m_flavour->setItemText(2, tr("OpenAI Responses (/v1/responses)"));
    m_flavour->setItemText(3, tr("Anthropic Messages (/v1/messages)"));
    m_flavour->setItemText(4, tr("Embeddings, not streamed (/v1/embeddings)"));
    m_flavour->setItemText(5, tr("Rerank, not streamed (/v1/rerank or /rerank)"));
    m_endpoint->setPlaceholderText(tr("empty: the flavour's default path"));
    m_model->setPlaceholderText(tr("model id as the server lists it in /v1/models"));
    m_revision->setPlaceholderText(tr("e.g. a Hugging Face commit hash"));
    m_headers->setPlaceholderText(tr("One \"Name: value\" per line"));
    m_notes->setPlaceholderText(tr("Anything a reader of the report should know"));
    m_keySource->setItemText(KeyDefault, tr("OPENAI_API_KEY environment variable"));
    m_keySource->setItemText(KeyEnv, tr("Another environment variable"));
    m_keySource->setItemText(KeyKeychain, tr("System keychain"));
    m_keyValue->setPlaceholderText(tr("paste the key here, then save it to the keychain"));
    m_saveKey->setText(tr("Save to keychain"));
    m_test->setText(tr("&Test connection"));
    m_test->setToolTip(tr("Lists /v1/models, sends one streamed request and tells whether the "
                          "endpoint really streams or buffers the whole answer"));
    m_baseUrl->setToolTip(tr("scheme://host:port of the OpenAI-compatible server; a trailing /v1 "
                             "is accepted"));
    m_keySource->setToolTip(tr("The key is never written into the project file: only where to "
                               "find it"));
    m_headers->setToolTip(tr("Sent with every request. Credentials belong in the API key field."));
    m_caFile->setPlaceholderText(tr("empty: the system's certificate authorities only"));
    m_caFile->setToolTip(tr("A PEM file of CA certificates trusted for this https endpoint "
                            "besides the system's, for servers with a private CA"));
    m_caBrowse->setText(tr("Browse…"));
    m_proxy->setPlaceholderText(tr("empty: from the environment (http_proxy, https_proxy, "
                                   "no_proxy); none: direct"));
    m_proxy->setToolTip(tr("An http:// proxy URL, or none. A proxy password is never stored: "
                           "put it in the environment's https_proxy instead."));
    m_tokenizer->setPlaceholderText(
        tr("empty: token counts from the server's usage (synthetic prompts approximate)"));
    m_tokenizer->setToolTip(
        tr("The model's tokenizer.json, a folder holding one, or a *.tiktoken file (run "
           "--tokenizer). With it synthetic prompts hold exactly their token lengths, dataset "
           "lengths are real token counts, and output tokens are counted from the streamed text "
           "when the server sends no usage."));
    m_tokenizerBrowse->setText(tr("Browse…"));
    m_serverStart->setPlaceholderText(
        tr("empty: the server runs already; e.g. vllm serve MODEL --port 8000"));
    m_serverStart->setToolTip(
        tr("ServeBench starts this shell command before a run, waits until the health URL "
           "answers, runs, and stops it; its output is stored in the project. Write secrets as "
           "$VARIABLE: the command is stored as written."));
    m_serverStop->setPlaceholderText(tr("empty: SIGTERM to its process group, SIGKILL after 10 s"));
    m_serverHealth->setPlaceholderText(tr("empty: the base URL's /health"));
    m_serverTimeout->setSuffix(tr(" s"));
    m_serverLifetime->setItemText(0, tr("once per run command or study cell"));
    m_serverLifetime->setItemText(1, tr("before every run of a sweep or series"));
    m_metricsMode->setItemText(MetricsAuto, tr("Automatic: the base URL's /metrics"));
    m_metricsMode->setItemText(MetricsOff, tr("Off"));
    m_metricsMode->setItemText(MetricsUrl, tr("This URL:"));
    m_metricsMode->setToolTip(
        tr("Prometheus metrics scraped beside every run: the engine's queue, KV cache and "
           "counters. Automatic keeps the base URL's /metrics when it answers and turns it off "
           "with a note when it does not; a URL of its own is scraped whatever it answers."));
    m_metricsTargets->setToolTip(
        tr("Further Prometheus targets (a DCGM or node exporter), one per line: "
           "name=URL, optionally followed by ,token-env=VARIABLE or ,token-keychain=ENTRY. The "
           "token itself is never written into the project: only where to find it."));
    m_tokenEntry->setPlaceholderText(tr("keychain entry"));
    m_tokenValue->setPlaceholderText(tr("paste a target's token, then save it to the keychain"));
    m_saveToken->setText(tr("Save to keychain"));
    holdComboWidths(m_scroll->widget());
    m_gpuCount->setSpecialValueText(tr("not recorded"));
    m_replicas->setSpecialValueText(tr("not recorded"));
    m_containers->setSpecialValueText(tr("not recorded"));
    m_workers->setSpecialValueText(tr("not recorded"));
    validate();
}

void SutEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SutEditor::setKeyStore(ApiKeyStore *store)
{
    if (m_keys)
        m_keys->disconnect(this);
    m_keys = store;
    if (!m_keys)
        return;
    connect(m_keys, &ApiKeyStore::stored, this,
            [this](quint64 ticket, bool, const QString &message) {
                if (ticket != m_storeTicket)
                    return;
                m_keyStatus->setText(message);
                emit statusMessage(message);
            });
    connect(m_keys, &ApiKeyStore::keyFetched, this,
            [this](quint64 ticket, const QByteArray &key, const QString &message) {
                if (ticket != m_keyTicket)
                    return;
                if (!message.isEmpty()) {
                    // Without a keychain every test would say the same: the status bar hears
                    // it once, the line under the key keeps saying where the key comes from.
                    const bool noKeychain = !m_keys->keychainAvailable();
                    if (!noKeychain || !m_keychainNoteSaid)
                        emit statusMessage(message);
                    m_keychainNoteSaid = m_keychainNoteSaid || noKeychain;
                    m_keyStatus->setText(message);
                    m_keyStatus->setToolTip(noKeychain
                                                ? tr("The keychain reported: %1")
                                                      .arg(m_keys->backend()->unavailableReason())
                                                : QString());
                }
                SutConfig sut = config();
                m_probe->start(sut, key);
            });
}

void SutEditor::setConfig(const SutConfig &c)
{
    m_loading = true;
    m_name->setText(c.name);
    m_simulator->setChecked(c.builtInSimulator);
    m_baseUrl->setEnabled(!c.builtInSimulator);
    m_baseUrl->setText(c.baseUrl);
    m_endpoint->setText(c.endpoint);
    m_flavour->setCurrentIndex(qMax(0, m_flavour->findData(int(c.flavour))));
    m_model->setText(c.model);
    m_revision->setText(c.weightsRevision);
    m_engine->setText(c.engine);
    m_engineVersion->setText(c.engineVersion);
    m_gpuModel->setText(c.gpuModel);
    m_gpuCount->setValue(c.gpuCount);
    m_image->setText(c.image);
    m_replicas->setValue(c.replicas);
    m_containers->setValue(c.containers);
    m_workers->setValue(c.workersPerContainer);
    m_region->setText(c.region);
    m_clientLocation->setText(c.clientLocation);
    QStringList headerLines;
    for (const auto &[k, v] : c.extraHeaders)
        headerLines << k + u": "_s + v;
    m_headers->setPlainText(headerLines.join(u'\n'));
    m_notes->setPlainText(c.notes);
    m_caFile->setText(c.caFile);
    m_proxy->setText(c.proxy);
    m_tokenizer->setText(c.tokenizer);
    m_serverStart->setText(c.managed.startCommand);
    m_serverStop->setText(c.managed.stopCommand);
    m_serverHealth->setText(c.managed.healthUrl);
    m_serverTimeout->setValue(int(std::lround(c.managed.startTimeoutS)));
    m_serverLifetime->setCurrentIndex(std::max(0, m_serverLifetime->findData(c.managed.lifetime)));
    if (c.apiKeyRef.startsWith("env:"_L1)) {
        m_keySource->setCurrentIndex(KeyEnv);
        m_keyName->setText(c.apiKeyRef.mid(4));
    } else if (c.apiKeyRef.startsWith("keychain:"_L1)) {
        m_keySource->setCurrentIndex(KeyKeychain);
        m_keyName->setText(c.apiKeyRef.mid(9));
    } else {
        m_keySource->setCurrentIndex(KeyDefault);
        m_keyName->clear();
    }
    const ServerMetricsConfig &m = c.serverMetrics;
    const int mode = m.sut == "off"_L1 ? MetricsOff : m.sut == "auto"_L1 ? MetricsAuto : MetricsUrl;
    m_metricsMode->setCurrentIndex(mode);
    m_metricsUrl->setText(mode == MetricsUrl ? m.sut : QString());
    m_metricsUrl->setEnabled(mode == MetricsUrl);
    QStringList targetLines;
    for (const MetricsTarget &t : m.targets)
        targetLines << metricsTargetFlag(t);
    m_metricsTargets->setPlainText(targetLines.join(u'\n'));
    m_tokenValue->clear();
    m_keyValue->clear();
    m_keyStatus->clear();
    m_keyStatus->setToolTip(QString());
    m_probeResult->clear();
    m_loading = false;
    updateKeyWidgets();
    validate();
    scrollFormToTop(m_scroll);
}

SutConfig SutEditor::config() const
{
    SutConfig c;
    c.name = m_name->text().trimmed();
    c.builtInSimulator = m_simulator->isChecked();
    c.baseUrl = m_baseUrl->text().trimmed();
    while (c.baseUrl.endsWith(u'/'))
        c.baseUrl.chop(1);
    c.endpoint = m_endpoint->text().trimmed();
    c.flavour = ApiFlavour(m_flavour->currentData().toInt());
    c.model = m_model->text().trimmed();
    c.weightsRevision = m_revision->text().trimmed();
    c.engine = m_engine->text().trimmed();
    c.engineVersion = m_engineVersion->text().trimmed();
    c.gpuModel = m_gpuModel->text().trimmed();
    c.gpuCount = m_gpuCount->value();
    c.image = m_image->text().trimmed();
    c.replicas = m_replicas->value();
    c.containers = m_containers->value();
    c.workersPerContainer = m_workers->value();
    c.region = m_region->text().trimmed();
    c.clientLocation = m_clientLocation->text().trimmed();
    c.notes = m_notes->toPlainText();
    c.caFile = m_caFile->text().trimmed();
    c.proxy = m_proxy->text().trimmed();
    c.tokenizer = m_tokenizer->text().trimmed();
    c.managed.startCommand = m_serverStart->text().trimmed();
    c.managed.stopCommand = m_serverStop->text().trimmed();
    c.managed.healthUrl = m_serverHealth->text().trimmed();
    c.managed.startTimeoutS = m_serverTimeout->value();
    c.managed.lifetime = m_serverLifetime->currentData().toString();
    QString ignored;
    c.extraHeaders = parseHeaders(m_headers->toPlainText(), &ignored);
    switch (m_metricsMode->currentData().toInt()) {
    case MetricsOff:
        c.serverMetrics.sut = u"off"_s;
        break;
    case MetricsUrl:
        c.serverMetrics.sut = m_metricsUrl->text().trimmed();
        break;
    default:
        c.serverMetrics.sut = u"auto"_s;
    }
    c.serverMetrics.targets = parseTargetLines(m_metricsTargets->toPlainText(), nullptr);
    const QString keyName = m_keyName->text().trimmed();
    switch (m_keySource->currentData().toInt()) {
    case KeyEnv:
        c.apiKeyRef = ApiKeyStore::envRef(keyName);
        break;
    case KeyKeychain:
        c.apiKeyRef = ApiKeyStore::keychainRef(keyName);
        break;
    default:
        c.apiKeyRef.clear();
    }
    return c;
}

void SutEditor::updateKeyWidgets()
{
    const int src = m_keySource->currentData().toInt();
    m_keyName->setEnabled(src != KeyDefault);
    m_keyValue->setEnabled(src == KeyKeychain);
    m_saveKey->setEnabled(src == KeyKeychain);
    // Known already to have no keychain: say where this SUT's key comes from without a test.
    if (src == KeyKeychain && m_keys && !m_keys->keychainAvailable() &&
        m_keyStatus->text().isEmpty())
        m_keyStatus->setText(m_keys->keychainFallbackNote());
}

void SutEditor::validate()
{
    QHash<QString, QString> e;
    const SutConfig c = config();
    if (c.name.isEmpty())
        e[u"name"_s] = tr("Give the SUT a name: runs are grouped and compared by it.");
    if (!c.builtInSimulator) {
        const QUrl url(c.baseUrl, QUrl::StrictMode);
        if (c.baseUrl.isEmpty())
            e[u"baseUrl"_s] = tr("Enter the server's base URL, e.g. http://gpu-host:8000.");
        else if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) ||
                 url.host().isEmpty())
            e[u"baseUrl"_s] = tr("Not an http:// or https:// URL with a host.");
        else if (url.hasQuery() || url.hasFragment())
            e[u"baseUrl"_s] = tr("The base URL takes no query or fragment.");
        if (c.model.isEmpty())
            e[u"model"_s] =
                tr("Enter the model id the server serves (Test connection lists them).");
    }
    if (!c.endpoint.isEmpty() && !c.endpoint.startsWith(u'/') &&
        !c.endpoint.startsWith("http://"_L1) && !c.endpoint.startsWith("https://"_L1))
        e[u"endpoint"_s] = tr("The path starts with / (for example /v1/completions).");
    else if (c.endpoint.contains(u' '))
        e[u"endpoint"_s] = tr("The path contains a space.");
    if (c.managed.enabled()) {
        if (c.builtInSimulator)
            e[u"serverStart"_s] = tr("The built-in simulator is started by ServeBench itself: "
                                     "a managed server needs its base URL.");
        else if (const QString secret = literalSecretIn(c.managed.startCommand); !secret.isEmpty())
            e[u"serverStart"_s] = tr("%1 is written out: the command is stored in the project. "
                                     "Write it as $VARIABLE and set it in the environment.")
                                      .arg(secret);
        const QUrl health(c.managed.healthUrl, QUrl::StrictMode);
        if (!c.managed.healthUrl.isEmpty() &&
            (!health.isValid() || health.host().isEmpty() ||
             (health.scheme() != "http"_L1 && health.scheme() != "https"_L1)))
            e[u"serverHealth"_s] = tr("Not an http:// or https:// URL with a host.");
    }
    QString headerError;
    parseHeaders(m_headers->toPlainText(), &headerError);
    if (!headerError.isEmpty())
        e[u"extraHeaders"_s] = headerError;
    // Syntax only: the CA file is read when a run starts, off the GUI thread.
    if (!c.proxy.isEmpty() && c.proxy.compare("none"_L1, Qt::CaseInsensitive) != 0 &&
        c.proxy.compare("direct"_L1, Qt::CaseInsensitive) != 0) {
        QUrl proxyUrl;
        QString proxyError;
        if (!parseProxyUrl(c.proxy, QString(), &proxyUrl, &proxyError))
            e[u"proxy"_s] = tr("An http:// proxy URL (host:port is read as http://host:port), "
                               "or none.");
        else if (!proxyUrl.password().isEmpty())
            e[u"proxy"_s] = tr("No password here: it would be stored in the project. Put the "
                               "proxy URL with its password in the https_proxy environment "
                               "variable and leave this empty.");
    }
    // Only that it exists: the file is read and checked when a run starts (prepareRun), off the
    // GUI thread, and a bad one stops the run naming the file.
    if (!c.tokenizer.isEmpty() && !QFileInfo::exists(c.tokenizer))
        e[u"tokenizer"_s] = tr("No such file or folder.");
    // Server metrics: the line syntax here, the rest by the plan's own rules (as `run` checks
    // --metrics and --metrics-target).
    int badLine = 0;
    parseTargetLines(m_metricsTargets->toPlainText(), &badLine);
    if (badLine > 0)
        e[u"metricsTargets"_s] =
            tr("Line %1: write name=URL, optionally followed by ,token-env=VARIABLE or "
               ",token-keychain=ENTRY.")
                .arg(badLine);
    if (m_metricsMode->currentData().toInt() == MetricsUrl && c.serverMetrics.sut.isEmpty())
        e[u"metrics"_s] = tr("Enter the URL to scrape, e.g. http://gpu-host:8000/metrics.");
    RunPlan metricsPlan;
    metricsPlan.sut = c;
    QList<PlanIssue> metricsIssues;
    validateServerMetrics(metricsPlan, &metricsIssues);
    for (const PlanIssue &issue : std::as_const(metricsIssues)) {
        const QString key = issue.field == "metrics"_L1 ? u"metrics"_s : u"metricsTargets"_s;
        if (issue.field != "metrics-interval"_L1 && !e.contains(key))
            e[key] = issue.message.translated();
    }
    const int src = m_keySource->currentData().toInt();
    const QString keyName = m_keyName->text().trimmed();
    static const QRegularExpression envName(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    if (src == KeyEnv && !envName.match(keyName).hasMatch())
        e[u"apiKey"_s] = tr("An environment variable name: letters, digits and _, not starting "
                            "with a digit.");
    if (src == KeyKeychain && keyName.isEmpty())
        e[u"apiKey"_s] = tr("Name the keychain entry (for example the SUT's name).");

    m_errors.show(e);
    updateMetricsPlaceholder(c);
    m_test->setEnabled(e.isEmpty() || (e.size() == 1 && e.contains(u"model"_s)));
    const bool valid = e.isEmpty();
    if (valid != m_valid) {
        m_valid = valid;
        emit validityChanged(valid);
    }
}

void SutEditor::updateMetricsPlaceholder(const SutConfig &c)
{
    // What "auto" scrapes, by the run's own rule (sutMetricsUrl): the URL field shows it greyed
    // while it is left to auto, and it is the URL to start from when one is typed.
    QString text;
    if (m_metricsMode->currentData().toInt() == MetricsOff)
        text.clear();
    else if (c.builtInSimulator)
        text = tr("the simulator's /metrics");
    else if (!c.baseUrl.isEmpty())
        text = sutMetricsUrl(c);
    else {
        SutConfig example = c;
        example.baseUrl = u"http://gpu-host:8000"_s;
        text = sutMetricsUrl(example);
    }
    m_metricsUrl->setPlaceholderText(text);
}

bool SutEditor::isValid() const
{
    return m_valid;
}

QStringList SutEditor::errors() const
{
    return m_errors.errors();
}

QString SutEditor::errorFor(const QString &field) const
{
    return m_errors.errorFor(field);
}

QString SutEditor::metricsPlaceholder() const
{
    return m_metricsUrl->placeholderText();
}

QString SutEditor::probeText() const
{
    return m_probeResult->text();
}
QString SutEditor::keyStatusText() const
{
    return m_keyStatus->text();
}

void SutEditor::saveKeyToKeychain()
{
    if (!m_keys || m_keyValue->text().isEmpty() || m_keyName->text().trimmed().isEmpty())
        return;
    m_storeTicket = m_keys->store(m_keyName->text().trimmed(), m_keyValue->text().toUtf8());
    m_keyValue->clear(); // the key leaves the widget as soon as it is handed over
    m_keyStatus->setText(tr("Saving the key …"));
}

void SutEditor::saveTokenToKeychain()
{
    const QString entry = m_tokenEntry->text().trimmed();
    if (!m_keys || m_tokenValue->text().isEmpty() || entry.isEmpty())
        return;
    m_storeTicket = m_keys->store(entry, m_tokenValue->text().toUtf8());
    m_tokenValue->clear(); // the token leaves the widget as soon as it is handed over
    m_keyStatus->setText(tr("Saving the token of %1 …").arg(entry));
}

QList<MetricsTarget> SutEditor::parseTargetLines(const QString &text, int *badLine)
{
    QList<MetricsTarget> out;
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        MetricsTarget t;
        QString error;
        if (parseMetricsTargetFlag(line, &t, &error)) {
            out.append(t);
        } else if (badLine && *badLine == 0) {
            *badLine = int(i) + 1;
        }
    }
    return out;
}

void SutEditor::testConnection()
{
    SutConfig sut = config();
    if (sut.builtInSimulator) {
        m_probeResult->setText(tr("The built-in simulator starts with a run; nothing to test."));
        return;
    }
    m_probeResult->setText(tr("Testing …"));
    if (!m_keyValue->text().isEmpty()) {
        // A key typed but not saved yet is used for this test only.
        m_probe->start(sut, m_keyValue->text().toUtf8());
        return;
    }
    if (m_keys)
        m_keyTicket = m_keys->fetch(sut.apiKeyRef);
    else
        m_probe->start(sut, qgetenv("OPENAI_API_KEY"));
}

void SutEditor::onProbeFinished(const ConnectionProbeResult &result)
{
    m_probeResult->setText(result.message);
    using V = ConnectionProbeResult::Verdict;
    emit statusMessage(
        result.verdict == V::Streams   ? tr("Connection test passed: the endpoint streams.")
        : result.verdict == V::Buffers ? tr("Connection test: the endpoint buffers its answers.")
                                       : tr("Connection test failed."));
}

void SutEditor::focusFirstField()
{
    focusFormField(m_scroll, m_name);
}
} // namespace sb
