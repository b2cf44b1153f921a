#pragma once

#include "projectdocument.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolBar;
class QTreeView;

namespace sb {

class ApiKeyStore;
class ComparisonView;
class StudyView;
class CostPage;
class DatasetEditor;
class LanguageSwitcher;
class LoadProfileEditor;
class ProjectRunner;
class ProjectTreeModel;
class RunController;
class Settings;
class SutEditor;
struct FinishedRun;
struct SessionResult;
struct RunPlan;
struct RequestRecord;

// The workbench: the project tree (dock), an editor area, the run dashboard and the results
// (tabs), the run plan bar (SUT × dataset × load profile) and the Run / Stop actions. Nothing
// here blocks the GUI thread: datasets load, runs run and stored records load in other threads.
// During a run no modal dialog appears: problems go to the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // settings / keys: nullptr = the defaults (QSettings of the application, platform keychain).
    // The window takes ownership of neither when given.
    explicit MainWindow(Settings *settings = nullptr, ApiKeyStore *keys = nullptr,
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    ProjectDocument *document() const { return m_doc; }
    ProjectRunner *runner() const { return m_runner; }
    ProjectTreeModel *treeModel() const { return m_treeModel; }
    LanguageSwitcher *languageSwitcher() const { return m_language; }
    SutEditor *sutEditor() const { return m_sutEditor; }
    DatasetEditor *datasetEditor() const { return m_datasetEditor; }
    LoadProfileEditor *profileEditor() const { return m_profileEditor; }
    QAction *runAction() const { return m_runAct; }
    QAction *stopAction() const { return m_stopAct; }
    QTabWidget *tabs() const { return m_tabs; }
    ComparisonView *comparisonView() const { return m_compare; }

    // Opens the entity's editor (and makes it the run plan's choice for its kind).
    void editEntity(EntityKind kind, int id);
    // Opens the project and brings its Compare tab back as the user left it (Settings).
    bool openProject(const QString &path);
    // code: "" (system), "en", "zh_CN". Remembered in the settings.
    void setLanguage(const QString &code);
    QString planSummary() const;

public slots:
    void newProject();
    void openProjectDialog();
    bool saveProject();
    bool saveProjectAs();
    void startRun();
    void stopRun();
    // Tools: the prefix-cache audit of the selected SUT, in a dialog of its own.
    void openCacheAudit();

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createWidgets();
    void retranslateUi();
    void restoreWindowState();
    // What a restart brings back (Settings): geometry, docks, the current tab, the Compare
    // tab's splitters. Written on close and when the window is destroyed without closing.
    void saveWindowState();
    // At start, unless a project was opened or made before the event loop turned: the project
    // open when the workbench last ran, or a status message when its file is gone.
    void reopenLastProject(const QString &path);
    // The Compare tab's ticked runs, baseline and ranking, per project file.
    void saveCompareState();
    void restoreCompareState();
    void refreshPlanCombos();
    void updateActions();
    void updateTitle();
    void onTreeCurrentChanged();
    void onEditorEdited();
    void onRunStarted(RunController *controller, const RunPlan &plan);
    void onRunFinished(const FinishedRun &run);
    void onLargeRunReady(int runId, const RunPlan &plan, const QString &storePath,
                         qint64 storeRunId, qint64 requestCount);
    void onRunRecordsLoaded(int runId, const RunPlan &plan, const QList<RequestRecord> &records,
                            const QString &error);
    QString seriesMessage(const sb::SessionResult &result) const;
    void showMessage(const QString &message, int timeoutMs = 8000);
    void addEntity(EntityKind kind);
    void removeCurrentEntity();
    void rebuildRecentMenu();
    void updateRunStatus();
    bool confirmDiscard();
    int comboId(QComboBox *combo) const;

    std::unique_ptr<Settings> m_ownedSettings;
    Settings *m_settings;
    ApiKeyStore *m_keys;
    LanguageSwitcher *m_language;
    ProjectDocument *m_doc;
    ProjectTreeModel *m_treeModel;
    ProjectRunner *m_runner;

    QTreeView *m_tree = nullptr;
    QDockWidget *m_treeDock = nullptr;
    QTabWidget *m_tabs = nullptr;
    QStackedWidget *m_editorStack = nullptr;
    QLabel *m_welcome = nullptr;
    SutEditor *m_sutEditor = nullptr;
    DatasetEditor *m_datasetEditor = nullptr;
    LoadProfileEditor *m_profileEditor = nullptr;
    QWidget *m_dashboard = nullptr;
    QWidget *m_results = nullptr;
    CostPage *m_cost = nullptr;
    ComparisonView *m_compare = nullptr;
    StudyView *m_study = nullptr;
    QToolBar *m_fileBar = nullptr;
    QToolBar *m_runBar = nullptr;
    QLabel *m_sutLabel = nullptr;
    QLabel *m_datasetLabel = nullptr;
    QLabel *m_profileLabel = nullptr;
    QComboBox *m_sutCombo = nullptr;
    QComboBox *m_datasetCombo = nullptr;
    QComboBox *m_profileCombo = nullptr;
    QLabel *m_runState = nullptr;
    QTimer *m_progressTimer = nullptr;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_projectMenu = nullptr;
    QMenu *m_runMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QAction *m_newAct = nullptr;
    QAction *m_openAct = nullptr;
    QAction *m_saveAct = nullptr;
    QAction *m_saveAsAct = nullptr;
    QAction *m_quitAct = nullptr;
    QAction *m_addSutAct = nullptr;
    QAction *m_addDatasetAct = nullptr;
    QAction *m_addProfileAct = nullptr;
    QAction *m_removeAct = nullptr;
    QAction *m_runAct = nullptr;
    QAction *m_stopAct = nullptr;
    QAction *m_auditAct = nullptr;
    QAction *m_aboutAct = nullptr;
    QAction *m_clearRecentAct = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QAction *m_langSystemAct = nullptr;
    QAction *m_langEnAct = nullptr;
    QAction *m_langZhAct = nullptr;

    bool m_startChosen = false; // a project was opened or made: no reopening of the last one
    EntityKind m_editKind = EntityKind::None;
    int m_editId = 0;
    bool m_editorValid = true;
    bool m_selecting = false;
    int m_shownRunId = 0;
    int m_runSutId = 0;
    int m_runDatasetId = 0;
    int m_runProfileId = 0;
};

} // namespace sb
