#pragma once

#include "projectdocument.h"

#include <QAbstractItemModel>
#include <QList>

namespace sb {

// The project as a tree: SUTs, datasets, load profiles, and runs grouped by SUT and then by
// sweep. Rebuilt inside beginResetModel()/endResetModel() when the project's structure changes
// (adding a run is rare next to reading the tree); renames only emit dataChanged.
class ProjectTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role { KindRole = Qt::UserRole + 1, IdRole, GroupRole };
    enum class Group { None, Suts, Datasets, Profiles, Runs, RunSut, RunSweep, RunStudy };

    explicit ProjectTreeModel(ProjectDocument *document, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    QModelIndex indexFor(EntityKind kind, int id) const;
    QModelIndex groupIndex(Group group) const;
    EntityKind kindAt(const QModelIndex &index) const;
    int idAt(const QModelIndex &index) const;

    // Group labels are translated: called on QEvent::LanguageChange.
    void retranslate();

private:
    struct Node
    {
        Group group = Group::None;
        EntityKind kind = EntityKind::None;
        int id = 0;
        QString label; // RunSut / RunSweep / RunStudy groups: the SUT, sweep or study name
        int parent = -1;
        int row = 0;
        QList<int> children;
    };
    void rebuild();
    int addNode(int parent, Node node);
    QString labelFor(const Node &n) const;
    void onEntityChanged(EntityKind kind, int id);

    ProjectDocument *m_document;
    QList<Node> m_nodes; // m_nodes[0] is the invisible root
};

} // namespace sb
