// servebench_core gathers the module libraries; this unit only anchors the archive.
#include "common/version.h"

namespace sb {
const char *coreLibraryVersion()
{
    return toolVersion();
}
} // namespace sb
