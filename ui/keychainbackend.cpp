#include "keychainbackend.h"

#include "keychainunavailablebackend.h"

#ifdef SERVEBENCH_HAVE_KEYCHAIN
#include "keychainqtbackend.h"
#endif

namespace sb {

KeychainBackend *KeychainBackend::createDefault(QObject *parent)
{
#ifdef SERVEBENCH_HAVE_KEYCHAIN
    return new KeychainQtBackend(parent);
#else
    return new KeychainUnavailableBackend(parent);
#endif
}

} // namespace sb
