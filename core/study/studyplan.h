#pragma once

#include "common/message.h"

#include <QJsonObject>
#include <QList>

namespace sb {

struct StudyDefinition;

// One cell of a study: one candidate, one scenario, one repeat; run as one ordinary run.
struct StudyCell
{
    int position = 0; // 0-based place in the execution order
    int repeat = 0;   // 0-based
    int scenario = 0; // index into StudyDefinition::scenarios
    int candidate = 0;
};

// The cells of a study and their order (docs/study.md, "Order"): repeat blocks one after the
// other; within repeat block r every scenario runs on every candidate, the candidates in a
// seeded Latin-square rotation — a seeded permutation P of the candidates for block 0, P rotated
// by r for block r (A B C, then C A B, then B C A) — so over K repeats each candidate takes each
// place once and slow drift in the environment falls on every candidate alike.
struct StudyPlan
{
    QList<StudyCell> cells;
    QList<QList<int>> blockOrders; // per repeat: candidate indexes in their running order
    Message orderNote;             // says how the order was made

    static StudyPlan build(const StudyDefinition &definition);
    QJsonObject toJson(const StudyDefinition &definition) const;
};

} // namespace sb
