#pragma once

#include <QString>
#include <QStringView>

#include <memory>
#include <string_view>
#include <vector>

namespace sb {

namespace tok {
struct TokenizerData;
class TokenizerLoader;
} // namespace tok

// A model's own tokenizer, read from local files and reproducing the reference encoding
// exactly (docs/tokenizers.md says what is supported, how it is verified and what is refused):
//   - a Hugging Face tokenizer.json with a BPE model: byte-level (GPT-2, Llama 3, Qwen 2/3) or
//     SentencePiece-style with byte fallback (Llama 2, Mistral, Gemma), with their normalizers,
//     pre-tokenizers, decoders and added tokens, plus tokenizer_config.json beside it when
//     present (extra added tokens, bos/eos, add_bos_token);
//   - a tiktoken rank file named after its encoding (cl100k_base.tiktoken, o200k_base.tiktoken).
// A component it does not implement makes load() fail with the component's name: it never
// approximates. A loaded Tokenizer is immutable; encode, count and decode are const and may be
// called from any number of threads at once.
class Tokenizer
{
public:
    // path: a tokenizer.json, a folder holding one, or a *.tiktoken file. On failure returns
    // null and sets *error to one line naming the file and the field.
    static std::unique_ptr<Tokenizer> load(const QString &path, QString *error);
    ~Tokenizer();
    Tokenizer(const Tokenizer &) = delete;
    Tokenizer &operator=(const Tokenizer &) = delete;

    // Token ids of the text. Added and special tokens written in the text are always matched
    // (as the reference implementations do by default). addSpecialTokens: also apply the file's
    // post-processor (e.g. Llama 2's leading <s>); tiktoken encodings have none.
    std::vector<qint32> encode(QStringView text, bool addSpecialTokens = false) const;
    // The same for UTF-8 input; invalid UTF-8 is first decoded with U+FFFD replacements.
    std::vector<qint32> encodeUtf8(std::string_view utf8, bool addSpecialTokens = false) const;
    qsizetype count(QStringView text, bool addSpecialTokens = false) const;
    qsizetype countUtf8(std::string_view utf8, bool addSpecialTokens = false) const;

    // The text of the ids through the file's decoder. Unknown ids are skipped.
    QString decode(const std::vector<qint32> &ids, bool skipSpecialTokens = false) const;

    // The id of a token written as in the vocabulary (e.g. "Ġthe", "▁the", "<|im_end|>"), or
    // -1. For tiktoken encodings tokens are written in the same byte-to-unicode alphabet.
    qint32 tokenId(const QString &token) const;
    // The token as written in the vocabulary; empty for an unused id.
    QString tokenText(qint32 id) const;
    // Highest id + 1 (vocabulary and added tokens).
    qint32 vocabSize() const;
    bool isSpecial(qint32 id) const;

    // From tokenizer_config.json (-1 / false when absent).
    qint32 bosTokenId() const;
    qint32 eosTokenId() const;
    bool addBosToken() const;

    // One line identifying the tokenizer: model type, normalizer, pre-tokenizer, vocabulary
    // size and the sha256 of the file, e.g. "BPE byte-level; normalizer NFC; pre-tokenizer
    // Split(qwen2-regex)+ByteLevel; decoder ByteLevel; vocab 151669; tokenizer.json sha256 …".
    QString describe() const;
    QString sha256() const; // of tokenizer.json or the .tiktoken file (hex)
    QString path() const;   // the file that was read

private:
    Tokenizer();
    void encodeInto(std::string_view utf8, bool addSpecialTokens, std::vector<qint32> *out) const;

    std::unique_ptr<tok::TokenizerData> d;
    friend class tok::TokenizerLoader;
};

} // namespace sb
