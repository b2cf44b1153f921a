#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

namespace sb {

class KeychainBackend;

// Resolves a SUT's apiKeyRef to the key itself, and saves keys, without ever putting a key into
// the project file (docs/design.md, vocabulary). A reference is
//   "keychain:ACCOUNT"  the platform keychain (service "ServeBench")
//   "env:NAME"          an environment variable
//   ""                  OPENAI_API_KEY when set (the OpenAI SDK's and the CLI's habit), else none
// When the keychain fails (missing, locked, no entry) the store falls back to OPENAI_API_KEY and
// says so in the message, so a run is never silently sent unauthenticated.
class ApiKeyStore : public QObject
{
    Q_OBJECT
public:
    // Takes ownership of backend; nullptr = KeychainBackend::createDefault().
    explicit ApiKeyStore(KeychainBackend *backend = nullptr, QObject *parent = nullptr);

    static QString fallbackVariable(); // "OPENAI_API_KEY"
    static QString keychainRef(const QString &account)
    {
        return QStringLiteral("keychain:") + account;
    }
    static QString envRef(const QString &name) { return QStringLiteral("env:") + name; }

    KeychainBackend *backend() const { return m_backend; }

    // False once the backend found no keychain on this machine; keychain references are then
    // answered from OPENAI_API_KEY at once, with keychainFallbackNote() as the message.
    bool keychainAvailable() const;
    // Where keys come from without a keychain, in one short sentence without the platform's
    // technical error (that is KeychainBackend::unavailableReason()); empty while available.
    QString keychainFallbackNote() const;

    // Answers with keyFetched(ticket, ...) later (never from inside this call).
    quint64 fetch(const QString &ref);
    // Saves secret under the account; answers with stored(ticket, ...).
    quint64 store(const QString &account, const QByteArray &secret);

signals:
    // message is empty when the key came from where the reference said; otherwise it explains
    // the fallback (or that no key will be sent) in a sentence for the status bar.
    void keyFetched(quint64 ticket, const QByteArray &key, const QString &message);
    void stored(quint64 ticket, bool ok, const QString &message);

private:
    void onRead(const QString &account, const QByteArray &secret, const QString &error);
    void onWritten(const QString &account, const QString &error);
    void answerLater(quint64 ticket, const QByteArray &key, const QString &message);

    KeychainBackend *m_backend;
    quint64 m_nextTicket = 1;
    QHash<QString, QList<quint64>> m_pendingReads;
    QHash<QString, QList<quint64>> m_pendingWrites;
};

} // namespace sb
