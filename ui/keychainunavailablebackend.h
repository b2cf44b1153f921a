#pragma once

#include "keychainbackend.h"

namespace sb {

// Stands in when the build has no QtKeychain: every call fails with one clear reason, so the
// caller's fallback path is the same one it takes when a real keychain is locked or missing.
class KeychainUnavailableBackend : public KeychainBackend
{
    Q_OBJECT
public:
    explicit KeychainUnavailableBackend(QObject *parent = nullptr,
                                        const QString &reason = QString());

    QString name() const override;
    void read(const QString &account) override;
    void write(const QString &account, const QByteArray &secret) override;
    void remove(const QString &account) override;

private:
    QString reason() const;
    QString m_reason;
};

} // namespace sb
