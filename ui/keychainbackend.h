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

    // False once the platform has shown it has no keychain to offer (no Secret Service, no
    // D-Bus session, no backend at all): asking again would only fail again, slowly, with the
    // same technical error. A locked keychain or a missing entry is not this.
    bool isAvailable() const { return m_unavailableReason.isEmpty(); }
    // The platform's own words, for a tooltip or a log; empty while available.
    QString unavailableReason() const { return m_unavailableReason; }
    virtual void read(const QString &account) = 0;
    virtual void write(const QString &account, const QByteArray &secret) = 0;
    virtual void remove(const QString &account) = 0;

    // The platform keychain when the build found QtKeychain, otherwise a backend that always
    // reports that no keychain is available.
    static KeychainBackend *createDefault(QObject *parent = nullptr);

signals:
    void readFinished(const QString &account, const QByteArray &secret, const QString &error);
    void writeFinished(const QString &account, const QString &error);

protected:
    void setUnavailable(const QString &reason) { m_unavailableReason = reason; }

private:
    QString m_unavailableReason;
};

} // namespace sb
