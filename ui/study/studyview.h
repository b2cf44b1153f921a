#pragma once

#include "study/studydecision.h"
#include "study/studystore.h"

#include <QJsonObject>
#include <QStringList>
#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QTabWidget;
class QThread;

namespace sb {

class BackgroundJobs;
class CopyableTableView;
class ProjectDocument;
class RunDashboard;
class RunMirror;
class StudyDecisionModel;
class StudyEditor;
class StudyExecutor;
struct StudyDefinition;

// What the Study tab reads of one study in a worker thread: its latest version's cells and the
// decision core's buildStudyDecision() derives — the same one `servebench-cli study decide`
// prints, so both front ends give the same decision JSON for the same project.
struct StudySnapshot
{
    QString error;
    QStringList studies; // every study of the project
    QString name;        // the one read ("" when the project has none)
    StudyDecision decision;
    // The decided version's definition as stored: the decision's copy has its credentials
    // redacted (it travels), so running or editing the study starts from this one.
    QJsonObject definition;
    QList<StoredStudyCell> cells;
    QStringList candidates; // definition order
    QStringList scenarios;
    int repeats = 0;
};
StudySnapshot readStudySnapshot(const QString &projectPath, const QString &study);

// The Study tab (docs/study.md, "Workbench"): define a study in the editor (candidates from the
// project's SUTs, scenarios from its load profiles) or import its JSON file, run it, watch its
// progress matrix (candidates × scenario and repeat, each cell pending, running, completed or
// failed with its reason) fill in live with the running cell's dashboard beside it, and read the
// decision — the table with intervals, ties and verdicts, an interval chart per candidate and
// cost against the figure of merit. Everything is read from the project file by worker threads;
// the study itself runs in its own thread through the one run pipeline (StudyExecutor), so the
// window never waits on it.
class StudyView : public QWidget
{
    Q_OBJECT
public:
    explicit StudyView(QWidget *parent = nullptr);
    ~StudyView() override;

    void setProject(const QString &projectPath);
    // The open project, whose SUTs and load profiles the study editor offers.
    void setDocument(const ProjectDocument *document) { m_doc = document; }
    QString projectPath() const { return m_path; }
    // Shows another study of the project.
    void showStudy(const QString &name);
    // Runs (or resumes) the study of a JSON file against the project; false with *error when the
    // file does not validate or a study already runs.
    bool runStudyFile(const QString &file, QString *error);
    // Runs (or resumes) the shown study's latest version, as saved in the project.
    bool runCurrentStudy(QString *error);
    // Opens the editor on a new study, or on the shown study's latest version.
    void newStudy();
    bool editStudy();
    bool isEditing() const;
    void stopStudy();

    bool isBusy() const { return m_pending || m_executor; }
    bool isRunning() const { return m_executor != nullptr; }
    QString currentStudy() const { return m_snapshot.name; }
    const StudySnapshot &snapshot() const { return m_snapshot; }
    QJsonObject decisionJson() const { return m_snapshot.decision.toJson(); }
    StudyDecisionModel *decisionModel() const { return m_model; }
    QTableWidget *progressTable() const { return m_progress; }
    StudyEditor *editor() const { return m_editor; }
    // The running cell's live dashboard, beside the progress matrix.
    RunDashboard *dashboard() const { return m_dashboard; }

signals:
    // A study run ended (the project file has new runs).
    void studyFinished(bool ok, const QString &error);
    void statusMessage(const QString &text);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildUi();
    void retranslateUi();
    void reload();
    void apply(quint64 generation, const StudySnapshot &snapshot);
    void fillProgress();
    void fillCharts();
    void fillNotes();
    void updateButtons();
    void pickAndRun();
    bool runDefinition(const StudyDefinition &def, QString *error);
    void showView();
    void onEditorSaved(const QString &study, int version, const QString &what);
    void exportJson();
    void onCellStarted(const StoredStudyCell &cell, qint64 runId, int total);
    void onCellFinished(const StoredStudyCell &cell, const QString &state, const QString &reason);
    void onExecutorFinished(bool ok, const QString &error);
    QString cellText(const QString &state) const;
    QString leftOutText(const QString &state) const; // a left-out cell's state or reason kind

    QString m_path;
    const ProjectDocument *m_doc = nullptr;
    QString m_wanted; // the study to show
    BackgroundJobs *m_jobs;
    quint64 m_generation = 0;
    bool m_pending = false;
    StudySnapshot m_snapshot;

    QStackedWidget *m_pages;
    QWidget *m_viewPage;
    StudyEditor *m_editor;
    QLabel *m_studyLabel;
    QComboBox *m_studyCombo;
    QPushButton *m_newButton;
    QPushButton *m_editButton;
    QPushButton *m_runSavedButton;
    QPushButton *m_runButton;
    QPushButton *m_stopButton;
    QPushButton *m_refreshButton;
    QPushButton *m_exportButton;
    QLabel *m_summary;
    QLabel *m_current;
    QTableWidget *m_progress;
    RunDashboard *m_dashboard;
    RunMirror *m_mirror; // the running cell, mirrored into the GUI thread for the dashboard
    QTabWidget *m_tabs;
    StudyDecisionModel *m_model;
    CopyableTableView *m_table;
    QPlainTextEdit *m_notes;
    QChartView *m_intervalChart;
    QChartView *m_costChart;

    QThread *m_thread = nullptr;
    StudyExecutor *m_executor = nullptr;
};

} // namespace sb
