#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;

namespace sb {

// "Import bills…" of the Cost tab: what `servebench-cli bills import` takes (docs/cost.md, "CSV
// import"): the bill CSV and the SUT its items bill, or none (shared by every SUT). It only
// asks; CostPage::importBills() imports.
class BillImportDialog : public QDialog
{
    Q_OBJECT
public:
    // `suts`: the project's SUT names (CostStore::sutNames); another name may be typed, as
    // --sut accepts one the project does not know yet.
    BillImportDialog(const QStringList &suts, QWidget *parent = nullptr);

    QString csvPath() const;
    QString sut() const; // empty: shared by every SUT

private:
    void browse();
    void updateOk();

    QLineEdit *m_path;
    QComboBox *m_sut;
    QDialogButtonBox *m_buttons;
};

} // namespace sb
