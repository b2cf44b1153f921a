#include "studyeditor.h"

#include "studyfromproject.h"

#include "common/backgroundjobs.h"
#include "cost/billitem.h"
#include "projectdocument.h"
#include "run/runflags.h"
#include "store/projectstore.h"
#include "study/studyplan.h"
#include "study/studystore.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

enum CandidateColumn {
    CName,
    CWhere,
    CSource,
    CPrice,
    CCurrency,
    CResources,
    CCategory,
    COverlap,
    CColumns
};
enum ScenarioColumn { SName, SKind, SRankBy, SLoad, SColumns };

const QStringList kKinds = {u"open-loop"_s, u"offline"_s, u"single-stream"_s, u"server"_s};

// The editor's field key for a definition field named by the core's validation.
QString keyFor(const QString &field)
{
    if (field.startsWith(u"candidates"_s))
        return u"candidates"_s; // "candidates[k] × scenarios[s]" too: a candidate's flags
    if (field.startsWith(u"scenarios"_s))
        return u"scenarios"_s;
    if (field == u"boundary.dataset.sha256"_s)
        return u"datasetSha256"_s;
    if (field.startsWith(u"boundary.dataset"_s))
        return u"dataset"_s;
    if (field.startsWith(u"boundary.request"_s))
        return u"request"_s;
    static const QList<QPair<QString, QString>> exact = {
        {u"name"_s, u"name"_s},
        {u"question"_s, u"question"_s},
        {u"repeats"_s, u"repeats"_s},
        {u"seed"_s, u"seed"_s},
        {u"baseline"_s, u"baseline"_s},
        {u"boundary.model"_s, u"model"_s},
        {u"boundary.tokenizer"_s, u"tokenizer"_s},
        {u"boundary.connection_mode"_s, u"connection"_s},
        {u"boundary.cache_policy"_s, u"cache"_s}};
    for (const auto &[f, key] : exact)
        if (field == f)
            return key;
    return u"general"_s;
}

struct SaveResult
{
    QString error;
    QString what;
    int version = 0;
};

} // namespace

StudyEditor::StudyEditor(QWidget *parent) : QWidget(parent), m_jobs(new BackgroundJobs(this))
{
    buildUi();
    retranslateUi();
}

StudyEditor::~StudyEditor() = default;

void StudyEditor::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = makeFormScrollArea(this);
    m_scroll->setObjectName(u"studyEditorScroll"_s);
    outer->addWidget(m_scroll, 1);
    QWidget *page = m_scroll->widget();
    auto *layout = new QVBoxLayout(page);
    m_title = makeEditorTitle(page);
    layout->addWidget(m_title);
    m_intro = new QLabel(page);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_versionNote = new QLabel(page);
    m_versionNote->setObjectName(u"versionNote"_s);
    m_versionNote->setWordWrap(true);
    layout->addWidget(m_versionNote);

    auto *form = new QFormLayout;
    // Labels may be twice as wide in Chinese: a row too narrow puts its field under its label.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);
    const auto addRow = [&](const QString &key, QWidget *field) {
        QLabel *label = m_labels.add(key, field, page);
        form->addRow(label, m_errors.wrap(key, field, page));
    };
    const auto changed = [this] {
        scheduleValidate();
    };

    // A text field that revalidates as it is typed in, in the row its key names.
    const auto textField = [&](const QString &objectName, const QString &row) {
        auto *e = new QLineEdit(page);
        e->setObjectName(objectName);
        connect(e, &QLineEdit::textChanged, this, changed);
        addRow(row, e);
        return e;
    };
    m_name = textField(u"name"_s, u"name"_s);
    m_question = textField(u"question"_s, u"question"_s);

    const auto makeTable = [page](const QString &name, int columns) {
        auto *t = new QTableWidget(0, columns, page);
        t->setObjectName(name);
        t->verticalHeader()->hide();
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        t->horizontalHeader()->setStretchLastSection(true);
        t->setSelectionMode(QAbstractItemView::NoSelection);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        // Sized to its rows (fitTables): the form scrolls, the table does not.
        t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        return t;
    };
    m_candidates = makeTable(u"candidates"_s, CColumns);
    connect(m_candidates, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == CName && !m_filling) {
            refreshBaselines();
            scheduleValidate();
        }
    });
    addRow(u"candidates"_s, m_candidates);
    m_baseline = new QComboBox(page);
    m_baseline->setObjectName(u"baseline"_s);
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, changed);
    addRow(u"baseline"_s, m_baseline);
    m_scenarios = makeTable(u"scenarios"_s, SColumns);
    connect(m_scenarios, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == SName && !m_filling)
            scheduleValidate();
    });
    addRow(u"scenarios"_s, m_scenarios);

    m_repeats = new QSpinBox(page);
    m_repeats->setObjectName(u"repeats"_s);
    m_repeats->setRange(1, 100);
    m_repeats->setValue(3);
    connect(m_repeats, &QSpinBox::valueChanged, this, changed);
    addRow(u"repeats"_s, m_repeats);
    m_seed = new QLineEdit(page);
    m_seed->setObjectName(u"seed"_s);
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(u"[0-9]{1,15}"_s), m_seed));
    connect(m_seed, &QLineEdit::textChanged, this, changed);
    addRow(u"seed"_s, m_seed);

    m_model = textField(u"model"_s, u"model"_s);
    m_dataset = new QComboBox(page);
    m_dataset->setObjectName(u"dataset"_s);
    m_dataset->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_dataset, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_dataset->setToolTip(i >= 0 && i < m_datasets.size() ? m_datasets.at(i).flags.join(u' ')
                                                              : QString());
        scheduleValidate();
    });
    addRow(u"dataset"_s, m_dataset);
    m_datasetSha = textField(u"datasetSha256"_s, u"datasetSha256"_s);
    m_requestFlags = textField(u"requestFlags"_s, u"request"_s);
    m_tokenizer = textField(u"tokenizer"_s, u"tokenizer"_s);
    m_connection = new QComboBox(page);
    m_connection->setObjectName(u"connectionMode"_s);
    for (const QString &m : {u"warm"_s, u"per-request"_s, u"lazy"_s})
        m_connection->addItem(m, m);
    connect(m_connection, &QComboBox::currentIndexChanged, this, changed);
    addRow(u"connection"_s, m_connection);
    m_cache = new QComboBox(page);
    m_cache->setObjectName(u"cachePolicy"_s);
    m_cache->addItem(QString(), u"cache-bust"_s);
    m_cache->addItem(QString(), u"as-is"_s);
    m_cache->addItem(QString(), u"reset"_s);
    m_cache->addItem(QString(), u"restart"_s);
    connect(m_cache, &QComboBox::currentIndexChanged, this, changed);
    addRow(u"cache"_s, m_cache);

    m_general = new FieldError(page);
    m_general->setObjectName(u"error_general"_s);
    m_errors.insert(u"general"_s, m_general);
    layout->addWidget(m_general);
    layout->addStretch(1);

    m_save = new QPushButton(this);
    m_save->setObjectName(u"saveStudyButton"_s);
    m_save->setDefault(true);
    connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    m_cancel = new QPushButton(this);
    m_cancel->setObjectName(u"cancelStudyButton"_s);
    connect(m_cancel, &QPushButton::clicked, this, &StudyEditor::cancelled);
    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(9, 0, 9, 9);
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_save);
    outer->addLayout(buttons);
}

void StudyEditor::retranslateUi()
{
    m_title->setText(m_editing.isEmpty()
                         ? tr("New selection study")
                         : tr("Edit study %1 (version %2)").arg(m_editing).arg(m_editingVersion));
    m_intro->setText(tr("Every scenario runs on every candidate, each cell repeated, the "
                        "candidates interleaved in a seeded order; the decision ranks them per "
                        "scenario with 95 % intervals and costs (docs/study.md)."));
    if (m_editing.isEmpty())
        m_versionNote->clear();
    else if (m_cellsStarted)
        m_versionNote->setText(tr("Cells of version %1 have run: saving a change starts version "
                                  "%2 with fresh cells, and the runs of version %1 stay with it.")
                                   .arg(m_editingVersion)
                                   .arg(m_editingVersion + 1));
    else
        m_versionNote->setText(tr("No cell of version %1 has run yet: saving a change replaces it.")
                                   .arg(m_editingVersion));
    m_versionNote->setVisible(!m_versionNote->text().isEmpty());
    m_labels.setTexts({{u"name"_s, tr("Name")},
                       {u"question"_s, tr("Question")},
                       {u"candidates"_s, tr("Candidates (SUTs)")},
                       {u"baseline"_s, tr("Baseline")},
                       {u"scenarios"_s, tr("Scenarios (load profiles)")},
                       {u"repeats"_s, tr("Repeats")},
                       {u"seed"_s, tr("Seed (dataset and order)")},
                       {u"model"_s, tr("Model")},
                       {u"dataset"_s, tr("Dataset")},
                       {u"datasetSha256"_s, tr("Expected dataset sha256")},
                       {u"request"_s, tr("Request parameters")},
                       {u"tokenizer"_s, tr("Tokenizer")},
                       {u"connection"_s, tr("Connection mode")},
                       {u"cache"_s, tr("Prefix cache")}});
    m_question->setPlaceholderText(tr("Which platform serves our chat traffic at the lowest "
                                      "cost within the SLO?"));
    m_seed->setToolTip(tr("The dataset seed of every cell and the seed of the candidates' order"));
    m_model->setToolTip(tr("The model every cell asks for (--model)"));
    m_datasetSha->setPlaceholderText(
        tr("optional: without one, the first completed cell's hash is the study's"));
    m_requestFlags->setToolTip(
        tr("Run flags sent with every request of every cell: --ignore-eos, --temperature, "
           "--request-seed, --extra-body"));
    m_tokenizer->setPlaceholderText(tr("none"));
    m_cache->setItemText(0, tr("cache-bust (a new random prefix per request)"));
    m_cache->setItemText(1, tr("as-is"));
    m_cache->setItemText(2, tr("reset (the engine's own reset before every cell, verified)"));
    m_cache->setItemText(3, tr("restart (every candidate a managed server, started afresh)"));
    m_candidates->setHorizontalHeaderLabels({tr("SUT"), tr("Where"), tr("Cost source"),
                                             tr("Price per hour"), tr("Currency"), tr("Resources"),
                                             tr("Category"), tr("Overlapping bills")});
    m_scenarios->setHorizontalHeaderLabels(
        {tr("Load profile"), tr("Kind"), tr("Rank by"), tr("Load (run flags)")});
    for (int r = 0; r < m_candidates->rowCount(); ++r) {
        if (auto *source = qobject_cast<QComboBox *>(m_candidates->cellWidget(r, CSource))) {
            source->setItemText(0, tr("imported bills"));
            source->setItemText(1, tr("price per hour"));
        }
        if (auto *overlap = qobject_cast<QComboBox *>(m_candidates->cellWidget(r, COverlap))) {
            overlap->setItemText(0, tr("prorate by time"));
            overlap->setItemText(1, tr("count whole"));
        }
    }
    if (m_baseline->count() > 0)
        m_baseline->setItemText(0, tr("the first candidate"));
    m_save->setText(tr("Save study"));
    m_save->setToolTip(tr("Store the definition in the project; run it with Run study"));
    m_cancel->setText(tr("Cancel"));
    validate();
}

void StudyEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StudyEditor::setProject(const ProjectDocument *document, const QString &storePath,
                             const QStringList &studies)
{
    m_doc = document;
    m_path = storePath;
    m_studies = studies;
    updateButtons();
}

void StudyEditor::clearRows()
{
    m_candidates->setRowCount(0);
    m_scenarios->setRowCount(0);
    m_candidateRows.clear();
    m_scenarioRows.clear();
}

void StudyEditor::addCandidateRow(const CandidateRow &row, bool checked, const StudyCost &cost)
{
    const int r = m_candidates->rowCount();
    m_candidates->insertRow(r);
    m_candidateRows.append(row);
    auto *name = new QTableWidgetItem(row.name);
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    m_candidates->setItem(r, CName, name);

    const bool simulator = row.defined ? row.defined->simulator : row.sut.builtInSimulator;
    const double ttft = row.defined ? row.defined->simTtftMs : row.sut.simTtftMs;
    const double itl = row.defined ? row.defined->simItlMs : row.sut.simItlMs;
    QString where = row.defined ? row.defined->baseUrl : row.sut.baseUrl;
    if (simulator) {
        const auto ms = [this](double v) {
            return v < 0 ? tr("default") : tr("%1 ms").arg(v);
        };
        where = tr("built-in simulator (TTFT %1, ITL %2)").arg(ms(ttft), ms(itl));
    }
    bool inProject = false;
    if (m_doc)
        for (const DocSut &s : m_doc->suts())
            inProject = inProject || s.config.name == row.name;
    if (row.defined && !inProject) // a candidate of an imported file, not one of the SUTs
        where += u' ' + tr("(as defined in the study)");
    m_candidates->setItem(r, CWhere, new QTableWidgetItem(where));

    const auto changed = [this] {
        scheduleValidate();
    };
    auto *source = new QComboBox(m_candidates);
    source->setObjectName(u"costSource_%1"_s.arg(r));
    source->addItem(QString(), u"bills"_s);
    source->addItem(QString(), u"price_per_hour"_s);
    source->setCurrentIndex(cost.source == StudyCost::Source::PricePerHour ? 1 : 0);
    connect(source, &QComboBox::currentIndexChanged, this, [this, r] {
        updateCostWidgets(r);
        scheduleValidate();
    });
    m_candidates->setCellWidget(r, CSource, source);
    auto *price = new QLineEdit(cost.pricePerHour, m_candidates);
    price->setObjectName(u"pricePerHour_%1"_s.arg(r));
    connect(price, &QLineEdit::textChanged, this, changed);
    m_candidates->setCellWidget(r, CPrice, price);
    auto *currency = new QLineEdit(cost.currency, m_candidates);
    currency->setObjectName(u"currency_%1"_s.arg(r));
    currency->setMaxLength(3);
    connect(currency, &QLineEdit::textChanged, this, changed);
    m_candidates->setCellWidget(r, CCurrency, currency);
    auto *resources = new QSpinBox(m_candidates);
    resources->setObjectName(u"resources_%1"_s.arg(r));
    resources->setRange(1, 100000);
    resources->setValue(std::max(1, cost.resources));
    connect(resources, &QSpinBox::valueChanged, this, changed);
    m_candidates->setCellWidget(r, CResources, resources);
    auto *category = new QComboBox(m_candidates);
    category->setObjectName(u"category_%1"_s.arg(r));
    for (BillCategory c : allBillCategories())
        category->addItem(billCategoryLabel(c), QString::fromLatin1(billCategoryName(c)));
    category->setCurrentIndex(std::max(0, category->findData(cost.category.toLower())));
    connect(category, &QComboBox::currentIndexChanged, this, changed);
    m_candidates->setCellWidget(r, CCategory, category);
    auto *overlap = new QComboBox(m_candidates);
    overlap->setObjectName(u"overlapRule_%1"_s.arg(r));
    overlap->addItem(QString(), u"prorate"_s);
    overlap->addItem(QString(), u"whole"_s);
    overlap->setCurrentIndex(cost.overlapRule == u"whole"_s ? 1 : 0);
    connect(overlap, &QComboBox::currentIndexChanged, this, changed);
    m_candidates->setCellWidget(r, COverlap, overlap);
    updateCostWidgets(r);
}

void StudyEditor::addScenarioRow(const ScenarioRow &row, bool checked, const QString &kind,
                                 const QString &rankBy)
{
    const int r = m_scenarios->rowCount();
    m_scenarios->insertRow(r);
    m_scenarioRows.append(row);
    auto *name = new QTableWidgetItem(row.name);
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    m_scenarios->setItem(r, SName, name);
    auto *kinds = new QComboBox(m_scenarios);
    kinds->setObjectName(u"kind_%1"_s.arg(r));
    for (const QString &k : kKinds)
        kinds->addItem(k, k);
    kinds->setCurrentIndex(std::max(0, kinds->findData(kind)));
    auto *rank = new QLineEdit(rankBy, m_scenarios);
    rank->setObjectName(u"rankBy_%1"_s.arg(r));
    const auto placeholder = [rank, kinds] {
        StudyScenario s;
        s.kind = kinds->currentData().toString();
        rank->setPlaceholderText(s.figureOfMerit());
    };
    placeholder();
    connect(kinds, &QComboBox::currentIndexChanged, this, [this, placeholder] {
        placeholder();
        scheduleValidate();
    });
    connect(rank, &QLineEdit::textChanged, this, [this] { scheduleValidate(); });
    m_scenarios->setCellWidget(r, SKind, kinds);
    m_scenarios->setCellWidget(r, SRankBy, rank);
    // The load as the cells will run it (for a profile: with the dataset chosen now).
    const QStringList flags =
        row.defined
            ? row.defined->flags
            : studyScenarioFromProfile(row.name, row.profile, row.execution, DatasetSpec()).flags;
    auto *load = new QTableWidgetItem(flags.join(u' '));
    load->setToolTip(load->text());
    m_scenarios->setItem(r, SLoad, load);
}

void StudyEditor::fillDatasets(const std::optional<QStringList> &defined)
{
    m_datasets.clear();
    int current = 0;
    if (m_doc)
        for (const DocDataset &d : m_doc->datasets()) {
            const QStringList flags = studyDatasetFlags(d.spec);
            if (defined && flags == *defined)
                current = int(m_datasets.size());
            m_datasets.append({d.name, flags, d.spec});
        }
    if (defined && (m_datasets.isEmpty() || m_datasets.at(current).flags != *defined)) {
        // The study's own dataset flags, matching none of the project's datasets: kept first.
        DatasetSpec spec;
        spec.multiTurn = defined->contains(u"--multi-turn"_s);
        m_datasets.prepend(
            {tr("as defined in the study: %1").arg(defined->join(u' ')), *defined, spec});
        current = 0;
    }
    if (m_datasets.isEmpty())
        m_datasets.append({tr("the run's default (random)"), {}, DatasetSpec()});
    m_dataset->clear();
    for (const DatasetChoice &c : std::as_const(m_datasets))
        m_dataset->addItem(c.label);
    m_dataset->setCurrentIndex(current);
}

void StudyEditor::newStudy()
{
    m_filling = true;
    m_editing.clear();
    m_editingVersion = 0;
    m_cellsStarted = false;
    clearRows();
    m_name->clear();
    m_question->clear();
    m_repeats->setValue(3);
    const StudyCost bills;
    QString model, tokenizer;
    if (m_doc) {
        for (const DocSut &s : m_doc->suts()) {
            addCandidateRow({s.config.name, std::nullopt, s.config}, false, bills);
            if (model.isEmpty())
                model = s.config.model;
            if (tokenizer.isEmpty())
                tokenizer = s.config.tokenizer;
        }
        for (const DocProfile &p : m_doc->profiles()) {
            StudyScenario kindOnly =
                studyScenarioFromProfile(p.name, p.profile, p.execution, DatasetSpec());
            addScenarioRow({p.name, std::nullopt, p.profile, p.execution}, false, kindOnly.kind,
                           QString());
        }
    }
    // The project's first load profile gives the seed, the request parameters and the
    // connection mode, as a run of it would use them.
    const DocProfile *first =
        m_doc && !m_doc->profiles().isEmpty() ? &m_doc->profiles().first() : nullptr;
    m_seed->setText(QString::number(first ? first->profile.seed : 0));
    m_model->setText(model);
    fillDatasets(std::nullopt);
    m_datasetSha->clear();
    QStringList request = first ? studyRequestFlags(first->params) : QStringList();
    for (QString &w : request)
        w = shellQuote(w);
    m_requestFlags->setText(request.join(u' '));
    m_tokenizer->setText(tokenizer);
    m_connection->setCurrentIndex(
        std::max(0, m_connection->findData(first ? first->profile.connectionMode : u"warm"_s)));
    m_cache->setCurrentIndex(0);
    m_filling = false;
    refreshBaselines();
    fitTables();
    retranslateUi();
    showFromTop();
}

void StudyEditor::editStudy(const StudyDefinition &d, int version, bool cellsStarted)
{
    m_filling = true;
    m_editing = d.name;
    m_editingVersion = version;
    m_cellsStarted = cellsStarted;
    clearRows();
    m_name->setText(d.name);
    m_question->setText(d.question);
    m_repeats->setValue(d.repeats);
    m_seed->setText(QString::number(d.seed));
    for (const StudyCandidate &c : d.candidates)
        addCandidateRow({c.name, c, {}}, true, c.cost);
    for (const StudyScenario &s : d.scenarios)
        addScenarioRow({s.name, s, {}, {}}, true, s.kind, s.rankBy);
    if (m_doc) {
        for (const DocSut &s : m_doc->suts())
            if (d.candidateIndex(s.config.name) < 0)
                addCandidateRow({s.config.name, std::nullopt, s.config}, false, StudyCost());
        for (const DocProfile &p : m_doc->profiles())
            if (d.scenarioIndex(p.name) < 0)
                addScenarioRow(
                    {p.name, std::nullopt, p.profile, p.execution}, false,
                    studyScenarioFromProfile(p.name, p.profile, p.execution, DatasetSpec()).kind,
                    QString());
    }
    m_model->setText(d.boundary.model);
    fillDatasets(d.boundary.datasetFlags);
    m_datasetSha->setText(d.boundary.datasetSha256);
    QStringList request = d.boundary.requestFlags;
    for (QString &w : request)
        w = shellQuote(w);
    m_requestFlags->setText(request.join(u' '));
    m_tokenizer->setText(d.boundary.tokenizer);
    m_connection->setCurrentIndex(std::max(0, m_connection->findData(d.boundary.connectionMode)));
    m_cache->setCurrentIndex(std::max(0, m_cache->findData(d.boundary.cachePolicy)));
    m_filling = false;
    refreshBaselines();
    m_baseline->setCurrentIndex(std::max(0, m_baseline->findData(d.baseline)));
    fitTables();
    retranslateUi();
    showFromTop();
}

void StudyEditor::showFromTop()
{
    m_scroll->verticalScrollBar()->setValue(0);
    m_name->setFocus(Qt::OtherFocusReason);
    // Once laid out and shown (the page may have just been switched to): again.
    QTimer::singleShot(0, this, [this] {
        m_scroll->verticalScrollBar()->setValue(0);
        m_name->setFocus(Qt::OtherFocusReason);
    });
}

void StudyEditor::fitTables()
{
    for (QTableWidget *t : {m_candidates, m_scenarios}) {
        t->resizeRowsToContents();
        int h = t->horizontalHeader()->sizeHint().height() + 2 * t->frameWidth();
        for (int r = 0; r < t->rowCount(); ++r)
            h += t->rowHeight(r);
        t->setFixedHeight(h + 2);
    }
}

void StudyEditor::refreshBaselines()
{
    const QString current = m_baseline->currentData().toString();
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    m_baseline->addItem(tr("the first candidate"), QString());
    for (int r = 0; r < m_candidates->rowCount(); ++r)
        if (m_candidates->item(r, CName)->checkState() == Qt::Checked)
            m_baseline->addItem(m_candidateRows.at(r).name, m_candidateRows.at(r).name);
    m_baseline->setCurrentIndex(std::max(0, m_baseline->findData(current)));
}

void StudyEditor::updateCostWidgets(int row)
{
    auto *source = qobject_cast<QComboBox *>(m_candidates->cellWidget(row, CSource));
    const bool price = source && source->currentIndex() == 1;
    for (int c : {CPrice, CCurrency, CResources, CCategory})
        if (QWidget *w = m_candidates->cellWidget(row, c))
            w->setEnabled(price);
}

StudyCost StudyEditor::costOf(int row) const
{
    StudyCost cost;
    const auto combo = [&](int c) {
        return qobject_cast<QComboBox *>(m_candidates->cellWidget(row, c));
    };
    if (combo(CSource)->currentIndex() == 1) {
        cost.source = StudyCost::Source::PricePerHour;
        cost.pricePerHour =
            qobject_cast<QLineEdit *>(m_candidates->cellWidget(row, CPrice))->text().trimmed();
        cost.currency = qobject_cast<QLineEdit *>(m_candidates->cellWidget(row, CCurrency))
                            ->text()
                            .trimmed()
                            .toUpper();
        cost.resources =
            qobject_cast<QSpinBox *>(m_candidates->cellWidget(row, CResources))->value();
        cost.category = combo(CCategory)->currentData().toString();
    }
    cost.overlapRule = combo(COverlap)->currentData().toString();
    return cost;
}

StudyDefinition StudyEditor::collect() const
{
    StudyDefinition d;
    d.name = m_name->text().trimmed();
    d.question = m_question->text().trimmed();
    d.repeats = m_repeats->value();
    d.seed = m_seed->text().toULongLong();
    d.baseline = m_baseline->currentData().toString();
    d.boundary.model = m_model->text().trimmed();
    const int di = m_dataset->currentIndex();
    const DatasetChoice dataset =
        di >= 0 && di < m_datasets.size() ? m_datasets.at(di) : DatasetChoice();
    d.boundary.datasetFlags = dataset.flags;
    d.boundary.datasetSha256 = m_datasetSha->text().trimmed();
    d.boundary.requestFlags = QProcess::splitCommand(m_requestFlags->text());
    d.boundary.tokenizer = m_tokenizer->text().trimmed();
    d.boundary.connectionMode = m_connection->currentData().toString();
    d.boundary.cachePolicy = m_cache->currentData().toString();
    for (int r = 0; r < m_candidates->rowCount(); ++r) {
        if (m_candidates->item(r, CName)->checkState() != Qt::Checked)
            continue;
        const CandidateRow &row = m_candidateRows.at(r);
        StudyCandidate c = row.defined ? *row.defined : studyCandidateFromSut(row.sut);
        c.cost = costOf(r);
        d.candidates.append(c);
    }
    for (int r = 0; r < m_scenarios->rowCount(); ++r) {
        if (m_scenarios->item(r, SName)->checkState() != Qt::Checked)
            continue;
        const ScenarioRow &row = m_scenarioRows.at(r);
        StudyScenario s = row.defined ? *row.defined
                                      : studyScenarioFromProfile(row.name, row.profile,
                                                                 row.execution, dataset.spec);
        s.kind =
            qobject_cast<QComboBox *>(m_scenarios->cellWidget(r, SKind))->currentData().toString();
        s.rankBy = qobject_cast<QLineEdit *>(m_scenarios->cellWidget(r, SRankBy))->text().trimmed();
        d.scenarios.append(s);
    }
    return d;
}

void StudyEditor::scheduleValidate()
{
    // At once: the check is the core's (a few microseconds per cell), and the error lines and
    // Save follow each change before the next event.
    if (!m_filling)
        validate();
}

void StudyEditor::validate()
{
    // Through the core's JSON form: the editor holds what a file with this content gives.
    m_issues.clear();
    m_definition = StudyDefinition::fromJson(collect().toJson(), &m_issues);
    // A study's name is its key in the project: a new one may not take another's.
    if (m_studies.contains(m_definition.name) && m_definition.name != m_editing)
        m_issues.append({u"name"_s, Message::literal(tr("the project already has a study named "
                                                        "%1: edit that one, or choose another "
                                                        "name")
                                                         .arg(m_definition.name))});
    QHash<QString, QStringList> lines;
    static const QRegularExpression indexed(u"(candidates|scenarios)\\[(\\d+)\\]"_s);
    for (const StudyIssue &issue : std::as_const(m_issues)) {
        // "candidates[1].cost.currency" names the candidate too: the table lists names.
        QString field = issue.field;
        QRegularExpressionMatchIterator it = indexed.globalMatch(issue.field);
        qsizetype shift = 0;
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const int i = m.captured(2).toInt();
            const bool cand = m.captured(1) == u"candidates"_s;
            const QString name =
                cand ? (i < m_definition.candidates.size() ? m_definition.candidates.at(i).name
                                                           : QString())
                     : (i < m_definition.scenarios.size() ? m_definition.scenarios.at(i).name
                                                          : QString());
            if (name.isEmpty())
                continue;
            const QString with = m.captured(0) + u" ("_s + name + u')';
            field.replace(m.capturedStart(0) + shift, m.capturedLength(0), with);
            shift += with.size() - m.capturedLength(0);
        }
        lines[keyFor(issue.field)] << field + u": "_s + issue.message.translated();
    }
    QHash<QString, QString> messages;
    for (auto it = lines.cbegin(); it != lines.cend(); ++it)
        messages.insert(it.key(), it.value().join(u'\n'));
    m_errors.show(messages);
    updateButtons();
}

QString StudyEditor::errorFor(const QString &field) const
{
    return m_errors.errorFor(field);
}

void StudyEditor::updateButtons()
{
    m_save->setEnabled(m_issues.isEmpty() && !m_saving && !m_path.isEmpty());
}

bool StudyEditor::save()
{
    validate();
    if (!m_issues.isEmpty() || m_saving || m_path.isEmpty())
        return false;
    m_saving = true;
    updateButtons();
    const QString path = m_path;
    const StudyDefinition def = m_definition;
    // The project file is opened, migrated and written off the GUI thread, as `study run` does
    // before its first cell (StudyExecutor::prepare).
    m_jobs->run(
        [path, def] {
            SaveResult r;
            ProjectStore store;
            if (!store.open(path, ProjectStore::OpenMode::ReadWrite)) {
                r.error = store.lastError();
                return r;
            }
            StudyStore studies(&store);
            const auto v = studies.ensureVersion(def, StudyPlan::build(def), &r.what);
            if (!v)
                r.error = studies.lastError();
            else
                r.version = v->version;
            return r;
        },
        [this, name = def.name](const SaveResult &r) {
            m_saving = false;
            if (!r.error.isEmpty()) {
                m_general->setError(tr("The study could not be saved: %1").arg(r.error));
                updateButtons();
                emit saveFailed(r.error);
                return;
            }
            m_editing = name;
            m_editingVersion = r.version;
            m_cellsStarted = false;
            if (!m_studies.contains(name))
                m_studies.append(name);
            retranslateUi();
            emit saved(name, r.version, r.what);
        });
    return true;
}

} // namespace sb
