#include "mainwindow.h"

#include "cacheauditdialog.h"
#include "compare/comparisonview.h"
#include "costpage.h"
#include "editors/dataseteditor.h"
#include "editors/loadprofileeditor.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "projectrunner.h"
#include "projecttreemodel.h"
#include "run/runcontroller.h"
#include "settings.h"
#include "settingslanguage.h"
#include "study/studyview.h"

#if __has_include("rundashboard.h")
#include "rundashboard.h"
#define SB_HAVE_RUNDASHBOARD 1
#endif
#if __has_include("resultsview.h")
#include "resultsview.h"
#define SB_HAVE_RESULTSVIEW 1
#endif

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
QString datasetFileFrom(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls()) {
        const QString f = url.toLocalFile();
        if (f.endsWith(".json"_L1, Qt::CaseInsensitive) ||
            f.endsWith(".jsonl"_L1, Qt::CaseInsensitive))
            return f;
    }
    return {};
}
} // namespace

MainWindow::MainWindow(Settings *settings, ApiKeyStore *keys, QWidget *parent)
    : QMainWindow(parent), m_ownedSettings(settings ? nullptr : new Settings),
      m_settings(settings ? settings : m_ownedSettings.get()),
      m_keys(keys ? keys : new ApiKeyStore(nullptr, this)), m_language(new LanguageSwitcher(this)),
      m_doc(new ProjectDocument(this)), m_treeModel(new ProjectTreeModel(m_doc, this)),
      m_runner(new ProjectRunner(m_keys, this))
{
    setObjectName(u"MainWindow"_s);
    setAcceptDrops(true);
    // Before any widget exists, so views that set their texts once are built in the right
    // language; later switches reach every widget through QEvent::LanguageChange.
    m_language->apply(m_settings->language());
    createActions();
    createWidgets();
    createMenus();
    retranslateUi();

    connect(m_doc, &ProjectDocument::projectReset, this, [this] {
        m_editKind = EntityKind::None;
        m_editId = 0;
        m_shownRunId = 0;
        m_editorStack->setCurrentWidget(m_welcome);
        refreshPlanCombos();
        updateTitle();
    });
    auto planChanged = [this] {
        refreshPlanCombos();
        updateActions();
    };
    connect(m_doc, &ProjectDocument::entityAdded, this, planChanged);
    connect(m_doc, &ProjectDocument::entityRemoved, this,
            [this, planChanged](EntityKind kind, int id) {
                if (kind == m_editKind && id == m_editId) {
                    m_editKind = EntityKind::None;
                    m_editorStack->setCurrentWidget(m_welcome);
                }
                planChanged();
            });
    connect(m_doc, &ProjectDocument::entityChanged, this, planChanged);
    connect(m_doc, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ProjectDocument::pathChanged, this, &MainWindow::updateTitle);
    // Compare and Cost read the project file itself: a new project's temporary one too.
    connect(m_doc, &ProjectDocument::storeChanged, this, [this](const QString &storePath) {
        m_cost->setProject(storePath);
        m_compare->setProject(storePath);
        m_study->setProject(storePath);
    });
    // Another process (the CLI) importing bills, creating windows or recording runs: the views
    // that read the file read it again, each off the GUI thread (a hidden tab when shown), and
    // the project tree lists the runs added.
    connect(m_doc, &ProjectDocument::changedOnDisk, m_cost, &CostPage::reloadFromDisk);
    connect(m_doc, &ProjectDocument::changedOnDisk, m_compare, &ComparisonView::reloadFromDisk);
    connect(m_doc, &ProjectDocument::changedOnDisk, m_doc,
            &ProjectDocument::refreshRunsInBackground);
    // Ticks, baseline and ranking are remembered per project file as they change, so a crash
    // or another project opened meanwhile loses nothing.
    connect(m_compare, &ComparisonView::selectionEdited, this, &MainWindow::saveCompareState);
    // A plain Save writes deletions and changes to the same file: the comparison reads it again.
    connect(m_doc, &ProjectDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            m_compare->setProject(m_doc->storePath());
    });
    connect(m_doc, &ProjectDocument::runRecordsLoaded, this, &MainWindow::onRunRecordsLoaded);
    connect(m_doc, &ProjectDocument::largeRunReady, this, &MainWindow::onLargeRunReady);
    connect(m_treeModel, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        // Keep the edited entity selected across a rebuild without reloading its editor.
        const QModelIndex i = m_treeModel->indexFor(m_editKind, m_editId);
        if (i.isValid()) {
            m_selecting = true;
            m_tree->setCurrentIndex(i);
            m_selecting = false;
        }
    });

    connect(m_runner, &ProjectRunner::stateChanged, this, [this] {
        updateActions();
        updateRunStatus();
        if (m_runner->state() == ProjectRunner::State::Running)
            m_progressTimer->start();
        else if (m_runner->state() == ProjectRunner::State::Idle)
            m_progressTimer->stop();
    });
    connect(m_runner, &ProjectRunner::statusMessage, this,
            [this](const QString &m) { showMessage(m); });
    connect(m_runner, &ProjectRunner::runStarted, this, &MainWindow::onRunStarted);
    connect(m_runner, &ProjectRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runner, &ProjectRunner::pointStarted, this,
            [this](const QString &label, int position, int planned) {
                showMessage(
                    tr("Sweep point %1 of %2: %3").arg(position + 1).arg(planned).arg(label), 0);
            });
    connect(m_runner, &ProjectRunner::sessionFinished, this, [this](const SessionResult &r) {
        if (m_runner->request().mode == RunMode::MaxValidRate && r.ok)
            showMessage(r.validRate > 0
                            ? tr("Highest VALID Server rate: %1 req/s (to within %2 % of the "
                                 "maximum throughput %3 req/s).")
                                  .arg(r.validRate, 0, 'f', 2)
                                  .arg(m_runner->request().rateTolerance * 100)
                                  .arg(r.maxThroughput, 0, 'f', 2)
                            : tr("No Server rate tried was VALID (lowest tried: %1 req/s).")
                                  .arg(r.lowestTried, 0, 'f', 2),
                        0);
        else if (m_runner->request().mode == RunMode::Sweep && r.ok)
            showMessage(tr("Sweep finished: %1 runs.").arg(r.points.size()), 0);
        else if (m_runner->request().numRuns > 1 && r.ok)
            showMessage(seriesMessage(r), 0);
    });
    connect(m_runner, &ProjectRunner::runFailed, this,
            [this](const QString &e) { showMessage(e, 0); });
    connect(m_language, &LanguageSwitcher::languageChanged, this, [this](const QString &code) {
        m_langEnAct->setChecked(code == "en"_L1 && !m_settings->language().isEmpty());
        m_langZhAct->setChecked(code == "zh_CN"_L1 && !m_settings->language().isEmpty());
        m_langSystemAct->setChecked(m_settings->language().isEmpty());
    });

    m_langSystemAct->setChecked(m_settings->language().isEmpty());
    m_langEnAct->setChecked(m_settings->language() == "en"_L1);
    m_langZhAct->setChecked(m_settings->language() == "zh_CN"_L1);
    // Read before newProject(), which makes the (unsaved) new project the last one.
    const QString lastProject =
        m_settings->reopenLastProject() ? m_settings->lastProject() : QString();
    m_doc->newProject();
    // The project the window shows is the one a restart reopens; a new project is none.
    connect(m_doc, &ProjectDocument::pathChanged, this, [this](const QString &path) {
        m_settings->setLastProject(path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath());
    });
    restoreWindowState();
    updateActions();
    updateRunStatus();
    // After the caller's own openProject() (a project named on the command line wins), in the
    // first turn of the event loop.
    if (!lastProject.isEmpty())
        QTimer::singleShot(0, this, [this, lastProject] { reopenLastProject(lastProject); });
}

MainWindow::~MainWindow()
{
    // A window deleted without closing (a test, a session ending) is remembered all the same.
    saveWindowState();
#ifdef SB_HAVE_RUNDASHBOARD
    static_cast<RunDashboard *>(m_dashboard)->detach();
#endif
    // The runner stops a run still going and closes its writer before the document goes.
    delete m_runner;
    m_runner = nullptr;
}

void MainWindow::createActions()
{
    QStyle *s = style();
    m_newAct = new QAction(s->standardIcon(QStyle::SP_FileIcon), {}, this);
    m_newAct->setShortcut(QKeySequence::New);
    connect(m_newAct, &QAction::triggered, this, &MainWindow::newProject);
    m_openAct = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), {}, this);
    m_openAct->setShortcut(QKeySequence::Open);
    connect(m_openAct, &QAction::triggered, this, &MainWindow::openProjectDialog);
    m_saveAct = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), {}, this);
    m_saveAct->setShortcut(QKeySequence::Save);
    connect(m_saveAct, &QAction::triggered, this, &MainWindow::saveProject);
    m_saveAsAct = new QAction(this);
    m_saveAsAct->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAct, &QAction::triggered, this, &MainWindow::saveProjectAs);
    m_quitAct = new QAction(this);
    m_quitAct->setShortcut(QKeySequence::Quit);
    m_quitAct->setMenuRole(QAction::QuitRole);
    connect(m_quitAct, &QAction::triggered, this, &QWidget::close);
    m_clearRecentAct = new QAction(this);
    connect(m_clearRecentAct, &QAction::triggered, this, [this] {
        m_settings->clearRecentProjects();
        rebuildRecentMenu();
    });

    m_addSutAct = new QAction(s->standardIcon(QStyle::SP_ComputerIcon), {}, this);
    connect(m_addSutAct, &QAction::triggered, this, [this] { addEntity(EntityKind::Sut); });
    m_addDatasetAct = new QAction(s->standardIcon(QStyle::SP_FileIcon), {}, this);
    connect(m_addDatasetAct, &QAction::triggered, this, [this] { addEntity(EntityKind::Dataset); });
    m_addProfileAct = new QAction(s->standardIcon(QStyle::SP_FileDialogDetailedView), {}, this);
    connect(m_addProfileAct, &QAction::triggered, this, [this] { addEntity(EntityKind::Profile); });
    m_removeAct = new QAction(s->standardIcon(QStyle::SP_TrashIcon), {}, this);
    m_removeAct->setShortcut(QKeySequence::Delete);
    m_removeAct->setShortcutContext(
        Qt::WidgetShortcut); // only in the tree: Delete edits text elsewhere
    connect(m_removeAct, &QAction::triggered, this, &MainWindow::removeCurrentEntity);

    m_runAct = new QAction(s->standardIcon(QStyle::SP_MediaPlay), {}, this);
    m_runAct->setObjectName(u"runAction"_s);
    m_runAct->setShortcut(Qt::Key_F5);
    connect(m_runAct, &QAction::triggered, this, &MainWindow::startRun);
    m_stopAct = new QAction(s->standardIcon(QStyle::SP_MediaStop), {}, this);
    m_stopAct->setObjectName(u"stopAction"_s);
    m_stopAct->setShortcut(Qt::Key_Escape);
    connect(m_stopAct, &QAction::triggered, this, &MainWindow::stopRun);
    m_auditAct = new QAction(this);
    m_auditAct->setObjectName(u"cacheAuditAction"_s);
    connect(m_auditAct, &QAction::triggered, this, &MainWindow::openCacheAudit);

    m_aboutAct = new QAction(this);
    connect(m_aboutAct, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About ServeBench"),
                           tr("<b>ServeBench %1</b><p>A workbench for choosing an LLM serving "
                              "platform on evidence: the same streamed benchmark against every "
                              "candidate, with TTFT, TPOT, ITL, throughput and cost traceable to "
                              "raw records.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    m_languageGroup = new QActionGroup(this);
    m_langSystemAct = new QAction(this);
    m_langEnAct = new QAction(LanguageSwitcher::nativeName(u"en"_s), this);
    m_langZhAct = new QAction(LanguageSwitcher::nativeName(u"zh_CN"_s), this);
    for (QAction *a : {m_langSystemAct, m_langEnAct, m_langZhAct}) {
        a->setCheckable(true);
        m_languageGroup->addAction(a);
    }
    connect(m_langSystemAct, &QAction::triggered, this, [this] { setLanguage({}); });
    connect(m_langEnAct, &QAction::triggered, this, [this] { setLanguage(u"en"_s); });
    connect(m_langZhAct, &QAction::triggered, this, [this] { setLanguage(u"zh_CN"_s); });
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(m_newAct);
    m_fileMenu->addAction(m_openAct);
    m_recentMenu = m_fileMenu->addMenu(QString());
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_saveAct);
    m_fileMenu->addAction(m_saveAsAct);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAct);

    m_projectMenu = menuBar()->addMenu(QString());
    m_projectMenu->addAction(m_addSutAct);
    m_projectMenu->addAction(m_addDatasetAct);
    m_projectMenu->addAction(m_addProfileAct);
    m_projectMenu->addSeparator();
    m_projectMenu->addAction(m_removeAct);

    m_runMenu = menuBar()->addMenu(QString());
    m_runMenu->addAction(m_runAct);
    m_runMenu->addAction(m_stopAct);
    m_runMenu->addSeparator();
    m_runMenu->addAction(m_auditAct);

    m_viewMenu = menuBar()->addMenu(QString());
    m_viewMenu->addAction(m_treeDock->toggleViewAction());
    m_viewMenu->addAction(m_fileBar->toggleViewAction());
    m_viewMenu->addAction(m_runBar->toggleViewAction());

    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageMenu->addAction(m_langSystemAct);
    m_languageMenu->addSeparator();
    m_languageMenu->addAction(m_langEnAct);
    m_languageMenu->addAction(m_langZhAct);

    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(m_aboutAct);
}

void MainWindow::createWidgets()
{
    // Project tree
    m_treeDock = new QDockWidget(this);
    m_treeDock->setObjectName(u"projectDock"_s); // saveState() keys on object names
    m_treeDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    m_tree = new QTreeView(m_treeDock);
    m_tree->setObjectName(u"projectTree"_s);
    m_tree->setModel(m_treeModel);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->addAction(m_removeAct);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_tree->addAction(m_addSutAct);
    m_tree->addAction(m_addDatasetAct);
    m_tree->addAction(m_addProfileAct);
    m_tree->expandAll();
    m_treeDock->setWidget(m_tree);
    addDockWidget(Qt::LeftDockWidgetArea, m_treeDock);
    resizeDocks({m_treeDock}, {290}, Qt::Horizontal);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::onTreeCurrentChanged);

    // Editors
    m_editorStack = new QStackedWidget(this);
    m_welcome = new QLabel(m_editorStack);
    m_welcome->setAlignment(Qt::AlignCenter);
    m_welcome->setWordWrap(true);
    m_welcome->setMargin(40);
    m_sutEditor = new SutEditor(m_editorStack);
    m_sutEditor->setKeyStore(m_keys);
    m_datasetEditor = new DatasetEditor(m_editorStack);
    m_profileEditor = new LoadProfileEditor(m_editorStack);
    m_editorStack->addWidget(m_welcome);
    m_editorStack->addWidget(m_sutEditor);
    m_editorStack->addWidget(m_datasetEditor);
    m_editorStack->addWidget(m_profileEditor);
    connect(m_sutEditor, &SutEditor::edited, this, &MainWindow::onEditorEdited);
    connect(m_datasetEditor, &DatasetEditor::edited, this, &MainWindow::onEditorEdited);
    connect(m_profileEditor, &LoadProfileEditor::edited, this, &MainWindow::onEditorEdited);
    connect(m_sutEditor, &SutEditor::validityChanged, this, [this] { onEditorEdited(); });
    connect(m_datasetEditor, &DatasetEditor::validityChanged, this, [this] { onEditorEdited(); });
    connect(m_profileEditor, &LoadProfileEditor::validityChanged, this,
            [this] { onEditorEdited(); });
    connect(m_sutEditor, &SutEditor::statusMessage, this,
            [this](const QString &m) { showMessage(m); });
    connect(m_datasetEditor, &DatasetEditor::statusMessage, this,
            [this](const QString &m) { showMessage(m); });
    connect(m_datasetEditor, &DatasetEditor::hashComputed, this, [this](const QString &hash) {
        if (m_editKind == EntityKind::Dataset)
            m_doc->setDatasetHash(m_editId, hash);
    });

#ifdef SB_HAVE_RUNDASHBOARD
    m_dashboard = new RunDashboard(this);
#else
    m_dashboard = new QLabel(this);
    static_cast<QLabel *>(m_dashboard)->setAlignment(Qt::AlignCenter);
#endif
    m_dashboard->setObjectName(u"runDashboard"_s);
#ifdef SB_HAVE_RESULTSVIEW
    m_results = new ResultsView(this);
#else
    auto *text = new QPlainTextEdit(this);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_results = text;
#endif
    m_results->setObjectName(u"resultsView"_s);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(u"mainTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_editorStack, QString());
    m_tabs->addTab(m_dashboard, QString());
    m_tabs->addTab(m_results, QString());
    // Bills and test windows live in the project file: the page reads it on its own thread.
    m_cost = new CostPage(this);
    m_cost->setObjectName(u"costPage"_s);
    m_tabs->addTab(m_cost, QString());
    // Runs are compared from the project file, read on worker threads like the cost page's.
    m_compare = new ComparisonView(this);
    m_compare->setObjectName(u"comparisonView"_s);
    m_tabs->addTab(m_compare, QString());
    // Selection studies: defined in the editor or a JSON file, decided from the project file
    // (docs/study.md); the study runs in its own thread through the one run pipeline.
    m_study = new StudyView(this);
    m_study->setObjectName(u"studyView"_s);
    m_study->setDocument(m_doc); // the study editor offers its SUTs and load profiles
    m_tabs->addTab(m_study, QString());
    connect(m_study, &StudyView::statusMessage, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });
    connect(m_study, &StudyView::studyFinished, this, [this] {
        // The study's runs are in the file: the tree lists them under their study, and the cost
        // and comparison pages read them again.
        m_doc->refreshRuns();
        m_cost->setProject(m_doc->storePath());
        m_compare->setProject(m_doc->storePath());
    });
    setCentralWidget(m_tabs);

    // Toolbars: file actions, then the run plan (what Run will run) and Run / Stop.
    m_fileBar = addToolBar(QString());
    m_fileBar->setObjectName(u"fileToolBar"_s);
    m_fileBar->addAction(m_newAct);
    m_fileBar->addAction(m_openAct);
    m_fileBar->addAction(m_saveAct);
    m_runBar = addToolBar(QString());
    m_runBar->setObjectName(u"runToolBar"_s);
    m_runBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto combo = [this](const QString &name) {
        auto *c = new QComboBox(m_runBar);
        c->setObjectName(name);
        c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        c->setMinimumContentsLength(12);
        connect(c, &QComboBox::activated, this, [this] {
            updateActions();
            if (const DocProfile *p = m_doc->profile(comboId(m_profileCombo)))
                m_datasetEditor->setSampling(p->profile.numPrompts, p->profile.seed,
                                             p->profile.numSessions);
            const DocSut *s = m_doc->sut(comboId(m_sutCombo));
            m_datasetEditor->setTokenizer(s ? s->config.tokenizer : QString());
        });
        return c;
    };
    m_sutLabel = new QLabel(m_runBar);
    m_sutCombo = combo(u"sutCombo"_s);
    m_datasetLabel = new QLabel(m_runBar);
    m_datasetCombo = combo(u"datasetCombo"_s);
    m_profileLabel = new QLabel(m_runBar);
    m_profileCombo = combo(u"profileCombo"_s);
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_sutLabel, m_sutCombo, m_datasetLabel, m_datasetCombo,
                                          m_profileLabel, m_profileCombo}) {
        m_runBar->addWidget(w);
        if (qobject_cast<QComboBox *>(w))
            m_runBar->addSeparator();
    }
    m_runBar->addAction(m_runAct);
    m_runBar->addAction(m_stopAct);

    m_runState = new QLabel(this);
    m_runState->setObjectName(u"runState"_s);
    statusBar()->addPermanentWidget(m_runState);
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(250);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::updateRunStatus);
}

void MainWindow::retranslateUi()
{
    m_fileMenu->setTitle(tr("&File"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_projectMenu->setTitle(tr("&Project"));
    m_runMenu->setTitle(tr("&Run"));
    m_viewMenu->setTitle(tr("&View"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_helpMenu->setTitle(tr("&Help"));

    m_newAct->setText(tr("&New Project"));
    m_newAct->setStatusTip(
        tr("Start a project with the built-in simulator, a synthetic dataset and "
           "a Poisson load profile"));
    m_openAct->setText(tr("&Open Project…"));
    m_openAct->setStatusTip(tr("Open a ServeBench project file"));
    m_saveAct->setText(tr("&Save"));
    m_saveAct->setStatusTip(tr("Save the project's SUTs, datasets and load profiles"));
    m_saveAsAct->setText(tr("Save &As…"));
    m_saveAsAct->setStatusTip(tr("Write the whole project, runs included, to a new file"));
    m_quitAct->setText(tr("&Quit"));
    m_clearRecentAct->setText(tr("Clear list"));
    m_addSutAct->setText(tr("Add &SUT"));
    m_addSutAct->setStatusTip(tr("Describe another system under test"));
    m_addDatasetAct->setText(tr("Add &Dataset"));
    m_addDatasetAct->setStatusTip(tr("Add a dataset; you can also drop a .json or .jsonl file on "
                                     "the window"));
    m_addProfileAct->setText(tr("Add &Load Profile"));
    m_removeAct->setText(tr("&Remove"));
    m_runAct->setText(tr("&Run"));
    m_auditAct->setText(tr("Prefix-cache &audit of the SUT…"));
    m_auditAct->setToolTip(tr("Sends prompts cold, repeated and cold again, and tells whether "
                              "the server's prefix cache makes repeated prompts faster"));
    m_runAct->setToolTip(tr("Run the selected SUT × dataset × load profile (F5)"));
    m_runAct->setStatusTip(m_runAct->toolTip());
    m_stopAct->setText(tr("&Stop"));
    m_stopAct->setToolTip(tr("Stop the run and cancel the requests in flight (Esc)"));
    m_stopAct->setStatusTip(m_stopAct->toolTip());
    m_aboutAct->setText(tr("&About ServeBench"));
    m_langSystemAct->setText(tr("System default"));

    m_treeDock->setWindowTitle(tr("Project"));
    m_fileBar->setWindowTitle(tr("File"));
    m_runBar->setWindowTitle(tr("Run plan"));
    m_sutLabel->setText(tr(" SUT: "));
    m_datasetLabel->setText(tr(" Dataset: "));
    m_profileLabel->setText(tr(" Load profile: "));
    m_sutCombo->setToolTip(tr("System under test the run measures"));
    m_datasetCombo->setToolTip(tr("Where the prompts come from"));
    m_profileCombo->setToolTip(tr("How requests are issued"));
    m_tabs->setTabText(0, tr("Editor"));
    m_tabs->setTabText(1, tr("Run"));
    m_tabs->setTabText(2, tr("Results"));
    m_tabs->setTabToolTip(0, tr("Edit the item selected in the project tree"));
    m_tabs->setTabToolTip(1, tr("Live view of the running benchmark"));
    m_tabs->setTabToolTip(2, tr("Summary and requests of the selected run"));
    m_tabs->setTabText(3, tr("Cost"));
    m_tabs->setTabToolTip(3, tr("Bills, test windows and the unit cost of the project's runs"));
    m_tabs->setTabText(4, tr("Compare"));
    m_tabs->setTabText(5, tr("Study"));
    m_tabs->setTabToolTip(5, tr("Selection studies: candidates × scenarios × repeats in an "
                                "interleaved order, ending in one decision with costs"));
    m_tabs->setTabToolTip(4, tr("Compare runs side by side: comparability, differences, "
                                "ranking, distributions and latency-versus-throughput curves"));
    m_welcome->setText(tr("<h2>ServeBench</h2><p>Select a SUT, dataset or load profile in the "
                          "project tree to edit it.</p><p>Press <b>F5</b> to run the plan shown in "
                          "the toolbar. A new project runs against the built-in simulator, so no "
                          "server is needed.</p>"));
#ifndef SB_HAVE_RUNDASHBOARD
    static_cast<QLabel *>(m_dashboard)->setText(tr("Press F5 to start a run."));
#endif
    m_treeModel->retranslate();
    updateTitle();
    updateRunStatus();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::restoreWindowState()
{
    const QByteArray geometry = m_settings->windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(1360, 860);
    const QByteArray state = m_settings->windowState();
    if (!state.isEmpty())
        restoreState(state, Settings::kWindowStateVersion);
    // The Compare tab applies its splitters when first shown, at its real width.
    m_compare->restoreLayout(m_settings->compareLayout());
    const int tab = m_settings->currentTab();
    if (tab >= 0 && tab < m_tabs->count())
        m_tabs->setCurrentIndex(tab);
}

void MainWindow::saveWindowState()
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState(Settings::kWindowStateVersion));
    m_settings->setCurrentTab(m_tabs->currentIndex());
    const QByteArray layout = m_compare->saveLayout();
    if (!layout.isEmpty())
        m_settings->setCompareLayout(layout);
    m_settings->sync();
}

void MainWindow::reopenLastProject(const QString &path)
{
    if (m_startChosen || m_runner->isBusy())
        return;
    // Opening a missing file would create an empty project there: say so and stay on the new
    // project instead. The setting stays, so the project comes back once the file does
    // (a drive mounted again).
    if (!QFileInfo(path).isFile()) {
        showMessage(tr("The last project, %1, is no longer there; started a new project.")
                        .arg(QDir::toNativeSeparators(path)),
                    0);
        return;
    }
    openProject(path);
}

void MainWindow::saveCompareState()
{
    if (!m_doc->hasFile())
        return; // a new project's run ids live in a temporary file
    Settings::CompareState state;
    state.runs = m_compare->selectedRuns();
    state.baseline = m_compare->baselineRun();
    state.rankBy = m_compare->rankBy();
    m_settings->setCompareState(QFileInfo(m_doc->path()).absoluteFilePath(), state);
}

void MainWindow::restoreCompareState()
{
    // Nothing stored: nothing ticked (another project's run ids would tick unrelated runs).
    const Settings::CompareState state =
        m_doc->hasFile() ? m_settings->compareState(QFileInfo(m_doc->path()).absoluteFilePath())
                         : Settings::CompareState();
    m_compare->restoreSelection(state.runs, state.baseline, state.rankBy);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_runner->isBusy() && !confirmDiscard()) {
        event->ignore();
        return;
    }
    if (m_runner->isBusy())
        m_runner->stop();
    saveWindowState();
    event->accept();
}

bool MainWindow::confirmDiscard()
{
    if (!m_doc->isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("The project \"%1\" has unsaved changes. Save them?").arg(m_doc->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return saveProject();
    return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — ServeBench").arg(m_doc->displayName()));
    setWindowModified(m_doc->isModified());
}

QString MainWindow::seriesMessage(const SessionResult &r) const
{
    // The headline of a series: two key metrics as the mean over runs with its interval; the
    // Compare tab tests a series against another.
    QStringList parts;
    for (const SeriesMetric &m : r.series) {
        if (m.key != "ttft.p99"_L1 && m.key != "output_throughput"_L1)
            continue;
        const Interval &i = m.stats.meanInterval;
        const QString value =
            i.available
                ? u"%1 [%2, %3]"_s.arg(QString::number(m.stats.mean, 'f', 2),
                                       QString::number(i.lo, 'f', 2), QString::number(i.hi, 'f', 2))
                : QString::number(m.stats.mean, 'f', 2);
        parts << (m.key == "ttft.p99"_L1 ? tr("P99 TTFT %1 ms").arg(value)
                                         : tr("output throughput %1 tok/s").arg(value));
    }
    return tr("Series finished: %1 runs. Mean over runs with its 95 % interval: %2.")
        .arg(r.points.size())
        .arg(parts.isEmpty() ? tr("none computed") : parts.join(u"; "_s));
}

void MainWindow::showMessage(const QString &message, int timeoutMs)
{
    statusBar()->showMessage(message, timeoutMs);
}

int MainWindow::comboId(QComboBox *combo) const
{
    return combo->currentIndex() >= 0 ? combo->currentData().toInt() : 0;
}

void MainWindow::refreshPlanCombos()
{
    auto fill = [](QComboBox *c, const QList<QPair<int, QString>> &items) {
        const int current = c->currentIndex() >= 0 ? c->currentData().toInt() : 0;
        const QSignalBlocker block(c);
        c->clear();
        for (const auto &[id, name] : items)
            c->addItem(name, id);
        const int i = c->findData(current);
        c->setCurrentIndex(i >= 0 ? i : (c->count() > 0 ? 0 : -1));
    };
    QList<QPair<int, QString>> suts, datasets, profiles;
    for (const DocSut &s : m_doc->suts())
        suts.append({s.id, s.config.name});
    for (const DocDataset &d : m_doc->datasets())
        datasets.append({d.id, d.name});
    for (const DocProfile &p : m_doc->profiles())
        profiles.append({p.id, p.name});
    fill(m_sutCombo, suts);
    fill(m_datasetCombo, datasets);
    fill(m_profileCombo, profiles);
    if (const DocProfile *p = m_doc->profile(comboId(m_profileCombo)))
        m_datasetEditor->setSampling(p->profile.numPrompts, p->profile.seed,
                                     p->profile.numSessions);
    // The dataset preview counts as a run with the selected SUT would.
    const DocSut *s = m_doc->sut(comboId(m_sutCombo));
    m_datasetEditor->setTokenizer(s ? s->config.tokenizer : QString());
    updateActions();
}

void MainWindow::updateActions()
{
    const bool busy = m_runner->isBusy();
    const bool planComplete =
        comboId(m_sutCombo) && comboId(m_datasetCombo) && comboId(m_profileCombo);
    m_runAct->setEnabled(!busy && planComplete && m_editorValid);
    m_stopAct->setEnabled(busy && m_runner->state() != ProjectRunner::State::Stopping);
    // Swapping the project or opening file dialogs mid-run would pull the document from under
    // the run; these wait until it ends.
    for (QAction *a : {m_newAct, m_openAct, m_saveAsAct})
        a->setEnabled(!busy);
    m_recentMenu->setEnabled(!busy);
    m_saveAct->setEnabled(!busy || m_doc->hasFile());
    m_removeAct->setEnabled(!busy &&
                            m_treeModel->kindAt(m_tree->currentIndex()) != EntityKind::None);
    for (QComboBox *c : {m_sutCombo, m_datasetCombo, m_profileCombo})
        c->setEnabled(!busy);
    if (!m_editorValid && !busy)
        m_runAct->setToolTip(tr("Fix the highlighted fields of the editor first"));
    else
        m_runAct->setToolTip(tr("Run the selected SUT × dataset × load profile (F5)"));
}

void MainWindow::updateRunStatus()
{
    if (!m_runState)
        return;
    switch (m_runner->state()) {
    case ProjectRunner::State::Idle:
        m_runState->setText(tr("Ready"));
        break;
    case ProjectRunner::State::Preparing:
        m_runState->setText(tr("Preparing run …"));
        break;
    case ProjectRunner::State::Running:
        if (RunController *c = m_runner->controller()) {
            // The controller's plan count when it knows it, else the profile's (0: by duration).
            const qint64 planned = c->plannedRequests() > 0 ? c->plannedRequests()
                                                            : m_runner->plan().profile.numPrompts;
            m_runState->setText(
                planned > 0 ? tr("Running: %1 / %2 requests done").arg(c->completed()).arg(planned)
                            : tr("Running: %1 requests done").arg(c->completed()));
        }
        break;
    case ProjectRunner::State::Stopping:
        m_runState->setText(tr("Finishing …"));
        break;
    }
}

QString MainWindow::planSummary() const
{
    return u"%1 × %2 × %3"_s.arg(m_sutCombo->currentText(), m_datasetCombo->currentText(),
                                 m_profileCombo->currentText());
}

void MainWindow::onTreeCurrentChanged()
{
    if (m_selecting)
        return;
    const QModelIndex i = m_tree->currentIndex();
    const EntityKind kind = m_treeModel->kindAt(i);
    const int id = m_treeModel->idAt(i);
    updateActions();
    if (kind == EntityKind::Run) {
        m_shownRunId = id;
        showMessage(tr("Loading the run's records …"));
        m_doc->loadRunRecords(id);
        return;
    }
    if (kind != EntityKind::None)
        editEntity(kind, id);
}

void MainWindow::editEntity(EntityKind kind, int id)
{
    if (kind == m_editKind && id == m_editId && kind != EntityKind::None) {
        m_tabs->setCurrentIndex(0);
        return;
    }
    m_editKind = kind;
    m_editId = id;
    QComboBox *combo = nullptr;
    switch (kind) {
    case EntityKind::Sut:
        if (const DocSut *s = m_doc->sut(id)) {
            m_sutEditor->setConfig(s->config);
            m_editorStack->setCurrentWidget(m_sutEditor);
            combo = m_sutCombo;
        }
        break;
    case EntityKind::Dataset:
        if (const DocDataset *d = m_doc->dataset(id)) {
            if (const DocProfile *p = m_doc->profile(comboId(m_profileCombo)))
                m_datasetEditor->setSampling(p->profile.numPrompts, p->profile.seed,
                                             p->profile.numSessions);
            m_datasetEditor->setDataset(d->name, d->spec);
            m_editorStack->setCurrentWidget(m_datasetEditor);
            combo = m_datasetCombo;
        }
        break;
    case EntityKind::Profile:
        if (const DocProfile *p = m_doc->profile(id)) {
            m_profileEditor->setProfile(p->name, p->profile, p->params, p->execution);
            m_editorStack->setCurrentWidget(m_profileEditor);
            combo = m_profileCombo;
        }
        break;
    case EntityKind::Run:
    case EntityKind::None:
        m_editorStack->setCurrentWidget(m_welcome);
        break;
    }
    if (combo && !m_runner->isBusy()) {
        const int i = combo->findData(id);
        if (i >= 0)
            combo->setCurrentIndex(i);
    }
    const QModelIndex index = m_treeModel->indexFor(kind, id);
    if (index.isValid() && m_tree->currentIndex() != index) {
        m_selecting = true;
        m_tree->setCurrentIndex(index);
        m_selecting = false;
    }
    m_tabs->setCurrentIndex(0);
    onEditorEdited();
}

void MainWindow::onEditorEdited()
{
    // Only valid input reaches the document, so what Run uses is always a valid configuration;
    // while the open editor shows an error, Run stays disabled.
    bool valid = true;
    switch (m_editKind) {
    case EntityKind::Sut:
        valid = m_sutEditor->isValid();
        if (valid)
            m_doc->updateSut(m_editId, m_sutEditor->config());
        break;
    case EntityKind::Dataset:
        valid = m_datasetEditor->isValid();
        if (valid)
            m_doc->updateDataset(m_editId, m_datasetEditor->name(), m_datasetEditor->spec());
        break;
    case EntityKind::Profile:
        valid = m_profileEditor->isValid();
        if (valid) {
            m_doc->updateProfile(m_editId, m_profileEditor->name(), m_profileEditor->profile(),
                                 m_profileEditor->params(), m_profileEditor->execution());
            m_datasetEditor->setSampling(m_profileEditor->profile().numPrompts,
                                         m_profileEditor->profile().seed,
                                         m_profileEditor->profile().numSessions);
        }
        break;
    case EntityKind::Run:
    case EntityKind::None:
        break;
    }
    m_editorValid = valid;
    updateActions();
}

void MainWindow::addEntity(EntityKind kind)
{
    int id = 0;
    switch (kind) {
    case EntityKind::Sut: {
        SutConfig s;
        s.name = tr("New SUT");
        s.baseUrl = u"http://localhost:8000"_s;
        s.engine = u"vLLM"_s;
        id = m_doc->addSut(s);
        break;
    }
    case EntityKind::Dataset:
        id = m_doc->addDataset(tr("New dataset"), ProjectDocument::defaultDataset());
        break;
    case EntityKind::Profile:
        id = m_doc->addProfile(tr("New load profile"), ProjectDocument::defaultProfile());
        break;
    case EntityKind::Run:
    case EntityKind::None:
        return;
    }
    editEntity(kind, id);
    // A new entity is typed into at once: its first field has the focus (not when the user
    // moves through the tree, which keeps the focus there).
    if (kind == EntityKind::Sut)
        m_sutEditor->focusFirstField();
    else if (kind == EntityKind::Dataset)
        m_datasetEditor->focusFirstField();
    else
        m_profileEditor->focusFirstField();
}

void MainWindow::removeCurrentEntity()
{
    if (m_runner->isBusy())
        return;
    const QModelIndex i = m_tree->currentIndex();
    const EntityKind kind = m_treeModel->kindAt(i);
    const int id = m_treeModel->idAt(i);
    if (kind == EntityKind::None)
        return;
    const QString name = m_doc->entityName(kind, id);
    if (m_doc->remove(kind, id))
        showMessage(tr("Removed \"%1\". Save to remove it from the project file.").arg(name));
}

void MainWindow::newProject()
{
    if (m_runner->isBusy() || !confirmDiscard())
        return;
    m_startChosen = true;
    m_doc->newProject();
    restoreCompareState();
    showMessage(tr("New project: press F5 to run against the built-in simulator."));
}

void MainWindow::openProjectDialog()
{
    if (m_runner->isBusy() || !confirmDiscard())
        return;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open project"), m_settings->lastProjectDirectory(),
                                     tr("ServeBench projects (*.sbproj);;All files (*)"));
    if (!path.isEmpty())
        openProject(path);
}

bool MainWindow::openProject(const QString &path)
{
    if (m_runner->isBusy())
        return false;
    m_startChosen = true;
    QString error;
    if (!m_doc->open(path, &error)) {
        showMessage(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), error), 0);
        m_settings->removeRecentProject(path);
        // Still showing the project it showed: that one is the last (a file that does not open
        // is not tried again at the next start).
        m_settings->setLastProject(m_doc->hasFile() ? QFileInfo(m_doc->path()).absoluteFilePath()
                                                    : QString());
        return false;
    }
    restoreCompareState();
    m_settings->addRecentProject(QFileInfo(path).absoluteFilePath());
    m_settings->setLastProjectDirectory(QFileInfo(path).absolutePath());
    showMessage(tr("Opened %1: %2 SUTs, %3 datasets, %4 load profiles, %5 runs.")
                    .arg(QFileInfo(path).fileName())
                    .arg(m_doc->suts().size())
                    .arg(m_doc->datasets().size())
                    .arg(m_doc->profiles().size())
                    .arg(m_doc->runs().size()));
    return true;
}

bool MainWindow::saveProject()
{
    if (!m_doc->hasFile())
        return saveProjectAs();
    QString error;
    if (!m_doc->save(&error)) {
        showMessage(tr("Saving failed: %1").arg(error), 0);
        return false;
    }
    showMessage(tr("Saved %1.").arg(m_doc->path()));
    return true;
}

bool MainWindow::saveProjectAs()
{
    if (m_runner->isBusy())
        return false;
    QString path = QFileDialog::getSaveFileName(this, tr("Save project as"),
                                                m_settings->lastProjectDirectory(),
                                                tr("ServeBench projects (*.sbproj)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += u".sbproj"_s;
    QString error;
    if (!m_doc->saveAs(path, &error)) {
        showMessage(tr("Saving failed: %1").arg(error), 0);
        return false;
    }
    // The copy keeps the run ids: what is ticked now is remembered for the new file.
    saveCompareState();
    m_settings->addRecentProject(QFileInfo(path).absoluteFilePath());
    m_settings->setLastProjectDirectory(QFileInfo(path).absolutePath());
    showMessage(tr("Saved %1.").arg(path));
    return true;
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings->recentProjects();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        QAction *a =
            m_recentMenu->addAction(u"&%1 %2"_s.arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (confirmDiscard())
                openProject(path);
        });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(no recent projects)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(m_clearRecentAct);
}

void MainWindow::setLanguage(const QString &code)
{
    m_settings->setLanguage(code);
    if (!m_language->apply(code))
        showMessage(tr("The translation for %1 is missing; staying with English.").arg(code));
    m_langSystemAct->setChecked(code.isEmpty());
    m_langEnAct->setChecked(code == "en"_L1);
    m_langZhAct->setChecked(code == "zh_CN"_L1);
}

void MainWindow::startRun()
{
    if (m_runner->isBusy())
        return;
    if (!m_runAct->isEnabled()) {
        showMessage(m_editorValid ? tr("Choose a SUT, a dataset and a load profile first.")
                                  : tr("Fix the highlighted fields of the editor first."));
        return;
    }
    const DocSut *sut = m_doc->sut(comboId(m_sutCombo));
    const DocDataset *dataset = m_doc->dataset(comboId(m_datasetCombo));
    const DocProfile *profile = m_doc->profile(comboId(m_profileCombo));
    if (!sut || !dataset || !profile)
        return;
    RunRequest request;
    RunPlan &plan = request.plan;
    plan.sut = sut->config;
    plan.dataset = dataset->spec;
    plan.profile = profile->profile;
    plan.params = profile->params;
    request.setExecution(profile->execution);
    plan.name =
        u"%1 · %2 · %3"_s.arg(sut->config.name, profile->name,
                              QDateTime::currentDateTime().toString(u"yyyy-MM-dd HH:mm:ss"_s));
    m_runSutId = sut->id;
    m_runDatasetId = dataset->id;
    m_runProfileId = profile->id;

    // Repeating a dataset against the same SUT without cache bust measures a warm prefix cache
    // (docs/design.md, cache policy). Said in the status bar, not in a dialog.
    if (!plan.profile.cacheBust) {
        for (const DocRun &r : m_doc->runs())
            if (r.sutDocId == sut->id && r.datasetDocId == dataset->id) {
                showMessage(tr("Note: this dataset already ran against this SUT without cache "
                               "bust; the server's prefix cache may be warm."),
                            12000);
                break;
            }
    }
    QString error;
    RunInfo links;
    if (!m_doc->storeRunEntities(sut->id, dataset->id, profile->id, &links, &error)) {
        showMessage(tr("Cannot record the run: %1").arg(error), 0);
        return;
    }
#ifdef SB_HAVE_RUNDASHBOARD
    static_cast<RunDashboard *>(m_dashboard)->detach();
#endif
    if (!m_runner->start(request, m_doc->storePath(), links, &error)) {
        showMessage(error, 0);
        return;
    }
    m_tabs->setCurrentWidget(m_dashboard);
}

void MainWindow::openCacheAudit()
{
    const DocSut *sut = m_doc->sut(comboId(m_sutCombo));
    if (!sut) {
        showMessage(tr("Choose a SUT first."));
        return;
    }
    auto *dialog = new CacheAuditDialog(sut->config, m_keys, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::stopRun()
{
    if (m_runner->isBusy())
        m_runner->stop();
}

void MainWindow::onRunStarted(RunController *controller, const RunPlan &plan)
{
#ifdef SB_HAVE_RUNDASHBOARD
    static_cast<RunDashboard *>(m_dashboard)->attach(controller, plan);
#else
    Q_UNUSED(controller);
    static_cast<QLabel *>(m_dashboard)->setText(tr("Running %1 …").arg(plan.name));
#endif
    updateRunStatus();
}

void MainWindow::onRunFinished(const FinishedRun &run)
{
    DocRun r;
    r.info = run.info;
    r.storeId = run.info.id;
    r.sutName = run.plan.sut.name;
    r.sutDocId = m_runSutId;
    r.datasetDocId = m_runDatasetId;
    r.profileDocId = m_runProfileId;
    r.sweepName = run.sweepName;
    // A large stored run is not kept in memory: the Results view reads it from the file, as it
    // does when the run is selected later (docs/uiviews.md, "Large runs").
    const bool large = run.info.id > 0 && !m_doc->storePath().isEmpty() &&
                       run.records.size() > m_doc->largeRunThreshold();
    if (!large)
        r.records = run.records;
    r.recordsLoaded = !large;
    r.serverMetrics = run.serverMetrics;
    if (!run.datasetHash.isEmpty() && m_doc->dataset(m_runDatasetId))
        m_doc->setDatasetHash(m_runDatasetId, run.datasetHash);
    const int id = m_doc->addRun(r);
    m_shownRunId = id;
    if (!m_doc->storePath().isEmpty()) {
        m_cost->setProject(m_doc->storePath()); // the new run can now join a test window
        m_compare->setProject(m_doc->storePath());
    }
#ifdef SB_HAVE_RESULTSVIEW
    if (large)
        static_cast<ResultsView *>(m_results)->showStoredRun(
            run.plan, m_doc->storePath(), run.info.id, run.records.size(), run.serverMetrics,
            clientLoadOfSummary(run.info.summary));
    else
        static_cast<ResultsView *>(m_results)->showRun(
            run.plan, run.records, run.serverMetrics,
            std::make_shared<const RunDerivation>(run.derived));
    static_cast<ResultsView *>(m_results)->setServerState(run.info.snapshot, run.info.summary);
#else
    const RunSummary summary = summarize(run.records, SummaryOptions::forProfile(run.plan.profile));
    SummaryTextOptions to = SummaryTextOptions::forProfile(run.plan.profile);
    to.datasetHash = run.datasetHash;
    static_cast<QPlainTextEdit *>(m_results)->setPlainText(formatVllmSummary(summary, to));
    static_cast<QLabel *>(m_dashboard)->setText(tr("Run finished. See Results."));
#endif
    updateRunStatus();
}

void MainWindow::onLargeRunReady(int runId, const RunPlan &plan, const QString &storePath,
                                 qint64 storeRunId, qint64 requestCount)
{
    if (runId != m_shownRunId)
        return;
#ifdef SB_HAVE_RESULTSVIEW
    const DocRun *docRun = m_doc->run(runId);
    static_cast<ResultsView *>(m_results)->showStoredRun(
        plan, storePath, storeRunId, requestCount,
        docRun ? docRun->serverMetrics : QList<MetricSeriesStore>(),
        docRun ? clientLoadOfSummary(docRun->info.summary) : ClientLoadSamples());
    if (docRun)
        static_cast<ResultsView *>(m_results)->setServerState(docRun->info.snapshot,
                                                              docRun->info.summary);
#else
    Q_UNUSED(plan);
    Q_UNUSED(storePath);
    Q_UNUSED(storeRunId);
    static_cast<QPlainTextEdit *>(m_results)->setPlainText(
        tr("This run has %1 requests: `servebench-cli show` prints its summary.")
            .arg(requestCount));
#endif
    m_tabs->setCurrentWidget(m_results);
    showMessage(tr("Showing %1 (%2 requests, read from the project file as they are shown).")
                    .arg(m_doc->entityName(EntityKind::Run, runId))
                    .arg(requestCount));
}

void MainWindow::onRunRecordsLoaded(int runId, const RunPlan &plan,
                                    const QList<RequestRecord> &records, const QString &error)
{
    if (runId != m_shownRunId)
        return; // the user has moved on to another run
    if (!error.isEmpty()) {
        showMessage(tr("Cannot load the run: %1").arg(error), 0);
        return;
    }
#ifdef SB_HAVE_RESULTSVIEW
    const DocRun *docRun = m_doc->run(runId);
    static_cast<ResultsView *>(m_results)->showRun(
        plan, records, docRun ? docRun->serverMetrics : QList<MetricSeriesStore>(), {},
        docRun ? clientLoadOfSummary(docRun->info.summary) : ClientLoadSamples());
    if (docRun)
        static_cast<ResultsView *>(m_results)->setServerState(docRun->info.snapshot,
                                                              docRun->info.summary);
#else
    const RunSummary summary = summarize(records, SummaryOptions::forProfile(plan.profile));
    static_cast<QPlainTextEdit *>(m_results)->setPlainText(
        formatVllmSummary(summary, SummaryTextOptions::forProfile(plan.profile)));
#endif
    m_tabs->setCurrentWidget(m_results);
    showMessage(tr("Showing %1 (%2 requests).")
                    .arg(m_doc->entityName(EntityKind::Run, runId))
                    .arg(records.size()));
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!datasetFileFrom(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString file = datasetFileFrom(event->mimeData());
    if (file.isEmpty())
        return;
    DatasetSpec spec;
    spec.kind = file.endsWith(".jsonl"_L1, Qt::CaseInsensitive) ? DatasetKind::Custom
                                                                : DatasetKind::ShareGpt;
    spec.path = file;
    const int id = m_doc->addDataset(QFileInfo(file).completeBaseName(), spec);
    editEntity(EntityKind::Dataset, id);
    event->acceptProposedAction();
    showMessage(tr("Added dataset %1.").arg(QFileInfo(file).fileName()));
}

} // namespace sb
