#pragma once

#include "data/dataset.h"

#include <QAbstractTableModel>

namespace sb {

// The sampled request list of a dataset, one row per request, for the dataset editor's preview.
class DatasetPreviewModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IndexColumn, SourceColumn, InputColumn, OutputColumn, PromptColumn, ColumnCount };
    // Rows beyond this are not shown: a preview, not a viewer for a million prompts.
    static constexpr int kMaxRows = 5000;

    explicit DatasetPreviewModel(QObject *parent = nullptr);

    void setItems(const QList<PromptItem> &items);
    void clear();
    qsizetype totalItems() const { return m_total; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<PromptItem> m_items;
    qsizetype m_total = 0;
};

} // namespace sb
