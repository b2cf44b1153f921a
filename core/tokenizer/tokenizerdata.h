#pragma once

#include "tokenizer/addedtokenmatcher.h"
#include "tokenizer/bpemodel.h"
#include "tokenizer/bytehash.h"
#include "tokenizer/normalizer.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokendecoder.h"

#include <QString>

#include <string>
#include <vector>

namespace sb::tok {

// Everything a loaded Tokenizer holds; filled by TokenizerLoader, read-only afterwards.
struct TokenizerData
{
    BpeModel model;
    Normalizer normalizer;
    PreTokenizer preTokenizer;
    TokenDecoder decoder;
    bool byteLevel = false;
    AddedTokenMatcher rawAdded;        // matched in the input before normalization
    AddedTokenMatcher normalizedAdded; // matched in the normalized text
    ByteStringMap addedByContent;

    std::vector<std::string> tokenText; // per id, as written in the file (UTF-8)
    std::vector<bool> isAdded;
    std::vector<bool> isSpecial;
    std::vector<qint32> prefixIds; // post-processor, single sequence
    std::vector<qint32> suffixIds;

    qint32 bosId = -1;
    qint32 eosId = -1;
    bool addBos = false;

    QString path;
    QString sha256;
    QString identity; // describe() without the hash
};

} // namespace sb::tok
