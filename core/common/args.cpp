#include "args.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

Args::Args(QList<OptionSpec> specs) : m_specs(std::move(specs)) {}

const OptionSpec *Args::find(const QString &name) const
{
    for (const auto &s : m_specs)
        if (s.name == name)
            return &s;
    return nullptr;
}

bool Args::parse(const QStringList &argv, QString *error)
{
    for (int i = 0; i < argv.size(); ++i) {
        const QString &a = argv.at(i);
        if (!a.startsWith("--"_L1)) {
            m_positional.append(a);
            continue;
        }
        QString name = a.mid(2);
        QString inlineValue;
        bool hasInline = false;
        if (const int eq = name.indexOf(u'='); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
            hasInline = true;
        }
        // argparse accepts underscores for dashes nowhere, but users type both; be lenient.
        name.replace(u'_', u'-');
        const OptionSpec *spec = find(name);
        if (!spec) {
            *error = u"unknown option --%1 (see --help)"_s.arg(name);
            return false;
        }
        QStringList &vals = m_values[name];
        switch (spec->kind) {
        case OptionSpec::Flag:
            if (hasInline) {
                *error = u"option --%1 takes no value"_s.arg(name);
                return false;
            }
            vals.append(u"1"_s);
            break;
        case OptionSpec::Value:
        case OptionSpec::Repeated:
            if (hasInline) {
                vals.append(inlineValue);
            } else if (i + 1 < argv.size()) {
                vals.append(argv.at(++i));
            } else {
                *error = u"option --%1 needs a value"_s.arg(name);
                return false;
            }
            if (spec->kind == OptionSpec::Value && vals.size() > 1)
                vals.removeFirst(); // the last occurrence wins, like argparse
            break;
        case OptionSpec::MultiValue:
            vals.clear();
            if (hasInline)
                vals.append(inlineValue);
            while (i + 1 < argv.size() && !argv.at(i + 1).startsWith("--"_L1))
                vals.append(argv.at(++i));
            if (vals.isEmpty()) {
                *error = u"option --%1 needs at least one value"_s.arg(name);
                return false;
            }
            break;
        }
        if (!spec->note.isEmpty() && !m_notes.contains(spec->note))
            m_notes.append(spec->note);
    }
    return true;
}

QString Args::value(const QString &name, const QString &fallback) const
{
    const auto it = m_values.constFind(name);
    return it == m_values.cend() || it->isEmpty() ? fallback : it->constLast();
}

int Args::intValue(const QString &name, int fallback, QString *error) const
{
    if (!has(name))
        return fallback;
    bool ok = false;
    const int v = value(name).toInt(&ok);
    if (!ok) {
        *error = u"--%1 expects an integer, got '%2'"_s.arg(name, value(name));
        return fallback;
    }
    return v;
}

double Args::doubleValue(const QString &name, double fallback, QString *error) const
{
    if (!has(name))
        return fallback;
    const QString v = value(name);
    if (v.compare("inf"_L1, Qt::CaseInsensitive) == 0)
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || std::isnan(d)) {
        *error = u"--%1 expects a number, got '%2'"_s.arg(name, v);
        return fallback;
    }
    return d;
}

QString Args::helpText() const
{
    QString out;
    for (const auto &s : m_specs) {
        if (!s.note.isEmpty())
            continue;
        QString flag = u"  --"_s + s.name;
        if (s.kind == OptionSpec::Value || s.kind == OptionSpec::Repeated)
            flag += u" V"_s;
        else if (s.kind == OptionSpec::MultiValue)
            flag += u" V [V ...]"_s;
        out += flag.leftJustified(34) + u' ' + s.help + u'\n';
    }
    QStringList compat;
    for (const auto &s : m_specs)
        if (!s.note.isEmpty())
            compat.append(u"--"_s + s.name);
    if (!compat.isEmpty())
        out += u"\nAccepted for vLLM compatibility (noted, not used): "_s + compat.join(u", "_s) +
               u'\n';
    return out;
}

bool parseHeaderArg(const QString &text, QPair<QString, QString> *out)
{
    int sep = text.indexOf(u':');
    const int eq = text.indexOf(u'=');
    if (sep < 0 || (eq >= 0 && eq < sep))
        sep = eq;
    if (sep <= 0)
        return false;
    *out = {text.left(sep).trimmed(), text.mid(sep + 1).trimmed()};
    return true;
}

} // namespace sb
