#pragma once

#include <QTableView>

namespace sb {

// A table whose selection copies (Ctrl+C, context menu) as tab-separated text with a header
// line, which pastes into spreadsheets and terminals alike.
class CopyableTableView : public QTableView
{
    Q_OBJECT
public:
    explicit CopyableTableView(QWidget *parent = nullptr);

    QString selectionAsText() const;
    void copySelection() const;

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
};

} // namespace sb
