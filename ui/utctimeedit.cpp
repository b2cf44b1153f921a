#include "utctimeedit.h"

#include <QDateTimeEdit>

using namespace Qt::StringLiterals;

namespace sb {

QDateTimeEdit *newUtcTimeEdit(QWidget *parent)
{
    auto *edit = new QDateTimeEdit(parent);
    edit->setTimeSpec(Qt::UTC);
    // ISO order in every language, as the CLI and the bill CSV write times.
    edit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s);
    edit->setCalendarPopup(true);
    return edit;
}

void setUtcTime(QDateTimeEdit *edit, const QDateTime &time)
{
    edit->setDateTime(floorToSecond(time.toUTC()));
}

QDateTime floorToSecond(const QDateTime &time)
{
    if (!time.isValid())
        return time;
    const qint64 ms = time.toMSecsSinceEpoch();
    return QDateTime::fromMSecsSinceEpoch(ms - ((ms % 1000) + 1000) % 1000, Qt::UTC);
}

QDateTime ceilToSecond(const QDateTime &time)
{
    const QDateTime floor = floorToSecond(time);
    return floor == time ? floor : floor.addSecs(1);
}

QDateTime utcTimeOf(const QDateTimeEdit *edit, const QDateTime &original)
{
    const QDateTime shown = edit->dateTime().toUTC();
    if (original.isValid() && shown == floorToSecond(original))
        return original.toUTC();
    return floorToSecond(shown);
}

} // namespace sb
