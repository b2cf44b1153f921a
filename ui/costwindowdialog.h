#pragma once

#include <QDateTime>
#include <QDialog>
#include <QHash>
#include <QList>
#include <QPair>
#include <QStringList>

class QComboBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace sb {

// Per SUT name: the [start, end) of each of its finished runs (UTC), as the Cost tab read them.
using SutRunSpans = QHash<QString, QList<QPair<QDateTime, QDateTime>>>;

// The default bounds of a new window on `sut`: its finished runs' earliest start and latest end,
// widened to whole seconds (the fields show seconds) so that every run lies inside. Invalid
// times when the SUT has no finished run.
QPair<QDateTime, QDateTime> defaultWindowBounds(const SutRunSpans &spans, const QString &sut);

// "New window…" of the Cost tab: `servebench-cli window create --name N --sut S --start --end`
// with the bounds filled in from the SUT's runs. It only asks; CostPage::createWindow() saves.
class CostWindowDialog : public QDialog
{
    Q_OBJECT
public:
    CostWindowDialog(const QStringList &suts, const SutRunSpans &spans, const QString &preferredSut,
                     QWidget *parent = nullptr);

    QString name() const;
    QString sut() const;
    QDateTime start() const; // UTC
    QDateTime end() const;   // UTC, exclusive

private:
    void sutChosen();
    void update();

    SutRunSpans m_spans;
    QLineEdit *m_name;
    QComboBox *m_sut;
    QDateTimeEdit *m_start;
    QDateTimeEdit *m_end;
    QLabel *m_runs;
    QDialogButtonBox *m_buttons;
};

} // namespace sb
