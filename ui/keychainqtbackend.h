#pragma once

#ifdef SERVEBENCH_HAVE_KEYCHAIN

#include "keychainbackend.h"

namespace sb {

// The platform keychain through QtKeychain (Secret Service / KWallet on Linux). Entries live
// under the service "ServeBench", one per account name.
class KeychainQtBackend : public KeychainBackend
{
    Q_OBJECT
public:
    explicit KeychainQtBackend(QObject *parent = nullptr);

    QString name() const override;
    void read(const QString &account) override;
    void write(const QString &account, const QByteArray &secret) override;
    void remove(const QString &account) override;
};

} // namespace sb

#endif
