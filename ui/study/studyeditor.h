#pragma once

#include "editors/editorform.h"
#include "editors/fielderror.h"

#include "config/runplan.h"
#include "run/runrequest.h"
#include "study/studydefinition.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTableWidget;

namespace sb {

class BackgroundJobs;
class ProjectDocument;

// Edits a selection study (docs/study.md, "Workbench"): its name and question, the candidates
// checked among the project's SUTs (each with its cost source), the scenarios checked among its
// load profiles, repeats, the order's seed, the baseline and the fixed boundary (model, dataset,
// request parameters, tokenizer, connection mode, cache policy), with defaults from the project.
// What it makes goes through the core's own JSON form and validation (StudyDefinition::fromJson),
// so it holds exactly what a definition file with the same content gives; every problem is shown
// under the field it names. Saving stores the definition in the project file the way `study run`
// does (StudyStore::ensureVersion, in a worker thread): a study whose cells have run gets a new
// version, one whose cells have not is replaced.
class StudyEditor : public QWidget
{
    Q_OBJECT
public:
    explicit StudyEditor(QWidget *parent = nullptr);
    ~StudyEditor() override;

    // The project whose SUTs, datasets and load profiles are offered (may be null: only what a
    // study being edited holds), the file studies are saved to, and the studies it already has
    // (a new study may not take one of their names).
    void setProject(const ProjectDocument *document, const QString &storePath,
                    const QStringList &studies);
    // A new study, with defaults from the project.
    void newStudy();
    // The definition of a saved study (its latest version). Candidates and scenarios it holds
    // keep their definition; the project's other SUTs and profiles are offered beside them.
    // cellsStarted: whether any cell of that version has run (saving a change then starts a new
    // version; the editor says so before).
    void editStudy(const StudyDefinition &definition, int version, bool cellsStarted);
    // Scrolls to the top and focuses the first field.
    void showFromTop();

    // The definition as the core read it back from its JSON, and its problems.
    const StudyDefinition &definition() const { return m_definition; }
    const QList<StudyIssue> &issues() const { return m_issues; }
    bool isValid() const { return m_issues.isEmpty(); }
    // Field keys: name, question, candidates, baseline, scenarios, repeats, seed, model, dataset,
    // datasetSha256, request, tokenizer, connection, cache, general.
    QString errorFor(const QString &field) const;
    bool isEditing() const { return !m_editing.isEmpty(); }

    // Validates and saves in a worker thread; false (nothing saved) when anything is invalid, a
    // save is under way or there is no project file. saved() or saveFailed() follows.
    bool save();
    bool isSaving() const { return m_saving; }

signals:
    // *what: StudyStore::ensureVersion's ("created", "replaced", "new-version", "resumed").
    void saved(const QString &study, int version, const QString &what);
    void saveFailed(const QString &error);
    void cancelled();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct CandidateRow
    {
        QString name;
        std::optional<StudyCandidate> defined; // from the study being edited
        SutConfig sut;                         // from the project, when not defined
    };
    struct ScenarioRow
    {
        QString name;
        std::optional<StudyScenario> defined;
        LoadProfile profile;
        RunExecution execution;
    };
    struct DatasetChoice
    {
        QString label;
        QStringList flags;
        DatasetSpec spec; // what the scenarios' load flags are made for (sessions or requests)
    };

    void buildUi();
    void retranslateUi();
    void clearRows();
    void addCandidateRow(const CandidateRow &row, bool checked, const StudyCost &cost);
    void addScenarioRow(const ScenarioRow &row, bool checked, const QString &kind,
                        const QString &rankBy);
    void fillDatasets(const std::optional<QStringList> &defined);
    void fitTables();
    void refreshBaselines();
    void updateCostWidgets(int row);
    void scheduleValidate();
    void validate();
    StudyDefinition collect() const;
    StudyCost costOf(int row) const;
    void updateButtons();

    const ProjectDocument *m_doc = nullptr;
    QString m_path;
    QStringList m_studies;
    QString m_editing; // the study being edited ("" for a new one)
    int m_editingVersion = 0;
    bool m_cellsStarted = false;
    QList<CandidateRow> m_candidateRows;
    QList<ScenarioRow> m_scenarioRows;
    QList<DatasetChoice> m_datasets;
    StudyDefinition m_definition;
    QList<StudyIssue> m_issues;
    bool m_filling = false;
    bool m_saving = false;
    BackgroundJobs *m_jobs;
    FieldErrors m_errors;
    FormLabels m_labels;

    QScrollArea *m_scroll;
    QLabel *m_title;
    QLabel *m_intro;
    QLineEdit *m_name;
    QLineEdit *m_question;
    QTableWidget *m_candidates;
    QComboBox *m_baseline;
    QTableWidget *m_scenarios;
    QSpinBox *m_repeats;
    QLineEdit *m_seed;
    QLineEdit *m_model;
    QComboBox *m_dataset;
    QLineEdit *m_datasetSha;
    QLineEdit *m_requestFlags;
    QLineEdit *m_tokenizer;
    QComboBox *m_connection;
    QComboBox *m_cache;
    FieldError *m_general;
    QLabel *m_versionNote;
    QPushButton *m_save;
    QPushButton *m_cancel;
};

} // namespace sb
