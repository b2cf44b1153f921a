#include "keychainunavailablebackend.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

KeychainUnavailableBackend::KeychainUnavailableBackend(QObject *parent, const QString &reason)
    : KeychainBackend(parent), m_reason(reason)
{
    setUnavailable(this->reason());
}

QString KeychainUnavailableBackend::name() const
{
    return u"none"_s;
}

QString KeychainUnavailableBackend::reason() const
{
    return m_reason.isEmpty() ? tr("this build of ServeBench has no keychain support") : m_reason;
}

// Answers are queued, never emitted from inside the call, so callers see the same ordering as
// with a real (asynchronous) keychain.
void KeychainUnavailableBackend::read(const QString &account)
{
    QTimer::singleShot(0, this, [this, account] { emit readFinished(account, {}, reason()); });
}

void KeychainUnavailableBackend::write(const QString &account, const QByteArray &)
{
    QTimer::singleShot(0, this, [this, account] { emit writeFinished(account, reason()); });
}

void KeychainUnavailableBackend::remove(const QString &account)
{
    QTimer::singleShot(0, this, [this, account] { emit writeFinished(account, reason()); });
}

} // namespace sb
