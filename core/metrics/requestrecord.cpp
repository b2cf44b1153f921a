#include "requestrecord.h"

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
    case TokenSource::Unknown:
        break;
    }
    return "unknown";
}

TokenSource tokenSourceFromName(QAnyStringView name)
{
    for (auto s : {TokenSource::ServerUsage, TokenSource::ChunkCount, TokenSource::Dataset})
        if (name == QLatin1StringView(tokenSourceName(s)))
            return s;
    return TokenSource::Unknown;
}

Message tokenSourceLabel(TokenSource s)
{
    return Message((QByteArray("token_source.") + tokenSourceName(s)).constData());
}

} // namespace sb
