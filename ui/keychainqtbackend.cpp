#include "keychainqtbackend.h"

#ifdef SERVEBENCH_HAVE_KEYCHAIN

#include <qt6keychain/keychain.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
const QString kService = u"ServeBench"_s;

// Errors that say there is no keychain to talk to. libsecret reports a missing Secret Service or
// D-Bus session (e.g. 'Failed to execute child process "dbus-launch"') as OtherError; a locked
// keychain is AccessDenied and a missing entry EntryNotFound, which a later call may not repeat.
bool noKeychain(QKeychain::Error error)
{
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented ||
           error == QKeychain::OtherError;
}
} // namespace

KeychainQtBackend::KeychainQtBackend(QObject *parent) : KeychainBackend(parent) {}

QString KeychainQtBackend::name() const
{
    return u"qtkeychain"_s;
}

void KeychainQtBackend::read(const QString &account)
{
    auto *job = new QKeychain::ReadPasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(account);
    connect(job, &QKeychain::Job::finished, this, [this, job, account](QKeychain::Job *) {
        if (job->error() == QKeychain::NoError) {
            emit readFinished(account, job->binaryData(), {});
            return;
        }
        if (noKeychain(job->error()))
            setUnavailable(job->errorString());
        emit readFinished(account, {}, job->errorString());
    });
    job->start();
}

void KeychainQtBackend::write(const QString &account, const QByteArray &secret)
{
    auto *job = new QKeychain::WritePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(account);
    job->setBinaryData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, job, account](QKeychain::Job *) {
        if (noKeychain(job->error()))
            setUnavailable(job->errorString());
        emit writeFinished(account,
                           job->error() == QKeychain::NoError ? QString() : job->errorString());
    });
    job->start();
}

void KeychainQtBackend::remove(const QString &account)
{
    auto *job = new QKeychain::DeletePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(account);
    connect(job, &QKeychain::Job::finished, this, [this, job, account](QKeychain::Job *) {
        if (noKeychain(job->error()))
            setUnavailable(job->errorString());
        emit writeFinished(account,
                           job->error() == QKeychain::NoError ? QString() : job->errorString());
    });
    job->start();
}

} // namespace sb

#endif
