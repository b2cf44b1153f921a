#pragma once

#include "editorform.h"
#include "fielderror.h"

#include "config/runplan.h"
#include "data/dataset.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTimer;

namespace sb {

class BackgroundJobs;
class CopyableTableView;
class DatasetPreviewModel;
class FieldError;
class LengthHistogram;

// Edits one dataset: its source (synthetic, ShareGPT JSON, custom JSONL; a file can be picked or
// dropped), sampling parameters and version label, and whether it is replayed as multi-turn
// sessions (every turn; synthetic sessions for the synthetic source). Every change reloads the
// sample in a worker thread (debounced, with a generation number so only the newest load is shown)
// and shows the request list, length histograms and the dataset's identity hash.
class DatasetEditor : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetEditor(QWidget *parent = nullptr);
    ~DatasetEditor() override;

    // A new entity: its first field takes the focus (editorform.h).

    void focusFirstField();

    void setDataset(const QString &name, const DatasetSpec &spec);
    QString name() const;
    DatasetSpec spec() const;
    // The sample the preview (and its hash) is drawn for: the run's prompt count and seed, and
    // its session count for a multi-turn dataset (-1: the prompt count).
    void setSampling(int numPrompts, quint64 seed, int numSessions = -1);
    // The tokenizer of the SUT a run would use (SutConfig::tokenizer, "" = none): the sample is
    // then counted with it, as the run counts it, so the lengths and histograms are real tokens.
    // Read in the loader's thread; a file that does not load is the load's error.
    void setTokenizer(const QString &path);
    const QString &tokenizer() const { return m_tokenizer; }

    bool isValid() const;
    QStringList errors() const;
    // Field keys: name, path, inputLen, outputLen, rangeRatio, load.
    QString errorFor(const QString &field) const;
    bool isLoading() const { return m_loading; }
    const DatasetInfo &info() const { return m_info; }
    DatasetPreviewModel *previewModel() const { return m_model; }
    // Starts a load now instead of after the typing pause.
    void reloadNow();

signals:
    void edited();
    void validityChanged(bool valid);
    void hashComputed(const QString &sha256);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    void retranslateUi();
    void validate();
    void updateKindWidgets();
    void browse();
    void startLoad();
    void showLoaded(const LoadedDataset &loaded);
    void showInfo();
    void setPathFromFile(const QString &file);

    BackgroundJobs *m_jobs;
    QTimer *m_debounce;
    DatasetSpec m_base; // keeps what this editor does not show (tokens per word)
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_filling = false;
    bool m_valid = true;
    int m_numPrompts = 1000;
    int m_numSessions = 100;
    quint64 m_seed = 0;
    QString m_tokenizer;
    QString m_loadError;
    DatasetInfo m_info;
    bool m_haveInfo = false;
    FieldErrors m_errors;
    FormLabels m_labels;

    QScrollArea *m_scroll;
    QLabel *m_title;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QLineEdit *m_path;
    QPushButton *m_browse;
    QLineEdit *m_version;
    QGroupBox *m_syntheticBox;
    QSpinBox *m_inputLen;
    QSpinBox *m_outputLen;
    QDoubleSpinBox *m_rangeRatio;
    QSpinBox *m_prefixLen;
    QComboBox *m_distribution;
    QSpinBox *m_inputStdev;
    QSpinBox *m_outputStdev;
    QSpinBox *m_inputMin;
    QSpinBox *m_inputMax;
    QSpinBox *m_outputMin;
    QSpinBox *m_outputMax;
    QGroupBox *m_fileBox;
    QSpinBox *m_fixedOutput;
    QCheckBox *m_replacement;
    // Sessions (docs/sessions.md).
    QGroupBox *m_sessionsBox;
    QCheckBox *m_multiTurn;
    QSpinBox *m_sessionTurns;
    QSpinBox *m_sessionPrefix;
    QSpinBox *m_maxTurns;
    QLabel *m_sampling;
    QLabel *m_status;
    FieldError *m_loadErrorLabel;
    QLabel *m_hash;
    QLabel *m_stats;
    CopyableTableView *m_table;
    DatasetPreviewModel *m_model;
    LengthHistogram *m_inputHist;
    LengthHistogram *m_outputHist;
    bool m_sampleLoaded = false; // the status line says so (retranslated with the rest)
};

} // namespace sb
