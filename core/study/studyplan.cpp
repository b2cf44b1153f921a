#include "studyplan.h"

#include "study/studydefinition.h"

#include <QJsonArray>
#include <QStringList>

#include <random>

using namespace Qt::StringLiterals;

namespace sb {

StudyPlan StudyPlan::build(const StudyDefinition &d)
{
    StudyPlan p;
    const int k = int(d.candidates.size());
    if (k == 0)
        return p;
    // The seeded permutation of block 0: Fisher-Yates with a fixed-definition generator
    // (std::mt19937_64's sequence is specified by the standard, so the order is the same on
    // every platform).
    QList<int> base;
    for (int i = 0; i < k; ++i)
        base << i;
    std::mt19937_64 rng(d.seed);
    for (int i = k - 1; i > 0; --i) {
        const int j = int(rng() % quint64(i + 1));
        std::swap(base[i], base[j]);
    }
    int position = 0;
    for (int r = 0; r < d.repeats; ++r) {
        QList<int> order;
        for (int i = 0; i < k; ++i)
            order << base.at(((i - r) % k + k) % k);
        p.blockOrders << order;
        for (int s = 0; s < d.scenarios.size(); ++s)
            for (int c : std::as_const(order))
                p.cells << StudyCell{position++, r, s, c};
    }
    QStringList blocks;
    for (const QList<int> &order : std::as_const(p.blockOrders)) {
        QStringList names;
        for (int c : order)
            names << d.candidates.at(c).name;
        blocks << names.join(u' ');
    }
    p.orderNote = Message("study.order", {QString::number(d.repeats), QString::number(d.seed),
                                          blocks.join(u" | "_s)});
    return p;
}

QJsonObject StudyPlan::toJson(const StudyDefinition &d) const
{
    QJsonArray cs;
    for (const StudyCell &c : cells)
        cs.append(QJsonObject{{u"position"_s, c.position + 1},
                              {u"repeat"_s, c.repeat + 1},
                              {u"scenario"_s, d.scenarios.value(c.scenario).name},
                              {u"candidate"_s, d.candidates.value(c.candidate).name}});
    QJsonArray blocks;
    for (const QList<int> &order : blockOrders) {
        QJsonArray names;
        for (int c : order)
            names.append(d.candidates.value(c).name);
        blocks.append(names);
    }
    return QJsonObject{{u"order"_s, u"latin-square rotation per repeat block, seeded"_s},
                       {u"seed"_s, double(d.seed)},
                       {u"blocks"_s, blocks},
                       {u"note"_s, orderNote.text()},
                       {u"cells"_s, cs}};
}

} // namespace sb
