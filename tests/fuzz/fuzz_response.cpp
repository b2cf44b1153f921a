// libFuzzer entry for the client's response path (responsefuzz.h). Built only with
// -DSERVEBENCH_FUZZ=ON and clang (cmake --preset fuzz); see tests/data/fuzz/README.md.
#include "responsefuzz.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString broken = sb::fuzz::checkResponse(data, size);
    if (!broken.isEmpty()) {
        std::fprintf(stderr, "property broken: %s\n", qPrintable(broken));
        std::abort();
    }
    return 0;
}
