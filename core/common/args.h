#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace sb {

// A small argument parser in the style of Python's argparse, because vLLM's flags need it:
// `--goodput ttft:200 tpot:50` takes several values, `--opt=value` and `--opt value` both work,
// and flags we accept only for compatibility must be recognised, not rejected.
struct OptionSpec
{
    QString name; // without the leading dashes
    enum Kind { Flag, Value, MultiValue, Repeated } kind = Value;
    QString help;
    QString note; // compatibility flags: printed once when used, value ignored
};

class Args
{
public:
    explicit Args(QList<OptionSpec> specs);
    // Returns false with a one-line error naming the flag.
    bool parse(const QStringList &argv, QString *error);

    bool has(const QString &name) const { return m_values.contains(name); }
    QString value(const QString &name, const QString &fallback = {}) const;
    QStringList values(const QString &name) const { return m_values.value(name); }
    QStringList notes() const { return m_notes; }
    QStringList positional() const { return m_positional; }
    QString helpText() const;

    // Typed accessors; on a bad value they set *error naming the flag and return fallback.
    int intValue(const QString &name, int fallback, QString *error) const;
    double doubleValue(const QString &name, double fallback, QString *error) const;

private:
    const OptionSpec *find(const QString &name) const;
    QList<OptionSpec> m_specs;
    QHash<QString, QStringList> m_values;
    QStringList m_notes;
    QStringList m_positional;
};

// A --header value, NAME:VALUE or NAME=VALUE, split at the first separator (a value may contain
// either character).
bool parseHeaderArg(const QString &text, QPair<QString, QString> *out);

} // namespace sb
