#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QByteArray>

namespace sb {

class SseParser;

// Turns the bytes of one streamed HTTP response into a RequestRecord, whatever transport
// delivered them. It knows the OpenAI streaming protocol (DESIGN §4); transports know sockets.
//
// Call order: onHttpStatus() once when headers arrive, onBytes() for every body read (already
// de-chunked: the transport removes HTTP chunked framing), then finish() exactly once.
class StreamAccumulator
{
public:
    StreamAccumulator(ApiFlavour flavour, RequestRecord *record);
    ~StreamAccumulator();
    StreamAccumulator(const StreamAccumulator &) = delete;
    StreamAccumulator &operator=(const StreamAccumulator &) = delete;

    void onHttpStatus(int status);
    // tRecvNs: monotonic time the bytes were received (the same for every event in this read).
    void onBytes(const char *data, qsizetype size, qint64 tRecvNs);
    // transportError: None when the transport saw a clean end of the response body.
    void finish(ErrorClass transportError, const QString &message, qint64 tEndNs);

    // True once [DONE] or a stream error arrived: the transport may stop reading.
    bool complete() const;
};

} // namespace sb
