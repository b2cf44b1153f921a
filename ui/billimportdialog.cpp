#include "billimportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

BillImportDialog::BillImportDialog(const QStringList &suts, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Import bills"));
    m_path = new QLineEdit(this);
    m_path->setObjectName(u"csvPath"_s);
    m_path->setMinimumWidth(360);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);

    m_sut = new QComboBox(this);
    m_sut->setObjectName(u"sutCombo"_s);
    m_sut->setEditable(true);
    m_sut->setInsertPolicy(QComboBox::NoInsert);
    // Data: the SUT name; the first entry's empty data is `bills import` without --sut.
    m_sut->addItem(tr("(shared by every SUT)"), QString());
    for (const QString &s : suts)
        m_sut->addItem(s, s);
    m_sut->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    auto *hint = new QLabel(tr("A CSV file with a header row, as servebench-cli bills import "
                               "takes it (docs/cost.md). The import is all or nothing: a file "
                               "with any wrong row imports no item."),
                            this);
    hint->setWordWrap(true);

    auto *form = new QFormLayout;
    // Labels take the room they need in every language; fields grow.
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->addRow(tr("Bill CSV:"), fileRow);
    form->addRow(tr("Items bill the SUT:"), m_sut);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_buttons);

    connect(browse, &QPushButton::clicked, this, &BillImportDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, &BillImportDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

QString BillImportDialog::csvPath() const
{
    return m_path->text().trimmed();
}

QString BillImportDialog::sut() const
{
    // A typed name has no item data; the first entry's text is not a SUT name.
    const int index = m_sut->findText(m_sut->currentText());
    if (index >= 0)
        return m_sut->itemData(index).toString();
    return m_sut->currentText().trimmed();
}

void BillImportDialog::browse()
{
    // CSV is the one format `bills import` reads.
    const QString file = QFileDialog::getOpenFileName(this, tr("Bill CSV"), m_path->text(),
                                                      tr("Bill CSV (*.csv);;All files (*)"));
    if (!file.isEmpty())
        m_path->setText(file);
}

void BillImportDialog::updateOk()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!csvPath().isEmpty());
}

} // namespace sb
