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
    {ErrorClass::Oversize, "oversize"},
};
} // namespace

const char *errorClassName(ErrorClass c)
{
    for (const auto &e : kErrorNames)
        if (e.cls == c)
            return e.name;
    return "transport";
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

TokenSource tokenSourceFromName(QAnyStringView name)
{
    for (auto s : {TokenSource::ServerUsage, TokenSource::ChunkCount, TokenSource::Dataset})
        if (name == QLatin1StringView(tokenSourceName(s)))
            return s;
    return TokenSource::Unknown;
}

} // namespace sb
