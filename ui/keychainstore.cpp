#include "keychainstore.h"

#include "keychainbackend.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

ApiKeyStore::ApiKeyStore(KeychainBackend *backend, QObject *parent)
    : QObject(parent), m_backend(backend ? backend : KeychainBackend::createDefault())
{
    m_backend->setParent(this);
    connect(m_backend, &KeychainBackend::readFinished, this, &ApiKeyStore::onRead);
    connect(m_backend, &KeychainBackend::writeFinished, this, &ApiKeyStore::onWritten);
}

QString ApiKeyStore::fallbackVariable()
{
    return u"OPENAI_API_KEY"_s;
}

void ApiKeyStore::answerLater(quint64 ticket, const QByteArray &key, const QString &message)
{
    QTimer::singleShot(0, this,
                       [this, ticket, key, message] { emit keyFetched(ticket, key, message); });
}

bool ApiKeyStore::keychainAvailable() const
{
    return m_backend->isAvailable();
}

QString ApiKeyStore::keychainFallbackNote() const
{
    if (keychainAvailable())
        return {};
    return qEnvironmentVariableIsEmpty("OPENAI_API_KEY")
               ? tr("No system keychain here, and %1 is not set: requests are sent without an "
                    "API key.")
                     .arg(fallbackVariable())
               : tr("No system keychain here: the API key comes from %1.").arg(fallbackVariable());
}

quint64 ApiKeyStore::fetch(const QString &ref)
{
    const quint64 ticket = m_nextTicket++;
    if (ref.startsWith("keychain:"_L1) && !keychainAvailable()) {
        answerLater(ticket, qgetenv("OPENAI_API_KEY"), keychainFallbackNote());
        return ticket;
    }
    if (ref.startsWith("keychain:"_L1)) {
        const QString account = ref.mid(9);
        m_pendingReads[account].append(ticket);
        m_backend->read(account);
        return ticket;
    }
    if (ref.startsWith("env:"_L1)) {
        const QString name = ref.mid(4);
        const QByteArray key = qgetenv(name.toLocal8Bit().constData());
        answerLater(ticket, key,
                    key.isEmpty() ? tr("The environment variable %1 is not set: requests are sent "
                                       "without an API key.")
                                        .arg(name)
                                  : QString());
        return ticket;
    }
    answerLater(ticket, qgetenv("OPENAI_API_KEY"), {});
    return ticket;
}

quint64 ApiKeyStore::store(const QString &account, const QByteArray &secret)
{
    const quint64 ticket = m_nextTicket++;
    m_pendingWrites[account].append(ticket);
    m_backend->write(account, secret);
    return ticket;
}

void ApiKeyStore::onRead(const QString &account, const QByteArray &secret, const QString &error)
{
    const QList<quint64> tickets = m_pendingReads.take(account);
    QByteArray key = secret;
    QString message;
    if (!keychainAvailable()) {
        key = qgetenv("OPENAI_API_KEY");
        message = keychainFallbackNote();
    } else if (!error.isEmpty() || secret.isEmpty()) {
        const QString why =
            error.isEmpty() ? tr("no key is stored for \"%1\"").arg(account) : error;
        key = qgetenv("OPENAI_API_KEY");
        message = key.isEmpty()
                      ? tr("The keychain could not provide the API key (%1), and %2 is not set: "
                           "requests are sent without an API key.")
                            .arg(why, fallbackVariable())
                      : tr("The keychain could not provide the API key (%1): using the %2 "
                           "environment variable instead.")
                            .arg(why, fallbackVariable());
    }
    for (quint64 t : tickets)
        emit keyFetched(t, key, message);
}

void ApiKeyStore::onWritten(const QString &account, const QString &error)
{
    const QList<quint64> tickets = m_pendingWrites.take(account);
    const QString message =
        !keychainAvailable()
            ? tr("No system keychain here: the key was not saved. Set the %1 environment "
                 "variable instead; ServeBench never writes keys into the project file.")
                  .arg(fallbackVariable())
        : error.isEmpty()
            ? tr("The API key was saved in the system keychain as \"%1\".").arg(account)
            : tr("The API key was not saved: %1. Set the %2 environment variable instead; "
                 "ServeBench never writes keys into the project file.")
                  .arg(error, fallbackVariable());
    for (quint64 t : tickets)
        emit stored(t, error.isEmpty(), message);
}

} // namespace sb
