#pragma once

#include "metrics/recordset.h"
#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// The definitions (docs/metrics.md, "Connection phases"):
//   set-up               t_tls_done (https) or t_connected, minus t_connect_start, for a request
//                        that opened its own connection; 0 for one that found a connection ready
//   TTFT without set-up  t_first − t_request_written: from the request's last byte handed to the
//                        kernel to its first token, so neither set-up nor the client's own write
//                        is in it; TTFT − set-up where the transport did not stamp the write.
qint64 connectionSetupNs(const RequestRecord &r);
qint64 ttftWithoutSetupNs(const RequestRecord &r); // needs t_first and t_send

// How the run's requests got their connections, and TTFT with and without connection set-up.
// Over the measured (non-warm-up) successful requests.
struct ConnectionStats
{
    struct Stat
    {
        qint64 n = 0;
        double mean = 0, p50 = 0, p99 = 0, max = 0; // ms
        QJsonObject toJson() const;
    };
    qint64 requests = 0;  // successful measured requests looked at
    qint64 opened = 0;    // of them, with a connection of their own (ConnectionUse::New)
    qint64 reused = 0;    // on a keep-alive connection an earlier response left
    qint64 prewarmed = 0; // on a connection opened before the run's clock
    qint64 unknown = 0;   // the transport could not tell (imported runs, older files)
    Stat setup;           // over `opened` requests
    Stat ttft;            // over every request looked at
    Stat ttftWithoutSetup;
    Stat headAfterWrite; // response head received minus request written: the server's queue,
                         // prefill start and the network, without the client's own write

    // {"opened": n, ..., "setup_ms": {...}, "ttft_ms": {...}, "ttft_without_setup_ms": {...}}
    QJsonObject toJson() const;
    // The CLI's block: one line per figure, vLLM's column layout.
    QString text(const QString &mode) const;
};

ConnectionStats connectionStats(const RecordSet &records);

} // namespace sb
