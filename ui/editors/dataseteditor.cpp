#include "dataseteditor.h"

#include "common/backgroundjobs.h"
#include "copyabletableview.h"
#include "datasetpreviewmodel.h"
#include "fielderror.h"
#include "lengthhistogram.h"

#include "tokenizer/tokenizer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
QString localFileFrom(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile())
            return url.toLocalFile();
    return {};
}
} // namespace

DatasetEditor::DatasetEditor(QWidget *parent)
    : QWidget(parent), m_jobs(new BackgroundJobs(this)), m_debounce(new QTimer(this)),
      m_model(new DatasetPreviewModel(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(350);
    connect(m_debounce, &QTimer::timeout, this, &DatasetEditor::startLoad);
    setAcceptDrops(true);
    buildUi();
    retranslateUi();
    updateKindWidgets();
    validate();
}

DatasetEditor::~DatasetEditor() = default;

void DatasetEditor::buildUi()
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
    auto label = [&](const QString &key, QWidget *buddy) {
        return m_labels.add(key, buddy, page);
    };
    auto withError = [&](const QString &key, QWidget *field, QWidget *parent) {
        return m_errors.wrap(key, field, parent);
    };
    auto spin = [](QWidget *parent, int lo, int hi) {
        auto *s = new QSpinBox(parent);
        s->setRange(lo, hi);
        return s;
    };

    m_name = new QLineEdit(page);
    m_name->setObjectName(u"name"_s);
    form->addRow(label(u"name"_s, m_name), withError(u"name"_s, m_name, page));
    m_kind = new QComboBox(page);
    m_kind->setObjectName(u"kind"_s);
    m_kind->addItem({}, int(DatasetKind::Random));
    m_kind->addItem({}, int(DatasetKind::ShareGpt));
    m_kind->addItem({}, int(DatasetKind::Custom));
    form->addRow(label(u"kind"_s, m_kind), m_kind);
    auto *pathRow = new QWidget(page);
    auto *pathLayout = new QHBoxLayout(pathRow);
    pathLayout->setContentsMargins(0, 0, 0, 0);
    m_path = new QLineEdit(pathRow);
    m_path->setObjectName(u"path"_s);
    reservePathWidth(m_path);
    m_browse = new QPushButton(pathRow);
    pathLayout->addWidget(m_path, 1);
    pathLayout->addWidget(m_browse);
    form->addRow(label(u"path"_s, m_path), withError(u"path"_s, pathRow, page));
    m_version = new QLineEdit(page);
    form->addRow(label(u"version"_s, m_version), m_version);

    m_syntheticBox = new QGroupBox(page);
    auto *sf = new QFormLayout(m_syntheticBox);
    setUpFormLayout(sf);
    m_inputLen = spin(m_syntheticBox, 0, 1000000);
    m_inputLen->setObjectName(u"inputLen"_s);
    sf->addRow(label(u"inputLen"_s, m_inputLen),
               withError(u"inputLen"_s, m_inputLen, m_syntheticBox));
    m_outputLen = spin(m_syntheticBox, 0, 1000000);
    m_outputLen->setObjectName(u"outputLen"_s);
    sf->addRow(label(u"outputLen"_s, m_outputLen),
               withError(u"outputLen"_s, m_outputLen, m_syntheticBox));
    m_distribution = new QComboBox(m_syntheticBox);
    m_distribution->addItem({}, int(LengthDistribution::Uniform));
    m_distribution->addItem({}, int(LengthDistribution::Normal));
    sf->addRow(label(u"distribution"_s, m_distribution), m_distribution);
    m_rangeRatio = new QDoubleSpinBox(m_syntheticBox);
    m_rangeRatio->setObjectName(u"rangeRatio"_s);
    m_rangeRatio->setRange(0, 1);
    m_rangeRatio->setDecimals(2);
    m_rangeRatio->setSingleStep(0.05);
    sf->addRow(label(u"rangeRatio"_s, m_rangeRatio),
               withError(u"rangeRatio"_s, m_rangeRatio, m_syntheticBox));
    m_inputStdev = spin(m_syntheticBox, 0, 1000000);
    sf->addRow(label(u"inputStdev"_s, m_inputStdev), m_inputStdev);
    m_outputStdev = spin(m_syntheticBox, 0, 1000000);
    sf->addRow(label(u"outputStdev"_s, m_outputStdev), m_outputStdev);
    auto minMax = [&](const QString &key, QSpinBox **mn, QSpinBox **mx) {
        auto *row = new QWidget(m_syntheticBox);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        *mn = spin(row, 1, 1000000);
        *mx = spin(row, 0, 1000000);
        h->addWidget(*mn);
        h->addWidget(new QLabel(u"–"_s, row));
        h->addWidget(*mx);
        sf->addRow(label(key, *mn), row);
    };
    minMax(u"inputRange"_s, &m_inputMin, &m_inputMax);
    minMax(u"outputRange"_s, &m_outputMin, &m_outputMax);
    m_prefixLen = spin(m_syntheticBox, 0, 1000000);
    sf->addRow(label(u"prefixLen"_s, m_prefixLen), m_prefixLen);
    layout->addWidget(m_syntheticBox);

    m_fileBox = new QGroupBox(page);
    auto *ff = new QFormLayout(m_fileBox);
    setUpFormLayout(ff);
    m_fixedOutput = spin(m_fileBox, -1, 1000000);
    m_fixedOutput->setObjectName(u"fixedOutput"_s);
    ff->addRow(label(u"fixedOutput"_s, m_fixedOutput), m_fixedOutput);
    layout->addWidget(m_fileBox);
    m_replacement = new QCheckBox(page);
    layout->addWidget(m_replacement);

    m_sessionsBox = new QGroupBox(page);
    auto *sessionsForm = new QFormLayout(m_sessionsBox);
    setUpFormLayout(sessionsForm);
    m_multiTurn = new QCheckBox(m_sessionsBox);
    m_multiTurn->setObjectName(u"multiTurn"_s);
    sessionsForm->addRow(m_multiTurn);
    m_sessionTurns = spin(m_sessionsBox, 1, 10000);
    m_sessionTurns->setObjectName(u"sessionTurns"_s);
    sessionsForm->addRow(label(u"sessionTurns"_s, m_sessionTurns), m_sessionTurns);
    m_sessionPrefix = spin(m_sessionsBox, 0, 1000000);
    m_sessionPrefix->setObjectName(u"sessionPrefixLen"_s);
    sessionsForm->addRow(label(u"sessionPrefixLen"_s, m_sessionPrefix), m_sessionPrefix);
    m_maxTurns = spin(m_sessionsBox, 0, 10000);
    m_maxTurns->setObjectName(u"maxTurns"_s);
    sessionsForm->addRow(label(u"maxTurns"_s, m_maxTurns), m_maxTurns);
    layout->addWidget(m_sessionsBox);
    layout->addStretch(1);

    // Right side: what the sample looks like.
    auto *preview = new QWidget(split);
    auto *pl = new QVBoxLayout(preview);
    m_sampling = new QLabel(preview);
    m_sampling->setWordWrap(true);
    pl->addWidget(m_sampling);
    m_status = new QLabel(preview);
    m_status->setObjectName(u"loadStatus"_s);
    pl->addWidget(m_status);
    m_loadErrorLabel = new FieldError(preview);
    m_loadErrorLabel->setObjectName(u"error_load"_s);
    m_errors.insert(u"load"_s, m_loadErrorLabel);
    pl->addWidget(m_loadErrorLabel);
    m_hash = new QLabel(preview);
    m_hash->setObjectName(u"hash"_s);
    m_hash->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hash->setWordWrap(true);
    pl->addWidget(m_hash);
    m_stats = new QLabel(preview);
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pl->addWidget(m_stats);
    auto *hists = new QHBoxLayout;
    m_inputHist = new LengthHistogram(preview);
    m_outputHist = new LengthHistogram(preview);
    hists->addWidget(m_inputHist);
    hists->addWidget(m_outputHist);
    pl->addLayout(hists, 2);
    m_table = new CopyableTableView(preview);
    m_table->setObjectName(u"previewTable"_s);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    pl->addWidget(m_table, 3);
    // No fixed sizes: the form takes the width its rows ask for (makeFormScrollArea), the sample
    // the rest.
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    m_table->setWordWrap(false);

    auto changed = [this] {
        if (m_filling)
            return;
        validate();
        emit edited();
        m_debounce->start();
    };
    for (QLineEdit *e : {m_name, m_path})
        connect(e, &QLineEdit::textChanged, this, changed);
    connect(m_version, &QLineEdit::textChanged, this, [this] {
        if (!m_filling)
            emit edited();
    });
    for (QSpinBox *s :
         {m_inputLen, m_outputLen, m_prefixLen, m_inputStdev, m_outputStdev, m_inputMin, m_inputMax,
          m_outputMin, m_outputMax, m_fixedOutput, m_sessionTurns, m_sessionPrefix, m_maxTurns})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_multiTurn, &QCheckBox::toggled, this, [this, changed] {
        updateKindWidgets();
        changed();
    });
    connect(m_rangeRatio, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_replacement, &QCheckBox::toggled, this, changed);
    connect(m_distribution, &QComboBox::currentIndexChanged, this, [this, changed] {
        updateKindWidgets();
        changed();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this, changed] {
        updateKindWidgets();
        changed();
    });
    connect(m_browse, &QPushButton::clicked, this, &DatasetEditor::browse);
}

void DatasetEditor::retranslateUi()
{
    m_title->setText(tr("Dataset"));
    const QList<QPair<QString, QString>> labels = {
        {u"name"_s, tr("&Name:")},
        {u"kind"_s, tr("Source:")},
        {u"path"_s, tr("&File:")},
        {u"version"_s, tr("Version label:")},
        {u"inputLen"_s, tr("Input tokens:")},
        {u"outputLen"_s, tr("Output tokens:")},
        {u"distribution"_s, tr("Distribution:")},
        {u"rangeRatio"_s, tr("Range ratio:")},
        {u"inputStdev"_s, tr("Input std. dev.:")},
        {u"outputStdev"_s, tr("Output std. dev.:")},
        {u"inputRange"_s, tr("Input min – max:")},
        {u"outputRange"_s, tr("Output min – max:")},
        {u"prefixLen"_s, tr("Shared prefix tokens:")},
        {u"fixedOutput"_s, tr("Fixed output tokens:")},
        {u"sessionTurns"_s, tr("Turns per session:")},
        {u"sessionPrefixLen"_s, tr("Session context tokens:")},
        {u"maxTurns"_s, tr("At most turns:")},
    };
    m_labels.setTexts(labels);
    m_kind->setItemText(0, tr("Synthetic (random lengths)"));
    m_kind->setItemText(1, tr("ShareGPT JSON"));
    m_kind->setItemText(2, tr("Custom JSONL (prompt, output_tokens)"));
    m_distribution->setItemText(0, tr("Uniform (vLLM --random-range-ratio)"));
    m_distribution->setItemText(1, tr("Normal (mean, std. dev., clamped)"));
    m_browse->setText(tr("Browse…"));
    m_path->setPlaceholderText(tr("pick or drop a .json / .jsonl file"));
    m_path->setToolTip(tr("Drop a ShareGPT .json or custom .jsonl file anywhere on this editor"));
    m_version->setPlaceholderText(tr("your label, e.g. v2-2024-06"));
    m_syntheticBox->setTitle(tr("Synthetic lengths"));
    m_fileBox->setTitle(tr("File sampling"));
    m_fixedOutput->setSpecialValueText(tr("from the data"));
    m_fixedOutput->setToolTip(tr("-1: ShareGPT uses the reference answer's length, custom JSONL "
                                 "each line's output_tokens"));
    m_inputMax->setSpecialValueText(tr("no limit"));
    m_outputMax->setSpecialValueText(tr("no limit"));
    m_rangeRatio->setToolTip(tr("Lengths are drawn uniformly from [len·(1−r), len·(1+r)]"));
    m_prefixLen->setToolTip(tr("Words every prompt starts with: exercises the prefix cache"));
    m_replacement->setText(tr("Sample with replacement"));
    m_replacement->setToolTip(
        tr("Sample with replacement when the file has fewer items than the run "
           "needs (repeats hit the prefix cache)"));
    m_model->headerDataChanged(Qt::Horizontal, 0, DatasetPreviewModel::ColumnCount - 1);
    m_sessionsBox->setTitle(tr("Sessions"));
    m_multiTurn->setText(tr("Multi-turn sessions (every turn, with its history)"));
    m_multiTurn->setToolTip(
        tr("Each conversation becomes a session whose turns resend the conversation so far. "
           "Off: ShareGPT contributes its first turn only, as vLLM does."));
    m_sessionTurns->setToolTip(tr("Synthetic sessions: user turns per session"));
    m_sessionPrefix->setToolTip(tr("Synthetic sessions: tokens of a session's own context in its "
                                   "first message, reused by its later turns only"));
    m_maxTurns->setSpecialValueText(tr("all"));
    m_maxTurns->setToolTip(tr("ShareGPT and custom sessions: cut longer conversations"));
    m_inputHist->setTitle(tr("Input tokens"));
    m_outputHist->setTitle(tr("Output tokens"));
    // Set at load time, in that time's language.
    if (m_sampleLoaded)
        m_status->setText(tr("Sample loaded."));
    else if (m_loading)
        m_status->setText(tr("Loading sample …"));
    holdComboWidths(m_scroll->widget());
    validate();
    showInfo();
}

void DatasetEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DatasetEditor::updateKindWidgets()
{
    const auto kind = DatasetKind(m_kind->currentData().toInt());
    const bool file = kind != DatasetKind::Random;
    m_path->setEnabled(file);
    m_browse->setEnabled(file);
    m_syntheticBox->setVisible(!file);
    m_fileBox->setVisible(file);
    const bool normal =
        LengthDistribution(m_distribution->currentData().toInt()) == LengthDistribution::Normal;
    m_rangeRatio->setEnabled(!normal);
    m_inputStdev->setEnabled(normal);
    m_outputStdev->setEnabled(normal);
    m_inputMin->setEnabled(normal);
    m_inputMax->setEnabled(normal);
    m_outputMin->setEnabled(normal);
    m_outputMax->setEnabled(normal);
    const bool sessions = m_multiTurn->isChecked();
    m_sessionTurns->setEnabled(sessions && !file);
    m_sessionPrefix->setEnabled(sessions && !file);
    m_maxTurns->setEnabled(sessions && file);
}

void DatasetEditor::setDataset(const QString &name, const DatasetSpec &d)
{
    m_filling = true;
    m_base = d;
    m_name->setText(name);
    m_kind->setCurrentIndex(m_kind->findData(int(d.kind)));
    m_path->setText(d.path);
    m_version->setText(d.versionLabel);
    m_inputLen->setValue(d.randomInputLen);
    m_outputLen->setValue(d.randomOutputLen);
    m_rangeRatio->setValue(d.randomRangeRatio);
    m_prefixLen->setValue(d.randomPrefixLen);
    m_distribution->setCurrentIndex(m_distribution->findData(int(d.randomDistribution)));
    m_inputStdev->setValue(d.randomInputStdev);
    m_outputStdev->setValue(d.randomOutputStdev);
    m_inputMin->setValue(d.randomInputMin);
    m_inputMax->setValue(d.randomInputMax);
    m_outputMin->setValue(d.randomOutputMin);
    m_outputMax->setValue(d.randomOutputMax);
    m_fixedOutput->setValue(d.sharegptOutputLen);
    m_replacement->setChecked(d.withReplacement);
    m_multiTurn->setChecked(d.multiTurn);
    m_sessionTurns->setValue(d.sessionTurns);
    m_sessionPrefix->setValue(d.sessionPrefixLen);
    m_maxTurns->setValue(d.maxTurns);
    m_filling = false;
    updateKindWidgets();
    validate();
    scrollFormToTop(m_scroll);
    reloadNow();
}

QString DatasetEditor::name() const
{
    return m_name->text().trimmed();
}

DatasetSpec DatasetEditor::spec() const
{
    DatasetSpec d = m_base;
    d.kind = DatasetKind(m_kind->currentData().toInt());
    d.path = d.kind == DatasetKind::Random ? QString() : m_path->text().trimmed();
    d.versionLabel = m_version->text().trimmed();
    d.randomInputLen = m_inputLen->value();
    d.randomOutputLen = m_outputLen->value();
    d.randomRangeRatio = m_rangeRatio->value();
    d.randomPrefixLen = m_prefixLen->value();
    d.randomDistribution = LengthDistribution(m_distribution->currentData().toInt());
    d.randomInputStdev = m_inputStdev->value();
    d.randomOutputStdev = m_outputStdev->value();
    d.randomInputMin = m_inputMin->value();
    d.randomInputMax = m_inputMax->value();
    d.randomOutputMin = m_outputMin->value();
    d.randomOutputMax = m_outputMax->value();
    d.sharegptOutputLen = m_fixedOutput->value() == 0 ? -1 : m_fixedOutput->value();
    d.withReplacement = m_replacement->isChecked();
    d.multiTurn = m_multiTurn->isChecked();
    d.sessionTurns = m_sessionTurns->value();
    d.sessionPrefixLen = m_sessionPrefix->value();
    d.maxTurns = m_maxTurns->value();
    return d;
}

void DatasetEditor::setSampling(int numPrompts, quint64 seed, int numSessions)
{
    if (numSessions < 0)
        numSessions = numPrompts;
    if (numPrompts == m_numPrompts && seed == m_seed && numSessions == m_numSessions)
        return;
    m_numPrompts = numPrompts;
    m_numSessions = numSessions;
    m_seed = seed;
    showInfo();
    m_debounce->start();
}

void DatasetEditor::setTokenizer(const QString &path)
{
    if (path == m_tokenizer)
        return;
    m_tokenizer = path;
    m_debounce->start();
}

void DatasetEditor::validate()
{
    QHash<QString, QString> e;
    const DatasetSpec d = spec();
    if (name().isEmpty())
        e[u"name"_s] = tr("Give the dataset a name.");
    if (d.kind == DatasetKind::Random) {
        if (d.randomInputLen < 1)
            e[u"inputLen"_s] = tr("At least one input token.");
        if (d.randomOutputLen < 1)
            e[u"outputLen"_s] = tr("At least one output token.");
        if (d.randomDistribution == LengthDistribution::Uniform && d.randomRangeRatio >= 1.0)
            e[u"rangeRatio"_s] = tr("The range ratio must be below 1 (lengths would reach 0).");
    } else if (d.path.isEmpty()) {
        e[u"path"_s] = tr("Choose a file (or drop one here).");
    } else {
        const QFileInfo fi(d.path);
        if (!fi.exists())
            e[u"path"_s] = tr("No such file: %1").arg(d.path);
        else if (!fi.isFile() || !fi.isReadable())
            e[u"path"_s] = tr("Not a readable file: %1").arg(d.path);
    }
    e[u"load"_s] = m_loadError;
    m_errors.show(e);
    const bool valid =
        std::all_of(e.cbegin(), e.cend(), [](const QString &s) { return s.isEmpty(); });
    if (valid != m_valid) {
        m_valid = valid;
        emit validityChanged(valid);
    }
}

bool DatasetEditor::isValid() const
{
    return m_valid;
}

QStringList DatasetEditor::errors() const
{
    return m_errors.errors();
}

QString DatasetEditor::errorFor(const QString &field) const
{
    return m_errors.errorFor(field);
}

void DatasetEditor::reloadNow()
{
    m_debounce->stop();
    startLoad();
}

void DatasetEditor::startLoad()
{
    const quint64 generation = ++m_generation;
    // Field errors would make the loader fail with a less helpful message.
    m_loadError.clear();
    validate();
    const bool fieldsOk = m_errors.allClear();
    if (!fieldsOk) {
        m_loading = false;
        m_sampleLoaded = false;
        m_status->clear();
        return;
    }
    m_loading = true;
    m_sampleLoaded = false;
    m_status->setText(tr("Loading sample …"));
    const DatasetSpec d = spec();
    const int n = d.multiTurn ? m_numSessions : m_numPrompts;
    const quint64 seed = m_seed;
    const QString tokenizerPath = m_tokenizer;
    struct Result
    {
        bool ok = false;
        LoadedDataset data;
        QString error;
    };
    m_jobs->run(
        [d, n, seed, tokenizerPath] {
            Result r;
            std::unique_ptr<Tokenizer> tokenizer;
            if (!tokenizerPath.isEmpty()) {
                tokenizer = Tokenizer::load(tokenizerPath, &r.error);
                if (!tokenizer)
                    return r;
            }
            r.ok = loadDataset(d, n, seed, &r.data, &r.error, tokenizer.get());
            return r;
        },
        [this, generation](Result r) {
            if (generation != m_generation)
                return; // a newer edit started another load
            m_loading = false;
            if (!r.ok) {
                m_loadError = r.error;
                m_haveInfo = false;
                m_model->clear();
                m_inputHist->clear();
                m_outputHist->clear();
                m_sampleLoaded = false;
                m_status->clear();
                showInfo();
                validate();
                emit statusMessage(tr("Dataset could not be loaded: %1").arg(r.error));
                return;
            }
            m_loadError.clear();
            showLoaded(r.data);
            validate();
        });
}

void DatasetEditor::showLoaded(const LoadedDataset &loaded)
{
    m_info = loaded.info;
    m_haveInfo = true;
    // Sessions preview one row per turn: the new user message and its lengths.
    QList<PromptItem> rows = loaded.items;
    for (const SessionItem &session : loaded.sessions)
        for (const SessionTurn &t : session.turns) {
            PromptItem p;
            p.prompt = t.user;
            p.inputTokens = t.userTokens;
            p.outputTokens = t.outputTokens;
            p.sourceIndex = session.sourceIndex;
            rows.append(p);
        }
    m_model->setItems(rows);
    QList<qint32> in, out;
    in.reserve(rows.size());
    out.reserve(rows.size());
    for (const PromptItem &p : std::as_const(rows)) {
        in.append(p.inputTokens);
        out.append(p.outputTokens);
    }
    m_inputHist->setValues(in);
    m_outputHist->setValues(out);
    m_sampleLoaded = true;
    m_status->setText(tr("Sample loaded."));
    showInfo();
    emit hashComputed(m_info.sha256);
}

void DatasetEditor::showInfo()
{
    if (m_multiTurn->isChecked())
        m_sampling->setText(tr("Preview of the sessions a run draws: %1 sessions, seed %2 (from "
                               "the selected load profile), one row per turn.")
                                .arg(m_numSessions)
                                .arg(m_seed));
    else
        m_sampling->setText(tr("Preview of the request list a run draws: %1 prompts, seed %2 "
                               "(from the selected load profile).")
                                .arg(m_numPrompts)
                                .arg(m_seed));
    if (!m_haveInfo) {
        m_hash->clear();
        m_stats->clear();
        return;
    }
    m_hash->setText(tr("Hash (sha256): %1").arg(m_info.sha256));
    m_hash->setToolTip(m_info.sourceSha256.isEmpty()
                           ? tr("Synthetic data: the hash covers the sampling parameters")
                           : tr("Source file sha256: %1").arg(m_info.sourceSha256));
    auto stats = [](const LengthStats &s) {
        return tr("mean %1, p50 %2, p90 %3, p99 %4, min %5, max %6")
            .arg(s.mean, 0, 'f', 1)
            .arg(s.p50, 0, 'f', 0)
            .arg(s.p90, 0, 'f', 0)
            .arg(s.p99, 0, 'f', 0)
            .arg(s.min)
            .arg(s.max);
    };
    QString text = tr("%1 requests from %2 usable items (%3 skipped%4).")
                       .arg(m_info.sampled)
                       .arg(m_info.itemCount)
                       .arg(m_info.skipped)
                       .arg(m_info.oversampled > 0 ? tr(", %1 drawn again").arg(m_info.oversampled)
                                                   : QString());
    if (m_info.sessions)
        text += u'\n' + tr("Sessions: %1 sessions, %2 turns (the lengths below are per turn: "
                           "the new user message and the requested output).")
                            .arg(m_info.sampled)
                            .arg(m_info.turns);
    text += u'\n' + tr("Input tokens: %1").arg(stats(m_info.inputStats));
    text += u'\n' + tr("Output tokens: %1").arg(stats(m_info.outputStats));
    if (m_info.approximateTokens)
        text += u'\n' + tr("Token counts are local estimates, not the model's tokenizer.");
    else if (!m_info.tokenizer.isEmpty())
        text += u'\n' + tr("Token counts are the SUT's tokenizer's: %1").arg(m_info.tokenizer);
    m_stats->setText(text);
}

void DatasetEditor::browse()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Choose a dataset file"), QFileInfo(m_path->text()).absolutePath(),
        tr("Datasets (*.json *.jsonl);;All files (*)"));
    if (!file.isEmpty())
        setPathFromFile(file);
}

void DatasetEditor::setPathFromFile(const QString &file)
{
    // The extension is a good guess for the kind; the user can still change it.
    const bool jsonl = file.endsWith(".jsonl"_L1, Qt::CaseInsensitive);
    m_kind->setCurrentIndex(
        m_kind->findData(int(jsonl ? DatasetKind::Custom : DatasetKind::ShareGpt)));
    m_path->setText(file);
    if (m_name->text().trimmed().isEmpty())
        m_name->setText(QFileInfo(file).completeBaseName());
}

void DatasetEditor::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localFileFrom(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void DatasetEditor::dropEvent(QDropEvent *event)
{
    const QString file = localFileFrom(event->mimeData());
    if (file.isEmpty())
        return;
    setPathFromFile(file);
    event->acceptProposedAction();
}

void DatasetEditor::focusFirstField()
{
    focusFormField(m_scroll, m_name);
}
} // namespace sb
