#include "costpage.h"

#include "billimportdialog.h"
#include "common/displaywidth.h"
#include "common/message.h"
#include "cost/costattribution.h"
#include "cost/costbreakdown.h"
#include "costbillmodel.h"
#include "costproject/billfileimport.h"
#include "costtimeline.h"
#include "store/projectstore.h"
#include "utctimeedit.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTextCharFormat>
#include <QTextCursor>
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
    QStringList sutNames;  // CostStore::sutNames: what a window or an import may name
    SutRunSpans runsBySut; // finished runs, for a new window's default bounds
    QString error;         // the project could not be opened
};

namespace {

// The breakdown is laid out in display columns (core/common/displaywidth.h): a Chinese
// character counts two. No font on the machine draws it so: the fixed font (DejaVu Sans Mono on
// Debian) has no Chinese, and the CJK font Qt falls back to draws a character 1.7 of its columns
// wide (12 px against 7.2 px at 9 pt; WenQuanYi Micro Hei Mono too), so each Chinese character of
// a label moved its value a third of a column left of an English label's. Letter spacing after
// each wide character makes up the difference on screen; the text (and what is copied) keeps its
// spaces.
void widenWideCharacters(QPlainTextEdit *edit)
{
    const QFontMetricsF fm(edit->font());
    const qreal twoColumns = 2 * fm.horizontalAdvance(u"0"_s);
    const QString text = edit->toPlainText(); // one position per QChar, a line break one too
    QTextCursor cursor(edit->document());
    for (qsizetype i = 0; i < text.size();) {
        qsizetype len = 1;
        char32_t c = text.at(i).unicode();
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() &&
            text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            len = 2;
        }
        if (displayWidth(c) == 2) {
            const qreal extra = twoColumns - fm.horizontalAdvance(text.mid(i, len));
            if (qAbs(extra) > 0.01) {
                cursor.setPosition(int(i));
                cursor.setPosition(int(i + len), QTextCursor::KeepAnchor);
                QTextCharFormat f;
                f.setFontLetterSpacingType(QFont::AbsoluteSpacing);
                f.setFontLetterSpacing(extra);
                cursor.mergeCharFormat(f);
            }
        }
        i += len;
    }
}

} // namespace

// What a write on the worker thread did, handed back to the GUI thread.
struct CostPage::WriteResult
{
    bool ok = false;
    QString error;       // the project could not be opened, or the core's error
    QStringList details; // the import's problems, each naming the file and row
    QString note;        // a remark on success (a SUT not in the project yet)
    int count = 0;       // items imported
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

    m_newWindowButton = new QPushButton(this);
    m_newWindowButton->setObjectName(u"newWindowButton"_s);
    m_importButton = new QPushButton(this);
    m_importButton->setObjectName(u"importButton"_s);

    auto *top = new QHBoxLayout;
    m_windowLabel = new QLabel(this);
    m_windowLabel->setObjectName(u"windowLabel"_s);
    top->addWidget(m_windowLabel);
    top->addWidget(m_windowCombo);
    top->addWidget(m_newWindowButton);
    top->addWidget(m_importButton);
    top->addWidget(m_status, 1);

    // The selected window's bounds, editable to the second in UTC (docs/cost-project.md, "The cost
    // page").
    m_boundsLabel = new QLabel(this);
    m_startEdit = newUtcTimeEdit(this);
    m_startEdit->setObjectName(u"windowStartEdit"_s);
    m_boundsTo = new QLabel(this);
    m_endEdit = newUtcTimeEdit(this);
    m_endEdit->setObjectName(u"windowEndEdit"_s);
    m_saveBoundsButton = new QPushButton(this);
    m_saveBoundsButton->setObjectName(u"saveBoundsButton"_s);
    auto *bounds = new QHBoxLayout;
    bounds->addWidget(m_boundsLabel);
    bounds->addWidget(m_startEdit);
    bounds->addWidget(m_boundsTo);
    bounds->addWidget(m_endEdit);
    bounds->addWidget(m_saveBoundsButton);
    bounds->addStretch(1);

    m_message = new QLabel(this);
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

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
    layout->addLayout(bounds);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    connect(m_windowCombo, &QComboBox::currentIndexChanged, this, &CostPage::showWindow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateRuleCombo(); });
    connect(m_ruleCombo, &QComboBox::activated, this, &CostPage::ruleChosen);
    connect(m_importButton, &QPushButton::clicked, this, &CostPage::openImportDialog);
    connect(m_newWindowButton, &QPushButton::clicked, this, &CostPage::openWindowDialog);
    connect(m_saveBoundsButton, &QPushButton::clicked, this, &CostPage::saveBounds);
    const auto boundsEdited = [this] {
        updateActions();
    };
    connect(m_startEdit, &QDateTimeEdit::dateTimeChanged, this, boundsEdited);
    connect(m_endEdit, &QDateTimeEdit::dateTimeChanged, this, boundsEdited);

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
    m_importButton->setText(tr("Import bills…"));
    m_importButton->setToolTip(
        tr("Import bill items from a CSV file, as servebench-cli bills import does"));
    m_newWindowButton->setText(tr("New window…"));
    m_newWindowButton->setToolTip(tr("Create a test window over a SUT's runs"));
    m_boundsLabel->setText(tr("Window bounds (UTC):"));
    m_boundsTo->setText(tr("to"));
    m_saveBoundsButton->setText(tr("Save bounds"));
    m_saveBoundsButton->setToolTip(
        tr("Move the selected window to these bounds; its runs must stay inside"));
    if (m_messageText)
        m_message->setText(m_messageText());
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
    m_stale = m_reloadPending = false;
    m_selectAfterLoad.clear();
    setMessage({});
    startLoad();
}

void CostPage::reloadFromDisk()
{
    if (m_path.isEmpty())
        return;
    if (!isVisible())
        m_stale = true;
    else if (m_loading)
        m_reloadPending = true;
    else
        startLoad();
}

void CostPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_stale, false))
        reloadFromDisk();
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
        data->sutNames = costs.sutNames();
        for (const RunInfo &r : store.listRuns())
            if (r.status != StoredRunStatus::Running && r.startedUtc.isValid() &&
                r.endedUtc.isValid())
                data->runsBySut[costs.runSutName(r)].append({r.startedUtc, r.endedUtc});
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
    QString previous = m_windowIndex >= 0 && m_data && m_windowIndex < m_data->windows.size()
                           ? m_data->windows.at(m_windowIndex).window.name
                           : QString();
    if (!m_selectAfterLoad.isEmpty())
        previous = std::exchange(m_selectAfterLoad, QString()); // the window just written
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
    if (m_reloadPending) {
        m_reloadPending = false;
        startLoad();
    }
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
    // The bounds fields show the window's bounds whenever the page shows another window or the
    // window moved; a recomputation for a rule keeps what the user is typing.
    const QString boundsKey =
        hasWindow
            ? u"%1|%2|%3"_s.arg(m_data->windows.at(m_windowIndex).window.id,
                                formatUtcTimestamp(m_data->windows.at(m_windowIndex).window.start),
                                formatUtcTimestamp(m_data->windows.at(m_windowIndex).window.end))
            : QString();
    if (boundsKey != m_boundsShownFor) {
        m_boundsShownFor = boundsKey;
        const QSignalBlocker blockStart(m_startEdit), blockEnd(m_endEdit);
        if (hasWindow) {
            setUtcTime(m_startEdit, m_data->windows.at(m_windowIndex).window.start);
            setUtcTime(m_endEdit, m_data->windows.at(m_windowIndex).window.end);
        }
    }
    updateActions();
    emit breakdownChanged();
}

void CostPage::updateBreakdownText()
{
    const bool hasWindow = m_data && m_windowIndex >= 0 && m_windowIndex < m_data->windows.size();
    const QString text =
        hasWindow ? m_breakdown->formatText(true)
        : m_data && m_data->windows.isEmpty() && !m_path.isEmpty()
            ? tr("No test window yet. Create one over a SUT's runs with New window… (or "
                 "servebench-cli window create); unit costs need one.")
            : QString();
    // Setting the same text again would scroll the breakdown back to its top.
    if (m_text->toPlainText() != text) {
        m_text->setPlainText(text);
        widenWideCharacters(m_text);
    }
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
    m_ruleHint->setText(costText(a->why));
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

QStringList CostPage::sutNames() const
{
    return m_data ? m_data->sutNames : QStringList();
}

QPair<QDateTime, QDateTime> CostPage::defaultWindowBounds(const QString &sut) const
{
    return sb::defaultWindowBounds(m_data ? m_data->runsBySut : SutRunSpans(), sut);
}

void CostPage::updateActions()
{
    const bool open = !m_path.isEmpty() && m_data && m_data->error.isEmpty();
    m_importButton->setEnabled(open && !m_writing);
    m_newWindowButton->setEnabled(open && !m_writing && !m_data->sutNames.isEmpty());
    const bool hasWindow = open && m_windowIndex >= 0 && m_windowIndex < m_data->windows.size();
    m_startEdit->setEnabled(hasWindow && !m_writing);
    m_endEdit->setEnabled(hasWindow && !m_writing);
    bool moved = false;
    if (hasWindow) {
        const TestWindow &w = m_data->windows.at(m_windowIndex).window;
        const QDateTime start = utcTimeOf(m_startEdit, w.start);
        const QDateTime end = utcTimeOf(m_endEdit, w.end);
        moved = start < end && (start != w.start || end != w.end);
    }
    m_saveBoundsButton->setEnabled(moved && !m_writing);
}

void CostPage::openImportDialog()
{
    auto *dialog = new BillImportDialog(sutNames(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { importBills(dialog->csvPath(), dialog->sut()); });
    dialog->open();
}

void CostPage::openWindowDialog()
{
    const QString current = m_data && m_windowIndex >= 0 && m_windowIndex < m_data->windows.size()
                                ? m_data->windows.at(m_windowIndex).window.sut
                                : QString();
    auto *dialog =
        new CostWindowDialog(sutNames(), m_data ? m_data->runsBySut : SutRunSpans(), current, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        createWindow(dialog->name(), dialog->sut(), dialog->start(), dialog->end());
    });
    dialog->open();
}

void CostPage::saveBounds()
{
    if (!m_data || m_windowIndex < 0 || m_windowIndex >= m_data->windows.size())
        return;
    const TestWindow &w = m_data->windows.at(m_windowIndex).window;
    setWindowBounds(w.id, utcTimeOf(m_startEdit, w.start), utcTimeOf(m_endEdit, w.end));
}

void CostPage::importBills(const QString &csvPath, const QString &sut)
{
    runWrite(
        [csvPath, sut](CostStore &costs, WriteResult &r) {
            const BillFileImport imported = importBillFile(costs, csvPath, sut);
            r.ok = imported.ok();
            r.count = int(imported.rowIds.size());
            r.error = imported.failure;
            r.details = imported.errors;
            r.note = imported.note;
        },
        [csvPath, sut](const WriteResult &r) {
            return sut.isEmpty()
                       ? tr("Imported %n bill item(s) from %1, shared by every SUT.", nullptr,
                            r.count)
                             .arg(csvPath)
                       : tr("Imported %n bill item(s) from %1 for SUT '%2'.", nullptr, r.count)
                             .arg(csvPath, sut);
        },
        QString());
}

void CostPage::createWindow(const QString &name, const QString &sut, const QDateTime &start,
                            const QDateTime &end)
{
    runWrite(
        [name, sut, start, end](CostStore &costs, WriteResult &r) {
            // As `window create --sut`: every finished run of the SUT inside the interval.
            QStringList notes;
            const auto window = costs.windowFromInterval(name, sut, start, end, &notes);
            r.ok = window && costs.saveWindow(*window) > 0;
            if (!r.ok)
                r.error = costs.lastError();
            r.count = window ? int(window->runs.size()) : 0;
            r.note = notes.join(u'\n');
        },
        [name, sut](const WriteResult &r) {
            return tr("Created test window '%1' on SUT '%2' with %n run(s).", nullptr, r.count)
                .arg(name, sut);
        },
        name);
}

void CostPage::setWindowBounds(const QString &window, const QDateTime &start, const QDateTime &end)
{
    QString name = window;
    if (m_data)
        for (const ProjectWindow &w : std::as_const(m_data->windows))
            if (w.window.id == window)
                name = w.window.name;
    runWrite(
        [window, start, end](CostStore &costs, WriteResult &r) {
            r.ok = costs.setWindowBounds(window, start, end);
            if (!r.ok)
                r.error = costs.lastError();
        },
        [name, start, end](const WriteResult &) {
            return tr("Test window '%1' now spans %2 – %3 (UTC).")
                .arg(name, formatUtcTimestamp(start), formatUtcTimestamp(end));
        },
        name);
}

void CostPage::runWrite(std::function<void(CostStore &, WriteResult &)> job,
                        std::function<QString(const WriteResult &)> done, const QString &select)
{
    if (m_path.isEmpty() || m_writing)
        return;
    m_writing = true;
    updateActions();
    setMessage([] { return tr("Saving …"); });
    auto result = std::make_shared<WriteResult>();
    const QString path = m_path;
    // Reading a bill file and recomputing a window's runs from their records touch the disk:
    // never in the GUI thread. The store is opened in the worker, as SQLite connections must be.
    QThread *writer = QThread::create([result, path, job = std::move(job)] {
        ProjectStore store;
        if (!store.open(path)) {
            result->error = store.lastError();
            return;
        }
        CostStore costs(&store);
        job(costs, *result);
    });
    connect(writer, &QThread::finished, this, [this, result, path, select, done = std::move(done)] {
        m_writing = false;
        const WriteResult r = *result;
        if (r.ok) {
            setMessage([r, done] {
                return r.note.isEmpty() ? done(r) : done(r) + u'\n' + tr("Note: %1").arg(r.note);
            });
        } else {
            // The core's own words, which name the file and row (docs/cost.md).
            setMessage(
                [r] {
                    QStringList lines{tr("Not saved: %1").arg(r.error)};
                    constexpr int kShown = 8;
                    lines += r.details.mid(0, kShown);
                    if (r.details.size() > kShown)
                        lines << tr("… and %n more problem(s)", nullptr,
                                    int(r.details.size() - kShown));
                    return lines.join(u'\n');
                },
                true);
        }
        updateActions();
        emit writeFinished(r.ok);
        if (!r.ok || path != m_path)
            return;
        m_selectAfterLoad = select;
        if (m_loading)
            m_reloadPending = true;
        else
            startLoad();
    });
    connect(writer, &QThread::finished, writer, &QObject::deleteLater);
    writer->start();
}

void CostPage::setMessage(std::function<QString()> text, bool error)
{
    m_messageText = std::move(text);
    m_message->setText(m_messageText ? m_messageText() : QString());
    m_message->setVisible(bool(m_messageText));
    m_message->setStyleSheet(error ? u"color: #b00020;"_s : QString());
}

void CostPage::setStatus(std::function<QString()> text, bool error)
{
    m_statusText = std::move(text);
    m_status->setText(m_statusText());
    m_status->setStyleSheet(error ? u"color: #b00020;"_s : QString());
}

} // namespace sb
