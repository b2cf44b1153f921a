#include "storetypes.h"

using namespace Qt::StringLiterals;

namespace sb {

const char *storedRunStatusName(StoredRunStatus s)
{
    switch (s) {
    case StoredRunStatus::Running:
        return "running";
    case StoredRunStatus::Completed:
        return "completed";
    case StoredRunStatus::Interrupted:
        return "interrupted";
    case StoredRunStatus::Failed:
        return "failed";
    }
    return "failed";
}

bool storedRunStatusFromName(const QString &name, StoredRunStatus *out)
{
    for (auto s : {StoredRunStatus::Running, StoredRunStatus::Completed,
                   StoredRunStatus::Interrupted, StoredRunStatus::Failed})
        if (name == QLatin1StringView(storedRunStatusName(s))) {
            *out = s;
            return true;
        }
    return false;
}

} // namespace sb
