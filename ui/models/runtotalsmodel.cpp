#include "runtotalsmodel.h"

#include "common/message.h"
#include "metrics/definitions.h"
#include "metrics/summary.h"

#include <QColor>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString tipFor(const char *key)
{
    const MetricDefinition *d = metricDefinition(QString::fromLatin1(key));
    return d ? metricToolTip(*d) : QString();
}

} // namespace

RunTotalsModel::RunTotalsModel(QObject *parent) : QAbstractTableModel(parent) {}

void RunTotalsModel::setSummary(const RunSummary &summary, const ConnectionStats &connections)
{
    beginResetModel();
    m_summary = summary;
    m_connections = connections;
    m_lines = linesFor(summary, connections);
    endResetModel();
}

void RunTotalsModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (m_lines.isEmpty())
        return;
    m_lines = linesFor(m_summary, m_connections);
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QList<RunTotalsModel::Line> RunTotalsModel::linesFor(const RunSummary &s, const ConnectionStats &c)
{
    QList<Line> lines;
    // A quantity the summary cannot tell reads "n/a", never 0; the tooltip says why (and the
    // Results view lists the reasons under the tables).
    const auto notAvailable = [&lines, &s](const QString &key, const QString &label,
                                           const QString &tip) {
        if (s.isAvailable(key))
            return false;
        const QString why = tr("Not available: %1")
                                .arg(Message::fromEnglish(s.unavailableReason(key)).translated());
        lines.append({key, label, QVariant(), tr("n/a"),
                      tip.isEmpty() ? why : why + u"\n\n"_s + tip, false});
        return true;
    };
    const auto count = [&lines, &notAvailable](const QString &key, const QString &label, qint64 v,
                                               const QString &tip = {}, bool alarm = false) {
        if (!notAvailable(key, label, tip))
            lines.append({key, label, double(v), QString::number(v), tip, alarm});
    };
    const auto real = [&lines, &notAvailable](const QString &key, const QString &label, double v,
                                              const QString &tip) {
        if (!notAvailable(key, label, tip))
            lines.append({key, label, v, QString::number(v, 'f', 2), tip, false});
    };
    const auto text = [&lines](const QString &key, const QString &label, const QString &v,
                               const QString &tip = {}) {
        lines.append({key, label, v, v, tip, false});
    };

    count(u"completed"_s, tr("Successful requests"), s.completed);
    count(u"failed"_s, tr("Failed requests"), s.failed, failedRequestsMessage().translated(),
          s.failed > 0);
    // The class in the reader's words (the key keeps its stored name).
    for (auto it = s.failedByClass.cbegin(); it != s.failedByClass.cend(); ++it)
        count(u"failed:"_s + it.key(),
              tr("    failed: %1").arg(errorClassLabel(errorClassFromName(it.key())).translated()),
              it.value(), {}, true);
    count(u"sent"_s, tr("Sent requests"), s.sent);
    count(u"warmup"_s, tr("Warm-up requests (excluded)"), s.warmup, warmupMessage().translated());
    real(u"duration"_s, tr("Benchmark duration (s)"), s.durationS, tipFor("duration"));
    const QString tokens = tokenCountMessage().translated();
    count(u"total_input_tokens"_s, tr("Total input tokens"), s.totalInputTokens, tokens);
    count(u"total_output_tokens"_s, tr("Total generated tokens"), s.totalOutputTokens, tokens);
    text(u"input_source"_s, tr("Input token source"), s.inputSources.describeMessage().translated(),
         tokens);
    if (!s.nonStreamed)
        text(u"output_source"_s, tr("Output token source"),
             s.outputSources.describeMessage().translated(), tokens);
    // Reasoning models (docs/metrics.md, reasoning): only when some request reasoned.
    if (s.reasoningRequests > 0) {
        count(u"reasoning_requests"_s, tr("Requests with reasoning"), s.reasoningRequests,
              tipFor("reasoning_time"));
        count(u"total_reasoning_tokens"_s, tr("Total reasoning tokens"), s.totalReasoningTokens,
              tipFor("reasoning_tokens"));
        text(u"reasoning_source"_s, tr("Reasoning token source"),
             s.reasoningSources.describeMessage().translated(), tokens);
    }
    // The tokenizer's count beside the server's (--tokenizer with a server that sends usage).
    if (s.outputCountCompared > 0)
        lines.append({u"output_token_mismatch"_s, tr("Output count mismatch rate (%)"),
                      100 * s.outputCountMismatchRate(),
                      QString::number(100 * s.outputCountMismatchRate(), 'f', 2),
                      tr("Of %1 successful requests with both counts, %2 had a tokenizer count of "
                         "their output other than the server's usage (Σ %3 by the server, %4 by "
                         "the tokenizer). A high rate: the tokenizer is not the model's, or the "
                         "server miscounts.")
                          .arg(s.outputCountCompared)
                          .arg(s.outputCountMismatched)
                          .arg(s.comparedServerOutputTokens)
                          .arg(s.comparedClientOutputTokens),
                      s.outputCountMismatched > 0});
    if (s.cachedTokensReported > 0)
        count(u"cached_tokens"_s, tr("Cached prompt tokens"), s.cachedTokens,
              tr("usage.prompt_tokens_details.cached_tokens, summed over %1 requests that "
                 "reported it: prefix-cache hits")
                  .arg(s.cachedTokensReported));
    real(u"request_throughput"_s, tr("Request throughput (req/s)"), s.requestThroughput,
         tipFor("request_throughput"));
    if (s.goodputSet)
        real(u"request_goodput"_s, tr("Request goodput (req/s)"), s.requestGoodput,
             tipFor("request_goodput"));
    real(u"output_throughput"_s, tr("Output token throughput (tok/s)"), s.outputThroughput,
         tipFor("output_throughput"));
    // Embeddings and rerank (docs/metrics.md, "Embeddings and rerank").
    if (s.nonStreamed || s.totalItems > 0) {
        count(u"total_items"_s, tr("Items (inputs, documents)"), s.totalItems,
              tipFor("item_throughput"));
        real(u"item_throughput"_s, tr("Item throughput (items/s)"), s.itemThroughput,
             tipFor("item_throughput"));
        if (s.isAvailable(u"total_input_tokens"_s))
            real(u"input_throughput"_s, tr("Input token throughput (tok/s)"), s.inputThroughput,
                 tipFor("input_throughput"));
    }
    // Images in prompts (docs/datasets.md): the image files' bytes, not their base64 text.
    if (s.imageRequests > 0)
        real(u"image_bytes_per_request"_s, tr("Image bytes per request (mean)"),
             s.meanImageBytes(),
             tr("The bytes of the image files a request carried, over the %1 requests with "
                "images")
                 .arg(s.imageRequests));
    real(u"total_token_throughput"_s, tr("Total token throughput (tok/s)"), s.totalTokenThroughput,
         tipFor("total_token_throughput"));
    real(u"achieved_request_rate"_s, tr("Achieved request rate (req/s)"), s.achievedRequestRate,
         tipFor("achieved_request_rate"));
    real(u"max_output_tokens_per_s"_s, tr("Peak output token throughput (tok/s)"),
         s.peakOutputTokensPerS,
         tr("Most output tokens in one 1-second bucket counted from the first send"));
    count(u"max_concurrent_requests"_s, tr("Peak concurrent requests"), s.peakConcurrentRequests,
          tr("Most successful requests in flight at once over [t_send, t_last)"));
    if (s.multiTokenChunks)
        text(u"multi_token_chunks"_s, tr("Multi-token chunks"), tr("yes"),
             tr("Some chunks carried several tokens (speculative decoding): ITL and ITL per "
                "token differ"));
    // How the requests got their connections (docs/metrics.md, "Connection phases").
    if (c.requests > 0) {
        // The cell stays short (the totals pane is as wide as its longest value); what the
        // transport could not tell goes into the tooltip.
        QString tip = tr("Of the successful requests: how many opened their own connection (its "
                         "set-up is in their TTFT), found one an earlier response left, or one "
                         "opened before the run's clock (warm connections)");
        if (c.unknown > 0)
            tip += u"\n"_s + tr("%1 requests did not record it (the manager pool, imported runs "
                                "and older project files do not)")
                                 .arg(c.unknown);
        if (c.unknown == c.requests)
            lines.append({u"connections"_s, tr("Connections opened / reused / pre-opened"),
                          QVariant(), tr("n/a"), tip, false});
        else
            lines.append({u"connections"_s, tr("Connections opened / reused / pre-opened"),
                          c.opened, u"%1 / %2 / %3"_s.arg(c.opened).arg(c.reused).arg(c.prewarmed),
                          tip, false});
        if (c.setup.n > 0)
            lines.append({u"setup_p99"_s, tr("P99 connection set-up (ms)"), c.setup.p99,
                          QString::number(c.setup.p99, 'f', 2),
                          tr("TCP connect (and TLS) of the requests that opened a connection: "
                             "t_tls_done or t_connected minus t_connect_start"),
                          false});
        if (c.ttftWithoutSetup.n > 0)
            lines.append({u"ttft_without_setup_p99"_s, tr("P99 TTFT without set-up (ms)"),
                          c.ttftWithoutSetup.p99, QString::number(c.ttftWithoutSetup.p99, 'f', 2),
                          tr("t_first minus t_request_written: from the request's last byte "
                             "handed to the kernel to its first token"),
                          false});
    }
    return lines;
}

void RunTotalsModel::clear()
{
    beginResetModel();
    m_summary = RunSummary();
    m_lines.clear();
    endResetModel();
}

int RunTotalsModel::rowOfKey(const QString &key) const
{
    for (qsizetype i = 0; i < m_lines.size(); ++i)
        if (m_lines.at(i).key == key)
            return int(i);
    return -1;
}

int RunTotalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int RunTotalsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTotalsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line &l = m_lines.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == QuantityColumn ? l.label : l.text;
    case ValueRole:
        return index.column() == QuantityColumn ? QVariant(l.label) : l.value;
    case KeyRole:
        return l.key;
    case Qt::ToolTipRole:
        return l.tip.isEmpty() ? QVariant() : QVariant(l.tip);
    case Qt::ForegroundRole:
        return l.alarm && l.value.toDouble() > 0 ? QVariant(QColor(0xb0, 0x1c, 0x1c)) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == QuantityColumn
                                       ? Qt::AlignLeft | Qt::AlignVCenter
                                       : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant RunTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole) {
        if (section == QuantityColumn)
            return tr("Quantity");
        if (section == ValueColumn)
            return tr("Value");
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace sb
