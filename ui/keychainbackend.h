#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

namespace sb {

// Where API keys are kept outside the project file. Asynchronous because the platform keychain
// may ask the user to unlock it; the answer comes back through the signals (an empty error means
// success). Injectable so tests can force the failure paths.
class KeychainBackend : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~KeychainBackend() override = default;

    virtual QString name() const = 0;
    virtual void read(const QString &account) = 0;
    virtual void write(const QString &account, const QByteArray &secret) = 0;
    virtual void remove(const QString &account) = 0;

    // The platform keychain when the build found QtKeychain, otherwise a backend that always
    // reports that no keychain is available.
    static KeychainBackend *createDefault(QObject *parent = nullptr);

signals:
    void readFinished(const QString &account, const QByteArray &secret, const QString &error);
    void writeFinished(const QString &account, const QString &error);
};

} // namespace sb
