#pragma once

#include <QString>
#include <QStringView>

namespace sb {

// How many columns a text takes in a terminal or a monospace font, for text the core lays out
// in columns by padding with spaces (the cost breakdown, `servebench-cli bills list`): a Chinese
// character or a fullwidth punctuation mark is two columns wide on screen, a combining mark none,
// so counting QChars would leave a Chinese label's value column to the right of an English one's.
//
// Widths follow Unicode's East Asian Width property (UAX #11) as terminals do (wcwidth()):
// W (wide) and F (fullwidth) code points take 2, nonspacing and enclosing marks, format
// characters (zero-width space and joiners) and conjoining Hangul vowels and finals 0, control
// characters 0, everything else 1. Ambiguous (A) characters count 1: the project's texts use
// "–", "×" and "·" beside Latin text, and the Chinese terminals and fonts it targets draw them
// narrow.
int displayWidth(char32_t codePoint);
int displayWidth(QStringView text);

// `text` followed by spaces to `width` columns (nothing added when it is already as wide).
QString padToWidth(const QString &text, int width, QChar fill = u' ');
// Spaces, then `text`, to `width` columns: for right-aligned numbers.
QString padLeftToWidth(const QString &text, int width, QChar fill = u' ');
// The longest start of `text` that fits in `width` columns (a wide character that would straddle
// the limit is left out whole; the marks after the last character kept stay with it).
QString truncateToWidth(const QString &text, int width);

} // namespace sb
