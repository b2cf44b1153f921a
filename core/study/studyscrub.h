#pragma once

#include <QJsonObject>

namespace sb {

// A study's stored definition as it may travel (the decision JSON, the acceptance bundle;
// docs/study.md): a credential in its flags or URLs — a secret-looking --header with a literal
// value, an --api-key, a Bearer token, an sk- key, a URL's password — replaced by <redacted>, as
// scrubCommandLine() does for a run's command line. API key references ({api_key}) stay.
QJsonObject scrubStudyDefinition(const QJsonObject &definition);

} // namespace sb
