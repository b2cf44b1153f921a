#pragma once

#include <QStringView>

namespace sb {

// The name stored with every count made by approxTokenCount(), so a result says which rule
// produced its numbers. Bump the suffix whenever the rule changes.
inline constexpr char kApproxTokenCounterName[] = "sb-approx-v1";

// A local, model-free estimate of a token count; the model's tokenizer is not available to the
// client. The rule, chosen to land near BPE tokenizers (Llama 3, GPT-4o) on English and Chinese:
//   - whitespace separates and costs nothing;
//   - a run of letters and digits is one "word"; it costs ceil(w / 6) tokens, where w adds 1 per
//     Latin letter (below U+0250), 2 per digit (tokenizers split numbers into groups of about 3)
//     and 2 per letter of any other alphabetic script; combining marks add nothing;
//   - each CJK ideograph, kana or Hangul syllable costs 1 token;
//   - each other visible character (punctuation, symbol, emoji) costs 1 token.
// So a lowercase English word of up to 6 letters counts exactly 1, "2024" counts 2 and "你好"
// counts 2. Real tokenizers differ per model by roughly ±30%; the lead calibrates against a
// server's /tokenize and rescales synthetic prompts (see wordsForTokens()).
int approxTokenCount(QStringView text);

} // namespace sb
