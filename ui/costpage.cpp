#include "costpage.h"

#include "common/message.h"
#include "cost/costbreakdown.h"
#include "costbillmodel.h"
#include "costtimeline.h"
#include "store/projectstore.h"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

// Everything the page shows, read in one go: a value, safe to hand from the loader thread.
struct CostPage::Data
{
    QList<ProjectBillItem> items;
    QStringList itemProblems;
    QList<ProjectWindow> windows;
    CostOptions options;
    QString error; // the project could not be opened
};

CostPage::CostPage(QWidget *parent)
    : QWidget(parent), m_breakdown(std::make_unique<CostBreakdown>())
{
    m_windowCombo = new QComboBox(this);
    m_windowCombo->setObjectName(u"windowCombo"_s);
    m_windowCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_windowCombo->setMinimumContentsLength(20);
    m_status = new QLabel(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    m_windowLabel = new QLabel(this);
    m_windowLabel->setObjectName(u"windowLabel"_s);
    top->addWidget(m_windowLabel);
    top->addWidget(m_windowCombo);
    top->addWidget(m_status, 1);

    m_timeline = new CostTimeline(this);
    m_timeline->setObjectName(u"timeline"_s);
    m_timelineScroll = new QScrollArea(this);
    m_timelineScroll->setWidget(m_timeline);
    m_timelineScroll->setWidgetResizable(true);
    m_timelineScroll->setFrameShape(QFrame::NoFrame);

    m_model = new CostBillModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(u"billTable"_s);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);

    m_ruleCombo = new QComboBox(this);
    m_ruleCombo->setObjectName(u"ruleCombo"_s);
    // Texts in retranslateUi(); the data is the rule's stable name.
    for (OverlapRule rule :
         {OverlapRule::Undecided, OverlapRule::Prorate, OverlapRule::IncludeWhole})
        m_ruleCombo->addItem(QString(), QString::fromLatin1(overlapRuleName(rule)));
    m_ruleHint = new QLabel(this);
    m_ruleHint->setObjectName(u"ruleHint"_s);
    m_ruleHint->setWordWrap(true);
    m_ruleLabel = new QLabel(this);
    auto *ruleRow = new QHBoxLayout;
    ruleRow->addWidget(m_ruleLabel);
    ruleRow->addWidget(m_ruleCombo);
    ruleRow->addWidget(m_ruleHint, 1);

    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(u"breakdownText"_s);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto *tableBox = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table);
    tableLayout->addLayout(ruleRow);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_timelineScroll);
    split->addWidget(tableBox);
    split->addWidget(m_text);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(m_windowCombo, &QComboBox::currentIndexChanged, this, &CostPage::showWindow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateRuleCombo(); });
    connect(m_ruleCombo, &QComboBox::activated, this, &CostPage::ruleChosen);

    retranslateUi();
    setProject(QString());
}

CostPage::~CostPage() = default;

void CostPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CostPage::retranslateUi()
{
    m_windowLabel->setText(tr("Test window:"));
    m_ruleLabel->setText(tr("Overlap rule for the selected item:"));
    m_ruleCombo->setItemText(0, tr("Undecided (left out)"));
    m_ruleCombo->setItemText(1, tr("Prorate by time"));
    m_ruleCombo->setItemText(2, tr("Include whole"));
    m_model->retranslate();
    m_table->resizeColumnsToContents();
    if (m_statusText)
        m_status->setText(m_statusText());
    updateBreakdownText();
    updateRuleCombo();
    // The timeline draws its words when painted; QWidget repaints it on the same event.
}

void CostPage::setProject(const QString &projectPath)
{
    m_path = projectPath;
    startLoad();
}

void CostPage::startLoad()
{
    const quint64 generation = ++m_generation;
    if (m_path.isEmpty()) {
        applyLoad(generation, std::make_shared<Data>());
        setStatus([] { return tr("No project open"); });
        return;
    }
    m_loading = true;
    setStatus([path = m_path] { return tr("Reading %1 …").arg(path); });
    auto data = std::make_shared<Data>();
    const QString path = m_path;
    // Counts are recomputed from raw records, which can be millions of rows: never in the
    // GUI thread. The store is opened in the loader thread, as SQLite connections must be.
    QThread *loader = QThread::create([data, path] {
        ProjectStore store;
        if (!store.open(path, ProjectStore::OpenMode::ReadOnly)) {
            data->error = store.lastError();
            return;
        }
        CostStore costs(&store);
        data->items = costs.billItems(&data->itemProblems);
        data->windows = costs.windows();
        data->options = costs.costOptions();
    });
    connect(loader, &QThread::finished, this,
            [this, generation, data] { applyLoad(generation, data); });
    connect(loader, &QThread::finished, loader, &QObject::deleteLater);
    loader->start();
}

void CostPage::applyLoad(quint64 generation, const std::shared_ptr<Data> &data)
{
    if (generation != m_generation)
        return; // a newer project or reload superseded this one
    m_loading = false;
    const QString previous = m_windowIndex >= 0 && m_data && m_windowIndex < m_data->windows.size()
                                 ? m_data->windows.at(m_windowIndex).window.name
                                 : QString();
    m_data = data;
    {
        const QSignalBlocker block(m_windowCombo);
        m_windowCombo->clear();
        for (const ProjectWindow &w : data->windows)
            m_windowCombo->addItem(u"%1 (%2)"_s.arg(w.window.name, w.window.sut), w.window.name);
    }
    int index = data->windows.isEmpty() ? -1 : 0;
    for (int i = 0; i < data->windows.size(); ++i)
        if (data->windows.at(i).window.name == previous)
            index = i;
    {
        const QSignalBlocker block(m_windowCombo);
        m_windowCombo->setCurrentIndex(index);
    }
    m_windowIndex = index;
    if (!data->error.isEmpty())
        setStatus([error = data->error] { return tr("Cannot read the project: %1").arg(error); },
                  true);
    else if (!m_path.isEmpty())
        setStatus([items = int(data->items.size()), windows = data->windows.size()] {
            return tr("%n bill item(s), %1 test window(s)", nullptr, items).arg(windows);
        });
    recompute();
    emit loaded();
}

bool CostPage::selectWindow(const QString &name)
{
    const int index = m_windowCombo->findData(name);
    if (index < 0)
        return false;
    m_windowCombo->setCurrentIndex(index);
    return true;
}

const CostBreakdown &CostPage::breakdown() const
{
    return *m_breakdown;
}

void CostPage::showWindow(int index)
{
    m_windowIndex = index;
    recompute();
}

void CostPage::recompute()
{
    const QString selectedId =
        m_table->currentIndex().isValid()
            ? m_model->data(m_model->index(m_table->currentIndex().row(), 0), Qt::UserRole)
                  .toString()
            : QString();
    const bool hasWindow = m_data && m_windowIndex >= 0 && m_windowIndex < m_data->windows.size();
    if (hasWindow) {
        const ProjectWindow &w = m_data->windows.at(m_windowIndex);
        *m_breakdown =
            CostStore::breakdown(w, m_data->items, m_data->itemProblems, m_data->options);
        QList<AttributedItem> items = m_breakdown->included + m_breakdown->overlapping +
                                      m_breakdown->undecided + m_breakdown->excluded;
        std::sort(items.begin(), items.end(), [](const AttributedItem &a, const AttributedItem &b) {
            return a.item.startMs() < b.item.startMs();
        });
        m_timeline->setData(w.window, items);
        m_model->setData(m_data->items, *m_breakdown, w.window, true);
        m_table->resizeColumnsToContents();
    } else {
        *m_breakdown = CostBreakdown();
        m_timeline->clear();
        m_model->setData(m_data ? m_data->items : QList<ProjectBillItem>(), *m_breakdown,
                         TestWindow(), false);
    }
    updateBreakdownText();
    // Every lane visible up to a dozen or so; beyond that the timeline scrolls.
    m_timelineScroll->setMinimumHeight(qMin(m_timeline->sizeHint().height() + 4, 300));
    // Keep the selection on the same item across a recomputation.
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (!selectedId.isEmpty() && m_model->itemAt(row).item.id == selectedId)
            m_table->setCurrentIndex(m_model->index(row, 0));
    updateRuleCombo();
    emit breakdownChanged();
}

void CostPage::updateBreakdownText()
{
    const bool hasWindow = m_data && m_windowIndex >= 0 && m_windowIndex < m_data->windows.size();
    const QString text =
        hasWindow ? m_breakdown->formatText(true)
        : m_data && m_data->windows.isEmpty() && !m_path.isEmpty()
            ? tr("No test window yet. Create one over a SUT's runs "
                 "(servebench-cli window create --runs ID,ID); unit costs need one.")
            : QString();
    // Setting the same text again would scroll the breakdown back to its top.
    if (m_text->toPlainText() != text)
        m_text->setPlainText(text);
}

void CostPage::updateRuleCombo()
{
    const int row = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : -1;
    const AttributedItem *a = m_model->attributionAt(row);
    const bool overlapping = a && (a->attribution == ItemAttribution::Prorated ||
                                   a->attribution == ItemAttribution::Whole ||
                                   a->attribution == ItemAttribution::NeedsDecision);
    m_ruleCombo->setEnabled(overlapping);
    const QSignalBlocker block(m_ruleCombo);
    if (!overlapping) {
        m_ruleCombo->setCurrentIndex(0);
        m_ruleHint->setText(row < 0 ? tr("Select a bill item.")
                            : !a    ? tr("This item is not one the window considers.")
                                    : tr("Only an item that partly overlaps the window needs a "
                                            "rule."));
        return;
    }
    const OverlapRule rule = m_data->windows.at(m_windowIndex).window.ruleFor(a->item.id);
    m_ruleCombo->setCurrentIndex(m_ruleCombo->findData(QString::fromLatin1(overlapRuleName(rule))));
    m_ruleHint->setText(Message::fromEnglish(a->why).translated());
}

void CostPage::ruleChosen(int comboIndex)
{
    const int row = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : -1;
    if (row < 0 || !m_data || m_windowIndex < 0 || m_windowIndex >= m_data->windows.size())
        return;
    OverlapRule rule = OverlapRule::Undecided;
    overlapRuleFromName(m_ruleCombo->itemData(comboIndex).toString(), &rule);
    ProjectWindow &w = m_data->windows[m_windowIndex];
    const QString itemId = m_model->itemAt(row).item.id;
    // One small write in this thread: the file stays the single source of the user's choice.
    ProjectStore store;
    if (!store.open(m_path)) {
        setStatus([error = store.lastError()] { return tr("Cannot save the rule: %1").arg(error); },
                  true);
        updateRuleCombo();
        return;
    }
    CostStore costs(&store);
    if (!costs.setOverlapRule(w.window.id, itemId, rule)) {
        setStatus([error = costs.lastError()] { return tr("Cannot save the rule: %1").arg(error); },
                  true);
        updateRuleCombo();
        return;
    }
    if (rule == OverlapRule::Undecided)
        w.window.overlapRules.remove(itemId);
    else
        w.window.overlapRules.insert(itemId, rule);
    setStatus([itemId, rule] {
        return tr("Saved: %1 → %2").arg(itemId, QString::fromLatin1(overlapRuleName(rule)));
    });
    recompute();
}

void CostPage::setStatus(std::function<QString()> text, bool error)
{
    m_statusText = std::move(text);
    m_status->setText(m_statusText());
    m_status->setStyleSheet(error ? u"color: #b00020;"_s : QString());
}

} // namespace sb
