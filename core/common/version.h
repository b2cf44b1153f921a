#pragma once

namespace sb {
// The tool version stamped into every run snapshot and result file.
inline const char *toolVersion()
{
    return SERVEBENCH_VERSION;
}
const char *coreLibraryVersion();
} // namespace sb
