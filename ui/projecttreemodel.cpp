#include "projecttreemodel.h"

#include <QApplication>
#include <QStyle>

using namespace Qt::StringLiterals;

namespace sb {

ProjectTreeModel::ProjectTreeModel(ProjectDocument *document, QObject *parent)
    : QAbstractItemModel(parent), m_document(document)
{
    rebuild();
    auto restructure = [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    };
    connect(document, &ProjectDocument::projectReset, this, restructure);
    connect(document, &ProjectDocument::entityAdded, this, restructure);
    connect(document, &ProjectDocument::entityRemoved, this, restructure);
    connect(document, &ProjectDocument::entityChanged, this, &ProjectTreeModel::onEntityChanged);
}

int ProjectTreeModel::addNode(int parent, Node node)
{
    node.parent = parent;
    node.row = int(m_nodes[parent].children.size());
    const int i = int(m_nodes.size());
    m_nodes.append(node);
    m_nodes[parent].children.append(i);
    return i;
}

void ProjectTreeModel::rebuild()
{
    m_nodes.clear();
    m_nodes.append(Node{});
    const int suts = addNode(0, {Group::Suts});
    const int datasets = addNode(0, {Group::Datasets});
    const int profiles = addNode(0, {Group::Profiles});
    const int runs = addNode(0, {Group::Runs});
    for (const DocSut &s : m_document->suts())
        addNode(suts, {Group::None, EntityKind::Sut, s.id});
    for (const DocDataset &d : m_document->datasets())
        addNode(datasets, {Group::None, EntityKind::Dataset, d.id});
    for (const DocProfile &p : m_document->profiles())
        addNode(profiles, {Group::None, EntityKind::Profile, p.id});
    // Runs by SUT, then by sweep, each group in order of its first run. A study's cells are
    // runs of several SUTs: they sit under their study, never under a SUT or as a sweep.
    for (const DocRun &r : m_document->runs()) {
        if (!r.studyName.isEmpty()) {
            int studyNode = -1;
            for (int c : std::as_const(m_nodes[runs].children))
                if (m_nodes[c].group == Group::RunStudy && m_nodes[c].label == r.studyName)
                    studyNode = c;
            if (studyNode < 0)
                studyNode = addNode(runs, {Group::RunStudy, EntityKind::None, 0, r.studyName});
            addNode(studyNode, {Group::None, EntityKind::Run, r.id});
            continue;
        }
        int sutNode = -1;
        for (int c : std::as_const(m_nodes[runs].children))
            if (m_nodes[c].group == Group::RunSut && m_nodes[c].label == r.sutName)
                sutNode = c;
        if (sutNode < 0)
            sutNode = addNode(runs, {Group::RunSut, EntityKind::None, 0, r.sutName});
        int parent = sutNode;
        if (!r.sweepName.isEmpty()) {
            parent = -1;
            for (int c : std::as_const(m_nodes[sutNode].children))
                if (m_nodes[c].group == Group::RunSweep && m_nodes[c].label == r.sweepName)
                    parent = c;
            if (parent < 0)
                parent = addNode(sutNode, {Group::RunSweep, EntityKind::None, 0, r.sweepName});
        }
        addNode(parent, {Group::None, EntityKind::Run, r.id});
    }
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0)
        return {};
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    if (p >= m_nodes.size() || row >= m_nodes[p].children.size())
        return {};
    return createIndex(row, 0, quintptr(m_nodes[p].children[row]));
}

QModelIndex ProjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int p = m_nodes[int(child.internalId())].parent;
    if (p <= 0)
        return {};
    return createIndex(m_nodes[p].row, 0, quintptr(p));
}

int ProjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    return int(m_nodes[p].children.size());
}

int ProjectTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QString ProjectTreeModel::labelFor(const Node &n) const
{
    switch (n.group) {
    case Group::Suts:
        return tr("Systems under test");
    case Group::Datasets:
        return tr("Datasets");
    case Group::Profiles:
        return tr("Load profiles");
    case Group::Runs:
        return tr("Runs");
    case Group::RunSut:
        return n.label.isEmpty() ? tr("(unknown SUT)") : n.label;
    case Group::RunSweep:
        return tr("Sweep: %1").arg(n.label);
    case Group::RunStudy:
        return tr("Study: %1").arg(n.label);
    case Group::None:
        break;
    }
    QString name = m_document->entityName(n.kind, n.id);
    // Runs sit under their SUT's group: drop the SUT's name from their label.
    const Node &parent = m_nodes[n.parent];
    const Node &sutGroup = parent.group == Group::RunSweep ? m_nodes[parent.parent] : parent;
    const QString prefix = sutGroup.label + u" · "_s;
    if (n.kind == EntityKind::Run && !sutGroup.label.isEmpty() && name.startsWith(prefix))
        name = name.mid(prefix.size());
    return name.isEmpty() ? tr("(unnamed)") : name;
}

QVariant ProjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node &n = m_nodes[int(index.internalId())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        if (n.group == Group::None || n.group == Group::RunSut || n.group == Group::RunSweep ||
            n.group == Group::RunStudy)
            return labelFor(n);
        return u"%1 (%2)"_s.arg(labelFor(n)).arg(n.children.size());
    case Qt::ToolTipRole:
        if (n.kind == EntityKind::Run) {
            if (const DocRun *r = m_document->run(n.id))
                return tr("%1\nStatus: %2\nStarted: %3\nRequests: %4")
                    .arg(r->info.name, QString::fromLatin1(storedRunStatusName(r->info.status)),
                         r->info.startedUtc.toLocalTime().toString(Qt::ISODate))
                    .arg(r->info.requestCount);
        }
        if (n.kind == EntityKind::Sut) {
            if (const DocSut *s = m_document->sut(n.id))
                return s->config.builtInSimulator
                           ? tr("Built-in simulator (started when a run uses it)")
                           : s->config.baseUrl;
        }
        return labelFor(n);
    case Qt::DecorationRole: {
        QStyle *style = QApplication::style();
        if (n.group != Group::None)
            return style->standardIcon(QStyle::SP_DirIcon);
        switch (n.kind) {
        case EntityKind::Sut:
            return style->standardIcon(QStyle::SP_ComputerIcon);
        case EntityKind::Dataset:
            return style->standardIcon(QStyle::SP_FileIcon);
        case EntityKind::Profile:
            return style->standardIcon(QStyle::SP_FileDialogDetailedView);
        case EntityKind::Run: {
            const DocRun *r = m_document->run(n.id);
            const bool ok = r && r->info.status == StoredRunStatus::Completed;
            return style->standardIcon(ok ? QStyle::SP_DialogApplyButton
                                          : QStyle::SP_MessageBoxWarning);
        }
        case EntityKind::None:
            break;
        }
        return {};
    }
    case KindRole:
        return QVariant::fromValue(n.kind);
    case IdRole:
        return n.id;
    case GroupRole:
        return int(n.group);
    default:
        return {};
    }
}

Qt::ItemFlags ProjectTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QModelIndex ProjectTreeModel::indexFor(EntityKind kind, int id) const
{
    for (int i = 1; i < m_nodes.size(); ++i)
        if (m_nodes[i].group == Group::None && m_nodes[i].kind == kind && m_nodes[i].id == id)
            return createIndex(m_nodes[i].row, 0, quintptr(i));
    return {};
}

QModelIndex ProjectTreeModel::groupIndex(Group group) const
{
    for (int c : m_nodes[0].children)
        if (m_nodes[c].group == group)
            return createIndex(m_nodes[c].row, 0, quintptr(c));
    return {};
}

EntityKind ProjectTreeModel::kindAt(const QModelIndex &index) const
{
    return index.isValid() ? m_nodes[int(index.internalId())].kind : EntityKind::None;
}

int ProjectTreeModel::idAt(const QModelIndex &index) const
{
    return index.isValid() ? m_nodes[int(index.internalId())].id : 0;
}

void ProjectTreeModel::onEntityChanged(EntityKind kind, int id)
{
    const QModelIndex i = indexFor(kind, id);
    if (i.isValid())
        emit dataChanged(i, i);
    bool grouped = false;
    if (kind == EntityKind::Sut)
        for (const DocRun &r : m_document->runs())
            grouped = grouped || r.sutDocId == id;
    // A run read again from the file (refreshRunsInBackground) may now belong to a study or a
    // sweep it was not listed under: regroup only then, so that a running run's progress every
    // few hundred ms leaves the tree (and its selection) alone.
    if (kind == EntityKind::Run && i.isValid())
        if (const DocRun *r = m_document->run(id)) {
            const Node &parent = m_nodes[m_nodes[int(i.internalId())].parent];
            if (!r->studyName.isEmpty())
                grouped = parent.group != Group::RunStudy || parent.label != r->studyName;
            else if (!r->sweepName.isEmpty())
                grouped = parent.group != Group::RunSweep || parent.label != r->sweepName ||
                          m_nodes[parent.parent].label != r->sutName;
            else
                grouped = parent.group != Group::RunSut || parent.label != r->sutName;
        }
    if (grouped) {
        // Run groups are labelled with SUT names: regroup.
        beginResetModel();
        rebuild();
        endResetModel();
    }
}

void ProjectTreeModel::retranslate()
{
    if (m_nodes.size() <= 1)
        return;
    const QModelIndex first = index(0, 0);
    const QModelIndex last = index(rowCount() - 1, 0);
    emit dataChanged(first, last, {Qt::DisplayRole, Qt::ToolTipRole});
}

} // namespace sb
