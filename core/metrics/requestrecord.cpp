#include "requestrecord.h"

#include <QJsonObject>
#include <QJsonValue>

namespace sb {

namespace {
struct ErrorName
{
    ErrorClass cls;
    const char *name;
};
constexpr ErrorName kErrorNames[] = {
    {ErrorClass::None, "none"},
    {ErrorClass::Http429, "http_429"},
    {ErrorClass::Http4xx, "http_4xx"},
    {ErrorClass::Http5xx, "http_5xx"},
    {ErrorClass::HttpOther, "http_other"},
    {ErrorClass::Connect, "connect"},
    {ErrorClass::Reset, "reset"},
    {ErrorClass::Timeout, "timeout"},
    {ErrorClass::StreamError, "stream_error"},
    {ErrorClass::InvalidJson, "invalid_json"},
    {ErrorClass::Incomplete, "incomplete"},
    {ErrorClass::NoTokens, "no_tokens"},
    {ErrorClass::Cancelled, "cancelled"},
    {ErrorClass::Transport, "transport"},
    {ErrorClass::Oversize, "oversize"},
    {ErrorClass::Overloaded, "overloaded"},
    {ErrorClass::CancelledByLoad, "cancelled_by_load"},
    {ErrorClass::ResultMismatch, "result_mismatch"},
};
} // namespace

const char *errorClassName(ErrorClass c)
{
    for (const auto &e : kErrorNames)
        if (e.cls == c)
            return e.name;
    return "transport";
}

Message errorClassLabel(ErrorClass c)
{
    // Identifiers "error_class.<stored name>", one per class (tests/i18n checks every class).
    return Message((QByteArray("error_class.") + errorClassName(c)).constData());
}

ErrorClass errorClassFromName(QAnyStringView name)
{
    for (const auto &e : kErrorNames)
        if (name == QLatin1StringView(e.name))
            return e.cls;
    return ErrorClass::Transport;
}

QList<ErrorClass> allErrorClasses()
{
    QList<ErrorClass> out;
    for (const auto &e : kErrorNames)
        out.append(e.cls);
    return out;
}

const char *tokenSourceName(TokenSource s)
{
    switch (s) {
    case TokenSource::ServerUsage:
        return "server_usage";
    case TokenSource::ChunkCount:
        return "chunk_count";
    case TokenSource::Dataset:
        return "dataset";
    case TokenSource::Tokenizer:
        return "tokenizer";
    case TokenSource::Unknown:
        break;
    }
    return "unknown";
}

const char *connectionUseName(ConnectionUse u)
{
    switch (u) {
    case ConnectionUse::New:
        return "new";
    case ConnectionUse::Reused:
        return "reused";
    case ConnectionUse::Prewarmed:
        return "prewarmed";
    case ConnectionUse::Unknown:
        break;
    }
    return "unknown";
}

ConnectionUse connectionUseFromName(QAnyStringView name)
{
    for (auto u : {ConnectionUse::New, ConnectionUse::Reused, ConnectionUse::Prewarmed})
        if (name == QLatin1StringView(connectionUseName(u)))
            return u;
    return ConnectionUse::Unknown;
}

QList<RecordTimeField> connectionPhaseFields()
{
    return {{"t_connect_start", &RequestRecord::tConnectStart},
            {"t_connected", &RequestRecord::tConnected},
            {"t_tls_done", &RequestRecord::tTlsDone},
            {"t_request_written", &RequestRecord::tRequestWritten},
            {"t_head_received", &RequestRecord::tHeadReceived}};
}

void writeConnectionPhases(const RequestRecord &r, qint64 baseNs, QJsonObject *out)
{
    for (const RecordTimeField &f : connectionPhaseFields()) {
        if (r.*f.member != 0)
            out->insert(QLatin1StringView(f.name), r.*f.member - baseNs);
    }
    out->insert(QLatin1StringView("connection"),
                QLatin1StringView(connectionUseName(r.connection)));
}

void readConnectionPhases(const QJsonObject &in, qint64 baseNs, RequestRecord *r)
{
    for (const RecordTimeField &f : connectionPhaseFields()) {
        const QJsonValue v = in.value(QLatin1StringView(f.name));
        r->*f.member = v.isDouble() ? v.toInteger() + baseNs : 0;
    }
    r->connection = connectionUseFromName(in.value(QLatin1StringView("connection")).toString());
}

QStringList connectionPhaseCsvHeader()
{
    QStringList h;
    for (const RecordTimeField &f : connectionPhaseFields())
        h.append(QString::fromLatin1(f.name) + QLatin1StringView("_ns"));
    h.append(QStringLiteral("connection"));
    return h;
}

QStringList connectionPhaseCsvCells(const RequestRecord &r, qint64 baseNs)
{
    QStringList cells;
    for (const RecordTimeField &f : connectionPhaseFields())
        cells.append(r.*f.member != 0 ? QString::number(r.*f.member - baseNs) : QString());
    cells.append(QString::fromLatin1(connectionUseName(r.connection)));
    return cells;
}

TokenSource tokenSourceFromName(QAnyStringView name)
{
    for (auto s : {TokenSource::ServerUsage, TokenSource::ChunkCount, TokenSource::Dataset,
                   TokenSource::Tokenizer})
        if (name == QLatin1StringView(tokenSourceName(s)))
            return s;
    return TokenSource::Unknown;
}

Message tokenSourceLabel(TokenSource s)
{
    return Message((QByteArray("token_source.") + tokenSourceName(s)).constData());
}

} // namespace sb
