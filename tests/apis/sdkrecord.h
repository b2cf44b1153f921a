#pragma once

// What ServeBench records of a whole response the SDK reference also read (tst_apisdk,
// tst_poolingsdk): the bytes through the run's StreamAccumulator in one read at time 1, or cut at
// every byte (byte i read at time i + 1), then a clean end.

#include "client/streamaccumulator.h"
#include "metrics/requestrecord.h"

#include <QByteArray>

namespace sb::test {

inline RequestRecord recordOf(const QByteArray &raw, ApiFlavour flavour, bool bytewise,
                              bool captureText = false, int batchItems = 0)
{
    RequestRecord r;
    r.batchItems = batchItems;
    StreamAccumulator acc(flavour, &r);
    acc.setCaptureText(captureText);
    acc.onHttpStatus(200);
    if (bytewise) {
        for (qsizetype i = 0; i < raw.size(); ++i)
            acc.onBytes(raw.constData() + i, 1, i + 1);
    } else {
        acc.onBytes(raw.constData(), raw.size(), 1);
    }
    acc.finish(ErrorClass::None, {}, raw.size() + 2);
    return r;
}

} // namespace sb::test
