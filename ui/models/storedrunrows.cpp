#include "storedrunrows.h"

#include "models/requestrow.h"
#include "models/requesttablemodel.h"
#include "store/projectstore.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace sb {

namespace {

using Col = RequestTableModel::Column;

float toFloat(double v)
{
    return std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : float(v);
}

// QSortFilterProxyModel's order for the sort role's values (QAbstractItemModelPrivate::
// isVariantLessThan): an empty value is never less than anything and everything else is less
// than it; a descending sort is a stable sort by the mirrored comparison.
template <typename Key> void sortBy(std::vector<qsizetype> &rows, bool descending, const Key &key)
{
    const auto less = [&key](qsizetype a, qsizetype b) {
        const auto ka = key(a);
        const auto kb = key(b);
        if (!ka.has_value())
            return false;
        if (!kb.has_value())
            return true;
        return *ka < *kb;
    };
    if (descending)
        std::stable_sort(rows.begin(), rows.end(),
                         [&less](qsizetype a, qsizetype b) { return less(b, a); });
    else
        std::stable_sort(rows.begin(), rows.end(), less);
}

std::optional<double> number(float v)
{
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

// Rank of each distinct text among themselves: a few distinct texts (statuses, token sources)
// sort as their ranks instead of being compared as strings a million times.
QMap<QString, int> ranks(QStringList texts)
{
    texts.sort(Qt::CaseSensitive);
    texts.removeDuplicates();
    QMap<QString, int> out;
    for (int i = 0; i < texts.size(); ++i)
        out.insert(texts.at(i), i);
    return out;
}

} // namespace

void StoredRunRows::reserve(qsizetype n)
{
    m_rows.reserve(size_t(n));
    m_index.reserve(size_t(n));
}

void StoredRunRows::add(const RequestRow &r)
{
    Compact c;
    c.sendS = r.sendS;
    c.ttftMs = toFloat(r.ttftMs);
    c.tpotMs = toFloat(r.tpotMs);
    c.e2elMs = toFloat(r.e2elMs);
    c.itlMeanMs = toFloat(r.itlMeanMs);
    c.itlMaxMs = toFloat(r.itlMaxMs);
    c.lagMs = toFloat(r.scheduleLagMs);
    c.inputTokens = r.inputTokens;
    c.outputTokens = r.outputTokens;
    c.httpStatus = r.httpStatus;
    c.error = quint8(r.error);
    c.warmup = r.warmup ? 1 : 0;
    c.inputSource = quint8(r.inputSource);
    c.outputSource = quint8(r.outputSource);
    m_rows.push_back(c);
    m_index.push_back(r.index);
    m_failed += r.failed() ? 1 : 0;
}

bool StoredRunRows::needsTexts(int column)
{
    return column == Col::FinishReasonColumn || column == Col::ErrorMessageColumn ||
           column == Col::RequestIdColumn;
}

std::vector<qint64> StoredRunRows::order(int column, bool descending, bool failedOnly,
                                         const std::vector<quint8> *textMatch,
                                         const std::vector<QString> *texts) const
{
    std::vector<qsizetype> rows;
    rows.reserve(m_rows.size());
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (failedOnly && (ErrorClass(m_rows[i].error) == ErrorClass::None ||
                           ErrorClass(m_rows[i].error) == ErrorClass::CancelledByLoad))
            continue;
        if (textMatch && (i >= textMatch->size() || !(*textMatch)[i]))
            continue;
        rows.push_back(qsizetype(i));
    }
    const auto &v = m_rows;
    const auto compact = [&v](qsizetype i) -> const Compact & {
        return v[size_t(i)];
    };
    switch (column) {
    case Col::IndexColumn:
        sortBy(rows, descending,
               [this](qsizetype i) { return std::optional<qint64>(m_index[size_t(i)]); });
        break;
    case Col::SentColumn:
        sortBy(rows, descending, [&](qsizetype i) {
            const double s = compact(i).sendS;
            return std::isnan(s) ? std::nullopt : std::optional<double>(s);
        });
        break;
    case Col::TtftColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).ttftMs); });
        break;
    case Col::TpotColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).tpotMs); });
        break;
    case Col::E2elColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).e2elMs); });
        break;
    case Col::ItlMeanColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).itlMeanMs); });
        break;
    case Col::ItlMaxColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).itlMaxMs); });
        break;
    case Col::ScheduleLagColumn:
        sortBy(rows, descending, [&](qsizetype i) { return number(compact(i).lagMs); });
        break;
    case Col::InputTokensColumn:
        sortBy(rows, descending,
               [&](qsizetype i) { return std::optional<qint32>(compact(i).inputTokens); });
        break;
    case Col::OutputTokensColumn:
        sortBy(rows, descending,
               [&](qsizetype i) { return std::optional<qint32>(compact(i).outputTokens); });
        break;
    case Col::HttpStatusColumn:
        sortBy(rows, descending, [&](qsizetype i) {
            const qint32 h = compact(i).httpStatus;
            return h > 0 ? std::optional<qint32>(h) : std::nullopt;
        });
        break;
    case Col::StatusColumn: {
        // The status text depends on the error class and the warm-up flag only: rank the
        // combinations the run has.
        std::vector<quint8> present(256 * 2, 0);
        for (const Compact &c : m_rows)
            present[size_t(c.error) * 2 + c.warmup] = 1;
        QStringList all;
        QList<QPair<size_t, QString>> combos;
        for (size_t k = 0; k < present.size(); ++k) {
            if (!present[k])
                continue;
            RequestRow r;
            r.error = ErrorClass(k / 2);
            r.warmup = (k % 2) != 0;
            combos.append({k, RequestTableModel::statusText(r)});
            all << combos.last().second;
        }
        const QMap<QString, int> rank = ranks(all);
        std::vector<int> key(present.size(), 0);
        for (const auto &[k, text] : std::as_const(combos))
            key[k] = rank.value(text);
        sortBy(rows, descending, [&](qsizetype i) {
            const Compact &c = compact(i);
            return std::optional<int>(key[size_t(c.error) * 2 + c.warmup]);
        });
        break;
    }
    case Col::InputSourceColumn:
    case Col::OutputSourceColumn: {
        const bool input = column == Col::InputSourceColumn;
        std::vector<quint8> present(256, 0);
        for (const Compact &c : m_rows)
            present[input ? c.inputSource : c.outputSource] = 1;
        QStringList all;
        for (size_t k = 0; k < present.size(); ++k)
            if (present[k])
                all << tokenSourceLabel(TokenSource(k)).translated();
        const QMap<QString, int> rank = ranks(all);
        std::vector<int> key(256, 0);
        for (size_t k = 0; k < present.size(); ++k)
            if (present[k])
                key[k] = rank.value(tokenSourceLabel(TokenSource(k)).translated());
        sortBy(rows, descending, [&](qsizetype i) {
            const Compact &c = compact(i);
            return std::optional<int>(key[input ? c.inputSource : c.outputSource]);
        });
        break;
    }
    default:
        if (texts && texts->size() == m_rows.size())
            sortBy(rows, descending, [texts](qsizetype i) -> std::optional<QStringView> {
                return QStringView((*texts)[size_t(i)]);
            });
        break;
    }
    std::vector<qint64> out;
    out.reserve(rows.size());
    for (qsizetype i : rows)
        out.push_back(m_index[size_t(i)]);
    return out;
}

bool matchStoredRows(const ProjectStore &store, qint64 runId, qint64 zeroNs, const QString &text,
                     std::vector<quint8> *match, QString *error,
                     const std::function<bool()> &cancelled)
{
    match->clear();
    qint64 seen = 0;
    bool stopped = false;
    const bool ok = store.visitRequestRows(runId, true, [&](const RequestRecord &r, qint64) {
        if ((++seen & 1023) == 0 && cancelled && cancelled()) {
            stopped = true;
            return false;
        }
        const RequestRow row = RequestRow::fromRecord(r, zeroNs);
        bool hit = false;
        for (int c = 0; c < RequestTableModel::ColumnCount && !hit; ++c)
            hit = RequestTableModel::cell(row, c, Qt::DisplayRole)
                      .toString()
                      .contains(text, Qt::CaseInsensitive);
        match->push_back(hit ? 1 : 0);
        return true;
    });
    if (!ok)
        *error = store.lastError();
    return ok && !stopped;
}

bool readStoredTexts(const ProjectStore &store, qint64 runId, int column,
                     std::vector<QString> *texts, QString *error,
                     const std::function<bool()> &cancelled)
{
    texts->clear();
    qint64 seen = 0;
    bool stopped = false;
    const bool ok = store.visitRequestRows(runId, false, [&](const RequestRecord &r, qint64) {
        if ((++seen & 4095) == 0 && cancelled && cancelled()) {
            stopped = true;
            return false;
        }
        switch (column) {
        case Col::FinishReasonColumn:
            texts->push_back(r.finishReason);
            break;
        case Col::ErrorMessageColumn:
            texts->push_back(r.errorMessage);
            break;
        default:
            texts->push_back(r.requestId);
            break;
        }
        return true;
    });
    if (!ok)
        *error = store.lastError();
    return ok && !stopped;
}

} // namespace sb
