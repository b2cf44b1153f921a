#pragma once

#include <QtGlobal>

namespace sb {

// The receive time given to the bytes of one recvmsg() (docs/performance.md, the EpollWorker
// entry). The rule the metrics rest on: a read's time is never earlier than any of its bytes
// reached this host, so no chunk is ever "received" before the server wrote it.
//
// - The kernel's timestamp, already on CLOCK_MONOTONIC (through an offset that makes it late by at
//   most `offsetSlackNs`, never early), is kept when it is plausible: not after the read returned
//   (beyond that slack) and not absurdly before it began. It is the arrival of the last segment
//   the read consumed, so the read's bytes all arrived by then.
// - Without one (the kernel had not switched stamping on yet, or it is turned off), the read is
//   stamped when the call returned: bytes can arrive while the thread waits to make the call —
//   preempted after reading the clock — and the read returns them too, so the time before the
//   call could be earlier than their arrival.
struct ReadStamp
{
    qint64 t = 0;
    bool kernel = false; // t came from the kernel's timestamp
};

inline ReadStamp chooseReadStamp(qint64 beforeRead, qint64 afterRead, bool hasKernelStamp,
                                 qint64 kernelMono, qint64 offsetSlackNs, qint64 maxSkewNs)
{
    if (hasKernelStamp && kernelMono <= afterRead + offsetSlackNs &&
        kernelMono > beforeRead - maxSkewNs)
        return {qMin(kernelMono, afterRead), true};
    return {afterRead, false};
}

} // namespace sb
