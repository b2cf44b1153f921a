#include "costwindowdialog.h"

#include "utctimeedit.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

QPair<QDateTime, QDateTime> defaultWindowBounds(const SutRunSpans &spans, const QString &sut)
{
    QDateTime start, end;
    for (const auto &[s, e] : spans.value(sut)) {
        if (!start.isValid() || s < start)
            start = s;
        if (!end.isValid() || e > end)
            end = e;
    }
    return {floorToSecond(start), ceilToSecond(end)};
}

CostWindowDialog::CostWindowDialog(const QStringList &suts, const SutRunSpans &spans,
                                   const QString &preferredSut, QWidget *parent)
    : QDialog(parent), m_spans(spans)
{
    setWindowTitle(tr("New test window"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(u"windowName"_s);
    m_name->setPlaceholderText(tr("unique in the project"));
    m_sut = new QComboBox(this);
    m_sut->setObjectName(u"sutCombo"_s);
    m_sut->addItems(suts);
    m_sut->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_start = newUtcTimeEdit(this);
    m_start->setObjectName(u"startEdit"_s);
    m_end = newUtcTimeEdit(this);
    m_end->setObjectName(u"endEdit"_s);
    m_runs = new QLabel(this);
    m_runs->setObjectName(u"runsLabel"_s);
    m_runs->setWordWrap(true);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("SUT:"), m_sut);
    form->addRow(tr("Start (UTC):"), m_start);
    form->addRow(tr("End (UTC, exclusive):"), m_end);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_runs);
    layout->addWidget(m_buttons);

    connect(m_sut, &QComboBox::currentIndexChanged, this, &CostWindowDialog::sutChosen);
    connect(m_name, &QLineEdit::textChanged, this, &CostWindowDialog::update);
    connect(m_start, &QDateTimeEdit::dateTimeChanged, this, &CostWindowDialog::update);
    connect(m_end, &QDateTimeEdit::dateTimeChanged, this, &CostWindowDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    const int preferred = m_sut->findText(preferredSut);
    if (preferred >= 0 && preferred != m_sut->currentIndex())
        m_sut->setCurrentIndex(preferred); // sutChosen() follows
    else
        sutChosen();
}

QString CostWindowDialog::name() const
{
    return m_name->text().trimmed();
}

QString CostWindowDialog::sut() const
{
    return m_sut->currentText();
}

QDateTime CostWindowDialog::start() const
{
    return utcTimeOf(m_start);
}

QDateTime CostWindowDialog::end() const
{
    return utcTimeOf(m_end);
}

void CostWindowDialog::sutChosen()
{
    // The bounds follow the SUT chosen: its runs' span, as `window create --runs` would take.
    const auto [start, end] = defaultWindowBounds(m_spans, sut());
    if (start.isValid()) {
        setUtcTime(m_start, start);
        setUtcTime(m_end, end);
    }
    update();
}

void CostWindowDialog::update()
{
    const QDateTime s = start(), e = end();
    int inside = 0;
    for (const auto &[rs, re] : m_spans.value(sut()))
        if (rs >= s && re <= e)
            ++inside;
    const bool ordered = s < e;
    m_runs->setText(!ordered ? tr("The end must come after the start.")
                    : m_spans.value(sut()).isEmpty()
                        ? tr("This SUT has no finished run yet: the window will hold none, and "
                             "its unit costs will not be available.")
                        : tr("%n finished run(s) of this SUT lie inside; a run that only partly "
                             "overlaps is left out.",
                             nullptr, inside));
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(ordered && !name().isEmpty() && !sut().isEmpty());
}

} // namespace sb
