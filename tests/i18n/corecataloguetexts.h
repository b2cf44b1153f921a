#pragma once

// Finds core catalogue texts in what a view shows: each English template of sb::Message's
// catalogue becomes a pattern (%n -> any text); a shown text that is such a template, or that
// holds a long English piece of one, is a core text in English. Templates that stay the same in
// Chinese (metric names, "%1 req/s", "SUT") are left out: seeing them proves nothing.

#include "common/message.h"

#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QTranslator>

namespace cataloguetexts {

using namespace Qt::StringLiterals;

struct Template
{
    QByteArray id;
    QString english;
    QRegularExpression whole; // the template, anchored, placeholders as any text
    QStringList longPieces;   // literal pieces of 3+ words and 20+ characters
};

inline QStringList literalPieces(const QString &t)
{
    return t.split(QRegularExpression(u"%[1-9]"_s), Qt::SkipEmptyParts);
}

// The templates worth looking for: translated differently in `zh` (every entry that shares
// the English wording), with an English word of 3 letters or more.
inline QList<Template> templates(const QTranslator &zh)
{
    QHash<QString, QList<QByteArray>> byEnglish;
    QSet<QString> sameInChinese;
    for (const auto &[id, text] : sb::Message::catalogue()) {
        const QString english = QString::fromUtf8(text);
        byEnglish[english].append(QByteArray(id));
        const QString translated = zh.translate(sb::Message::kContext, text, id);
        if (translated.isEmpty() || translated == english)
            sameInChinese.insert(english);
    }
    static const QRegularExpression word(u"[A-Za-z]{3,}"_s);
    QList<Template> out;
    for (auto it = byEnglish.cbegin(); it != byEnglish.cend(); ++it) {
        const QString &english = it.key();
        if (sameInChinese.contains(english) || !word.match(english).hasMatch())
            continue;
        Template t;
        t.id = it.value().constFirst();
        t.english = english;
        QString re = u"^"_s;
        QString literal;
        for (qsizetype i = 0; i < english.size(); ++i) {
            if (english.at(i) == u'%' && i + 1 < english.size() && english.at(i + 1).isDigit() &&
                english.at(i + 1) != u'0') {
                re += QRegularExpression::escape(literal) + u"(.+?)"_s;
                literal.clear();
                ++i;
                continue;
            }
            literal += english.at(i);
        }
        re += QRegularExpression::escape(literal) + u"$"_s;
        t.whole = QRegularExpression(re, QRegularExpression::DotMatchesEverythingOption);
        for (const QString &piece : literalPieces(english)) {
            const QString p = piece.trimmed();
            if (p.size() >= 20 && p.count(u' ') >= 2)
                t.longPieces << p;
        }
        out.append(t);
    }
    return out;
}

struct Hit
{
    QByteArray id;
    QString text;
};

// Every shown text (and each of its lines) that is an English catalogue text or holds a long
// piece of one.
inline QList<Hit> find(const QList<Template> &ts, const QStringList &shown)
{
    QList<Hit> hits;
    // Each text, each of its lines, and the parts of a laid-out line: without its rule of '='
    // or '-' ("==== Cost breakdown ===="), the columns of a padded table, both sides of a
    // "label: value" line, a bullet's text.
    static const QRegularExpression rule(u"^[=\\-\\s]+|[=\\-\\s]+$"_s);
    static const QRegularExpression columns(u"\\s{2,}"_s);
    QStringList candidates;
    for (const QString &s : shown) {
        candidates << s.trimmed();
        for (const QString &rawLine : s.split(u'\n', Qt::SkipEmptyParts)) {
            const QString line = rawLine.trimmed();
            candidates << line;
            QString bare = line;
            bare.remove(rule);
            candidates << bare;
            for (const QString &part : bare.split(columns, Qt::SkipEmptyParts)) {
                candidates << part.trimmed();
                const qsizetype colon = part.indexOf(u": "_s);
                if (colon > 0) {
                    candidates << part.left(colon).trimmed() << part.mid(colon + 2).trimmed();
                } else if (part.endsWith(u':')) {
                    candidates << part.chopped(1).trimmed();
                }
            }
        }
    }
    candidates.removeDuplicates();
    for (const QString &c : std::as_const(candidates)) {
        if (c.isEmpty())
            continue;
        for (const Template &t : ts) {
            bool hit = t.whole.match(c).hasMatch();
            for (const QString &p : t.longPieces)
                hit = hit || c.contains(p);
            if (hit)
                hits.append({t.id, c});
        }
    }
    return hits;
}

} // namespace cataloguetexts
