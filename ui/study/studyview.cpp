#include "studyview.h"

#include "runmirror.h"
#include "studydecisionmodel.h"
#include "studyeditor.h"

#include "common/backgroundjobs.h"
#include "editors/copyabletableview.h"
#include "rundashboard.h"
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studyexecutor.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

StudySnapshot readStudySnapshot(const QString &projectPath, const QString &study)
{
    StudySnapshot s;
    ProjectStore store;
    // Read-write when it can: the decision makes the candidates' test windows first, as `study
    // decide` does, so both front ends decide over the same windows.
    if (!store.open(projectPath, ProjectStore::OpenMode::ReadWrite) &&
        !store.open(projectPath, ProjectStore::OpenMode::ReadOnly)) {
        s.error = store.lastError();
        return s;
    }
    StudyStore studies(&store);
    if (!studies.available())
        return s; // an older file: no study yet
    s.studies = studies.studyNames();
    s.name =
        s.studies.contains(study) ? study : (s.studies.isEmpty() ? QString() : s.studies.last());
    if (s.name.isEmpty())
        return s;
    QString error;
    if (!buildStudyDecision(&store, s.name, 0, &s.decision, &error)) {
        s.error = error;
        return s;
    }
    const qint64 id = studies.studyId(s.name);
    if (const auto v = studies.version(id, s.decision.version)) {
        s.cells = studies.cells(v->id);
        s.definition = v->definition;
    }
    QList<StudyIssue> issues;
    const StudyDefinition d = StudyDefinition::fromJson(s.decision.definition, &issues);
    for (const StudyCandidate &c : d.candidates)
        s.candidates.append(c.name);
    for (const StudyScenario &sc : d.scenarios)
        s.scenarios.append(sc.name);
    s.repeats = d.repeats;
    return s;
}

StudyView::StudyView(QWidget *parent) : QWidget(parent), m_jobs(new BackgroundJobs(this))
{
    buildUi();
    retranslateUi();
    updateButtons();
}

StudyView::~StudyView()
{
    if (m_executor) {
        QMetaObject::invokeMethod(m_executor, &StudyExecutor::stop, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
    }
}

void StudyView::buildUi()
{
    m_studyLabel = new QLabel(this);
    m_studyCombo = new QComboBox(this);
    m_studyCombo->setObjectName(u"studyCombo"_s);
    m_studyCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_studyCombo->setMinimumContentsLength(16);
    connect(m_studyCombo, &QComboBox::activated, this,
            [this] { showStudy(m_studyCombo->currentText()); });
    m_newButton = new QPushButton(this);
    m_newButton->setObjectName(u"newStudyButton"_s);
    connect(m_newButton, &QPushButton::clicked, this, &StudyView::newStudy);
    m_editButton = new QPushButton(this);
    m_editButton->setObjectName(u"editStudyButton"_s);
    connect(m_editButton, &QPushButton::clicked, this, &StudyView::editStudy);
    m_runSavedButton = new QPushButton(this);
    m_runSavedButton->setObjectName(u"runSavedStudyButton"_s);
    connect(m_runSavedButton, &QPushButton::clicked, this, [this] {
        QString error;
        if (!runCurrentStudy(&error))
            m_current->setText(error);
    });
    m_runButton = new QPushButton(this);
    m_runButton->setObjectName(u"runStudyButton"_s);
    connect(m_runButton, &QPushButton::clicked, this, &StudyView::pickAndRun);
    m_stopButton = new QPushButton(this);
    m_stopButton->setObjectName(u"stopStudyButton"_s);
    connect(m_stopButton, &QPushButton::clicked, this, &StudyView::stopStudy);
    m_refreshButton = new QPushButton(this);
    m_refreshButton->setObjectName(u"refreshStudyButton"_s);
    connect(m_refreshButton, &QPushButton::clicked, this, &StudyView::reload);
    m_exportButton = new QPushButton(this);
    m_exportButton->setObjectName(u"exportDecisionButton"_s);
    connect(m_exportButton, &QPushButton::clicked, this, &StudyView::exportJson);

    // Two rows — the study and what defines it, then what runs and decides it — so the buttons
    // fit at 1280 px when their labels are twice as wide (Chinese).
    auto *top = new QHBoxLayout;
    top->addWidget(m_studyLabel);
    top->addWidget(m_studyCombo);
    top->addSpacing(12);
    top->addWidget(m_newButton);
    top->addWidget(m_editButton);
    top->addStretch(1);
    top->addWidget(m_exportButton);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_runSavedButton);
    actions->addWidget(m_runButton);
    actions->addWidget(m_stopButton);
    actions->addWidget(m_refreshButton);
    actions->addStretch(1);
    auto *bar = new QVBoxLayout;
    bar->addLayout(top);
    bar->addLayout(actions);

    m_summary = new QLabel(this);
    m_summary->setObjectName(u"studySummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_current = new QLabel(this);
    m_current->setObjectName(u"currentCell"_s);
    m_current->setWordWrap(true);

    m_progress = new QTableWidget(this);
    m_progress->setObjectName(u"progressMatrix"_s);
    m_progress->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_progress->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_progress->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_model = new StudyDecisionModel(this);
    m_table = new CopyableTableView(this);
    m_table->setObjectName(u"decisionTable"_s);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_notes = new QPlainTextEdit(this);
    m_notes->setObjectName(u"decisionNotes"_s);
    m_notes->setReadOnly(true);
    auto *decision = new QSplitter(Qt::Vertical, this);
    decision->addWidget(m_table);
    decision->addWidget(m_notes);
    decision->setStretchFactor(0, 3);
    decision->setStretchFactor(1, 1);

    auto makeChart = [this](const QString &name) {
        auto *v = new QChartView(new QChart, this);
        v->setObjectName(name);
        v->setRenderHint(QPainter::Antialiasing);
        v->chart()->legend()->setAlignment(Qt::AlignBottom);
        return v;
    };
    m_intervalChart = makeChart(u"intervalChart"_s);
    m_costChart = makeChart(u"costChart"_s);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(u"studyTabs"_s);
    m_tabs->addTab(decision, QString());
    m_tabs->addTab(m_intervalChart, QString());
    m_tabs->addTab(m_costChart, QString());

    auto *progressBox = new QWidget(this);
    auto *pl = new QVBoxLayout(progressBox);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(m_current);
    pl->addWidget(m_progress, 1);
    // The running cell's dashboard beside the matrix: the Run tab's widget, following a mirror
    // of the cell's controller (the controller lives in the study's thread; runmirror.h).
    m_dashboard = new RunDashboard(this);
    m_dashboard->setObjectName(u"studyCellDashboard"_s);
    m_mirror = new RunMirror(this);
    connect(m_mirror, &RunMirror::begun, this,
            [this](const RunPlan &plan) { m_dashboard->attach(m_mirror, plan); });
    connect(m_mirror, &RunMirror::stopRequested, this, &StudyView::stopStudy);
    auto *live = new QSplitter(Qt::Horizontal, this);
    live->setObjectName(u"studyLiveSplitter"_s);
    live->addWidget(progressBox);
    // In a scroll area: the dashboard's own minimum height (its charts) would otherwise set the
    // whole window's, taller than a 1280×800 screen (tst_resultslayout).
    auto *dashboardScroll = new QScrollArea(this);
    dashboardScroll->setObjectName(u"studyCellDashboardScroll"_s);
    dashboardScroll->setWidgetResizable(true);
    dashboardScroll->setFrameShape(QFrame::NoFrame);
    dashboardScroll->setWidget(m_dashboard);
    live->addWidget(dashboardScroll);
    live->setStretchFactor(0, 2);
    live->setStretchFactor(1, 3);
    live->setSizes({520, 760}); // at 1280 px: six matrix columns, and the dashboard's charts
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(u"studySplitter"_s);
    split->addWidget(live);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    m_viewPage = new QWidget(this);
    auto *layout = new QVBoxLayout(m_viewPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    m_editor = new StudyEditor(this);
    m_editor->setObjectName(u"studyEditor"_s);
    connect(m_editor, &StudyEditor::saved, this, &StudyView::onEditorSaved);
    connect(m_editor, &StudyEditor::cancelled, this, &StudyView::showView);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_viewPage);
    m_pages->addWidget(m_editor);
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(m_pages);
}

void StudyView::retranslateUi()
{
    m_studyLabel->setText(tr("Study:"));
    m_newButton->setText(tr("New study…"));
    m_newButton->setToolTip(tr("Define a study: candidates from the project's SUTs, scenarios "
                               "from its load profiles"));
    m_editButton->setText(tr("Edit study…"));
    m_editButton->setToolTip(tr("Edit the shown study; once its cells have run, saving a change "
                                "starts a new version"));
    m_runSavedButton->setText(tr("Run study"));
    m_runSavedButton->setToolTip(tr("Run the shown study's latest version, or resume it at its "
                                    "next unfinished cell"));
    m_runButton->setText(tr("Run study file…"));
    m_runButton->setToolTip(tr("Run a study definition (JSON) against this project; a study "
                               "already in the project resumes at its next unfinished cell"));
    m_stopButton->setText(tr("Stop"));
    m_refreshButton->setText(tr("Decide again"));
    m_exportButton->setText(tr("Export decision JSON…"));
    m_tabs->setTabText(0, tr("Decision"));
    m_tabs->setTabText(1, tr("Intervals"));
    m_tabs->setTabText(2, tr("Cost against merit"));
    fillProgress();
    fillNotes();
    fillCharts();
}

void StudyView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StudyView::setProject(const QString &projectPath)
{
    m_path = projectPath;
    reload();
}

void StudyView::showStudy(const QString &name)
{
    m_wanted = name;
    reload();
}

void StudyView::reload()
{
    const quint64 generation = ++m_generation;
    if (m_path.isEmpty()) {
        apply(generation, StudySnapshot{});
        return;
    }
    m_pending = true;
    updateButtons();
    const QString path = m_path;
    const QString wanted = m_wanted;
    m_jobs->run([path, wanted] { return readStudySnapshot(path, wanted); },
                [this, generation](StudySnapshot s) { apply(generation, s); });
}

void StudyView::apply(quint64 generation, const StudySnapshot &snapshot)
{
    if (generation != m_generation)
        return; // a newer read superseded this one
    m_pending = false;
    m_snapshot = snapshot;
    m_studyCombo->clear();
    m_studyCombo->addItems(snapshot.studies);
    m_studyCombo->setCurrentText(snapshot.name);
    m_model->setDecision(snapshot.decision);
    fillProgress();
    fillNotes();
    fillCharts();
    updateButtons();
}

QString StudyView::cellText(const QString &state) const
{
    if (state == u"completed")
        return tr("done");
    if (state == u"running")
        return tr("running");
    if (state == u"failed")
        return tr("failed");
    return tr("pending");
}

QString StudyView::leftOutText(const QString &state) const
{
    if (state == u"client-saturated")
        return tr("client saturated");
    if (state == u"cache-state")
        return tr("cache state");
    return cellText(state);
}

void StudyView::fillProgress()
{
    const StudySnapshot &s = m_snapshot;
    m_progress->clear();
    m_progress->setRowCount(int(s.candidates.size()));
    m_progress->setColumnCount(int(s.scenarios.size() * s.repeats));
    m_progress->setVerticalHeaderLabels(s.candidates);
    QStringList columns;
    for (const QString &sc : s.scenarios)
        for (int r = 0; r < s.repeats; ++r)
            columns.append(tr("%1 · repeat %2").arg(sc).arg(r + 1));
    m_progress->setHorizontalHeaderLabels(columns);
    int done = 0;
    for (const StoredStudyCell &c : s.cells) {
        const int row = int(s.candidates.indexOf(c.candidate));
        const int col = int(s.scenarios.indexOf(c.scenario)) * s.repeats + c.repeat;
        if (row < 0 || col < 0)
            continue;
        auto *item = new QTableWidgetItem(u"%1 · #%2"_s.arg(cellText(c.state)).arg(c.position + 1));
        QString tip = tr("Cell %1 in the running order").arg(c.position + 1);
        if (c.runId > 0)
            tip += u'\n' + tr("Run %1, attempts: %2").arg(c.runId).arg(c.attempts);
        if (!c.reason.isEmpty())
            tip += u'\n' + c.reason;
        item->setToolTip(tip);
        if (c.state == u"completed") {
            item->setBackground(QColor(0xd8, 0xf0, 0xdc));
            ++done;
        } else if (c.state == u"failed") {
            item->setBackground(QColor(0xf6, 0xd5, 0xd5));
        } else if (c.state == u"running") {
            item->setBackground(QColor(0xfd, 0xf0, 0xc8));
        }
        m_progress->setItem(row, col, item);
    }
    if (s.name.isEmpty()) {
        m_summary->setText(s.error.isEmpty()
                               ? tr("No study in this project yet. Run a study file (candidates × "
                                    "scenarios × repeats, docs/study.md) to start one.")
                               : s.error);
        return;
    }
    const StudyDecision &d = s.decision;
    QString text = tr("<b>%1</b> (version %2): %3")
                       .arg(d.name.toHtmlEscaped())
                       .arg(d.version)
                       .arg(d.question.toHtmlEscaped());
    text += u"<br>"_s + tr("%1 of %2 cells done.").arg(done).arg(s.cells.size()) + u' ' +
            d.orderNote.translated().toHtmlEscaped();
    if (!s.error.isEmpty())
        text += u"<br>"_s + s.error.toHtmlEscaped();
    m_summary->setText(text);
}

void StudyView::fillNotes()
{
    const StudyDecision &d = m_snapshot.decision;
    QStringList lines;
    const QStringList missing = d.missingCandidates();
    if (!missing.isEmpty())
        lines << tr("Missing: %1 (no completed cell).").arg(missing.join(u", "_s));
    if (!d.leftOut.isEmpty()) {
        lines << tr("Cells left out of the decision:");
        for (const StudyLeftOut &l : d.leftOut)
            lines << tr("  #%1 %2 · %3 · repeat %4 (%5): %6")
                         .arg(l.position)
                         .arg(l.candidate, l.scenario)
                         .arg(l.repeat)
                         .arg(leftOutText(l.state), Message::fromEnglish(l.reason).translated());
    }
    for (const QString &n : d.notes)
        lines << Message::fromEnglish(n).translated(); // core stores its texts in English
    m_notes->setPlainText(lines.join(u'\n'));
}

void StudyView::fillCharts()
{
    const StudyDecision &d = m_snapshot.decision;
    const StudyScenarioDecision *sd = d.scenarios.isEmpty() ? nullptr : &d.scenarios.first();
    QChart *ic = m_intervalChart->chart();
    QChart *cc = m_costChart->chart();
    for (QChart *c : {ic, cc}) {
        c->removeAllSeries();
        for (QAbstractAxis *a : c->axes())
            c->removeAxis(a);
    }
    if (!sd) {
        ic->setTitle(tr("No decision yet: the chart shows the figure of merit of each candidate "
                        "once a study has completed cells"));
        cc->setTitle(ic->title());
        return;
    }
    const QString unit = sd->unit.isEmpty() ? QString() : u" (%1)"_s.arg(sd->unit);
    ic->setTitle(tr("%1 — %2, mean over the repeats with its 95 % interval")
                     .arg(sd->scenario, sd->meritLabel.translated()));
    auto *x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    auto *y = new QValueAxis;
    y->setTitleText(sd->meritLabel.translated() + unit);
    ic->addAxis(x, Qt::AlignBottom);
    ic->addAxis(y, Qt::AlignLeft);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int i = 0; i < sd->candidates.size(); ++i) {
        const StudyCandidateResult &c = sd->candidates.at(i);
        x->append(c.candidate, i);
        const SeriesStats &st = c.merit.stats;
        if (std::isnan(st.mean))
            continue;
        auto *mean = new QScatterSeries;
        mean->setName(c.candidate);
        mean->append(i, st.mean);
        ic->addSeries(mean);
        mean->attachAxis(x);
        mean->attachAxis(y);
        lo = std::min(lo, st.mean);
        hi = std::max(hi, st.mean);
        if (st.meanInterval.available) {
            auto *bar = new QLineSeries;
            bar->append(i, st.meanInterval.lo);
            bar->append(i, st.meanInterval.hi);
            bar->setColor(mean->color());
            QPen pen = bar->pen();
            pen.setWidth(3);
            bar->setPen(pen);
            ic->addSeries(bar);
            bar->attachAxis(x);
            bar->attachAxis(y);
            for (QLegendMarker *m : ic->legend()->markers(bar))
                m->setVisible(false); // the mean's entry names the candidate
            lo = std::min(lo, st.meanInterval.lo);
            hi = std::max(hi, st.meanInterval.hi);
        }
    }
    x->setRange(-0.5, sd->candidates.size() - 0.5);
    if (std::isfinite(lo)) {
        const double pad = std::max((hi - lo) * 0.1, std::abs(hi) * 0.02 + 1e-9);
        y->setRange(lo - pad, hi + pad);
    }

    cc->setTitle(tr("%1 — cost per 1M output tokens against %2")
                     .arg(sd->scenario, sd->meritLabel.translated()));
    auto *cx = new QValueAxis;
    cx->setTitleText(sd->meritLabel.translated() + unit);
    auto *cy = new QValueAxis;
    cy->setTitleText(tr("Cost / 1M output tokens"));
    cc->addAxis(cx, Qt::AlignBottom);
    cc->addAxis(cy, Qt::AlignLeft);
    double xl = std::numeric_limits<double>::infinity(), xh = -xl, yl = xl, yh = -xl;
    int points = 0;
    for (const StudyCandidateResult &c : sd->candidates) {
        if (!c.costPerMillionOutputTokens || std::isnan(c.merit.stats.mean))
            continue;
        auto *p = new QScatterSeries;
        p->setName(u"%1 (%2)"_s.arg(c.candidate, c.currency));
        p->append(c.merit.stats.mean, *c.costPerMillionOutputTokens);
        cc->addSeries(p);
        p->attachAxis(cx);
        p->attachAxis(cy);
        xl = std::min(xl, c.merit.stats.mean);
        xh = std::max(xh, c.merit.stats.mean);
        yl = std::min(yl, *c.costPerMillionOutputTokens);
        yh = std::max(yh, *c.costPerMillionOutputTokens);
        ++points;
    }
    if (points == 0) {
        cc->setTitle(tr("%1 — no candidate has a cost yet (import bills or give a price per "
                        "hour)")
                         .arg(sd->scenario));
    } else {
        const double px = std::max((xh - xl) * 0.15, std::abs(xh) * 0.05 + 1e-9);
        const double py = std::max((yh - yl) * 0.15, std::abs(yh) * 0.05 + 1e-9);
        cx->setRange(xl - px, xh + px);
        cy->setRange(std::max(0.0, yl - py), yh + py);
    }
}

void StudyView::updateButtons()
{
    const bool running = m_executor != nullptr;
    m_newButton->setEnabled(!running && !m_path.isEmpty() && m_doc);
    m_editButton->setEnabled(!running && !m_snapshot.name.isEmpty() && !m_pending);
    m_runSavedButton->setEnabled(!running && !m_snapshot.name.isEmpty() && !m_pending);
    m_runButton->setEnabled(!running && !m_path.isEmpty());
    m_stopButton->setEnabled(running);
    m_refreshButton->setEnabled(!m_path.isEmpty() && !m_pending);
    m_exportButton->setEnabled(!m_snapshot.name.isEmpty());
    m_studyCombo->setEnabled(!running);
}

void StudyView::pickAndRun()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Run a study"), QString(),
                                                      tr("Study definitions (*.json)"));
    if (file.isEmpty())
        return;
    QString error;
    if (!runStudyFile(file, &error))
        m_current->setText(error);
}

bool StudyView::runStudyFile(const QString &file, QString *error)
{
    if (m_executor) {
        *error = tr("A study is already running.");
        return false;
    }
    if (m_path.isEmpty()) {
        *error = tr("Save the project first: a study records its runs in the project file.");
        return false;
    }
    QList<StudyIssue> issues;
    StudyDefinition def = StudyDefinition::fromFile(file, &issues);
    if (!issues.isEmpty()) {
        QStringList lines;
        for (const StudyIssue &i : issues)
            lines << i.text();
        *error = tr("%1 does not validate:\n%2").arg(file, lines.join(u'\n'));
        return false;
    }
    return runDefinition(def, error);
}

bool StudyView::runCurrentStudy(QString *error)
{
    if (m_executor) {
        *error = tr("A study is already running.");
        return false;
    }
    if (m_snapshot.name.isEmpty()) {
        *error = tr("No study to run: define one with New study… or run a study file.");
        return false;
    }
    QList<StudyIssue> issues;
    const StudyDefinition def = StudyDefinition::fromJson(m_snapshot.definition, &issues);
    if (!issues.isEmpty()) {
        QStringList lines;
        for (const StudyIssue &i : issues)
            lines << i.text();
        *error = tr("The study %1 does not validate:\n%2").arg(m_snapshot.name, lines.join(u'\n'));
        return false;
    }
    return runDefinition(def, error);
}

bool StudyView::runDefinition(const StudyDefinition &def, QString *error)
{
    if (m_executor) {
        *error = tr("A study is already running.");
        return false;
    }
    m_wanted = def.name;
    m_thread = new QThread(this);
    m_thread->setObjectName(u"study"_s);
    m_executor = new StudyExecutor(m_path, def);
    m_executor->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_executor, &QObject::deleteLater);
    connect(m_executor, &StudyExecutor::cellStarted, this, &StudyView::onCellStarted);
    // In the study's thread, where the cell's controller lives: its records are relayed to the
    // mirror the dashboard follows, in batches, never waited on.
    RunMirror *mirror = m_mirror;
    connect(
        m_executor, &StudyExecutor::runStarted, m_executor,
        [mirror](RunController *controller, const RunPlan &plan) {
            relayRun(controller, plan, mirror);
        },
        Qt::DirectConnection);
    connect(m_executor, &StudyExecutor::cellFinished, this, &StudyView::onCellFinished);
    connect(m_executor, &StudyExecutor::note, this, &StudyView::statusMessage);
    connect(m_executor, &StudyExecutor::finished, this, &StudyView::onExecutorFinished);
    StudyExecutor *exec = m_executor;
    // prepare() opens and migrates the project file: in the study's thread, not the GUI's.
    connect(m_thread, &QThread::started, exec, [exec] {
        QString what, err;
        if (!exec->prepare(&what, &err)) {
            emit exec->finished(false, err);
            return;
        }
        exec->start();
    });
    m_current->setText(tr("Starting study %1…").arg(def.name));
    m_thread->start();
    updateButtons();
    return true;
}

void StudyView::stopStudy()
{
    if (m_executor)
        QMetaObject::invokeMethod(m_executor, &StudyExecutor::stop, Qt::QueuedConnection);
}

void StudyView::onCellStarted(const StoredStudyCell &cell, qint64 runId, int total)
{
    m_current->setText(tr("Running cell %1 of %2: %3 · %4 · repeat %5 (run %6)")
                           .arg(cell.position + 1)
                           .arg(total)
                           .arg(cell.candidate, cell.scenario)
                           .arg(cell.repeat + 1)
                           .arg(runId));
    StoredStudyCell c = cell;
    c.state = u"running"_s;
    c.runId = runId;
    bool found = false;
    for (StoredStudyCell &x : m_snapshot.cells)
        if (x.position == c.position) {
            x = c;
            found = true;
        }
    if (!found)
        reload(); // the first cell of a new study: read its definition and cells
    else
        fillProgress();
}

void StudyView::onCellFinished(const StoredStudyCell &cell, const QString &state,
                               const QString &reason)
{
    for (StoredStudyCell &x : m_snapshot.cells)
        if (x.position == cell.position) {
            x.state = state;
            x.reason = reason;
        }
    fillProgress();
}

void StudyView::onExecutorFinished(bool ok, const QString &error)
{
    m_thread->quit();
    m_thread->wait();
    m_thread->deleteLater();
    m_thread = nullptr;
    m_executor = nullptr;
    m_current->setText(ok ? tr("The study finished.") : tr("The study stopped: %1").arg(error));
    updateButtons();
    reload();
    emit studyFinished(ok, error);
}

void StudyView::newStudy()
{
    if (m_executor || m_path.isEmpty())
        return;
    m_editor->setProject(m_doc, m_path, m_snapshot.studies);
    m_editor->newStudy();
    m_pages->setCurrentWidget(m_editor);
    m_editor->showFromTop();
}

bool StudyView::editStudy()
{
    if (m_executor || m_snapshot.name.isEmpty())
        return false;
    QList<StudyIssue> issues;
    const StudyDefinition def = StudyDefinition::fromJson(m_snapshot.definition, &issues);
    bool started = false;
    for (const StoredStudyCell &c : m_snapshot.cells)
        started = started || c.attempts > 0 || c.state != u"pending"_s;
    m_editor->setProject(m_doc, m_path, m_snapshot.studies);
    m_editor->editStudy(def, m_snapshot.decision.version, started);
    m_pages->setCurrentWidget(m_editor);
    m_editor->showFromTop();
    return true;
}

bool StudyView::isEditing() const
{
    return m_pages->currentWidget() == m_editor;
}

void StudyView::showView()
{
    m_pages->setCurrentWidget(m_viewPage);
}

void StudyView::onEditorSaved(const QString &study, int version, const QString &what)
{
    showView();
    QString text;
    if (what == u"new-version")
        text = tr("Saved %1 as version %2: the cells of version %3 had run, so the change "
                  "starts fresh cells and their runs stay with version %3.")
                   .arg(study)
                   .arg(version)
                   .arg(version - 1);
    else if (what == u"resumed")
        text = tr("%1 is unchanged (version %2).").arg(study).arg(version);
    else
        text = tr("Saved %1 (version %2). Run study runs its cells.").arg(study).arg(version);
    m_current->setText(text);
    emit statusMessage(text);
    showStudy(study);
}

void StudyView::exportJson()
{
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Export the decision"),
                                     m_snapshot.name + u"-decision.json"_s, tr("JSON (*.json)"));
    if (file.isEmpty())
        return;
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(decisionJson()).toJson()) < 0 ||
        !f.commit())
        m_current->setText(tr("Could not write %1: %2").arg(file, f.errorString()));
}

} // namespace sb
