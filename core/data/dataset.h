#pragma once

#include "lengthstats.h"
#include "sessiondataset.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace sb {

struct DatasetSpec;
enum class DatasetKind;
class Tokenizer;

// One request's worth of input.
struct PromptItem
{
    QString prompt;      // for chat messages: their contents joined by blank lines (for display)
    QJsonArray messages; // empty unless the dataset gave chat messages; chat requests send these
    // TokenCounter::count() of the prompt (synthetic: the drawn target length, which with a
    // tokenizer is the prompt's exact count)
    qint32 inputTokens = 0;
    qint32 outputTokens = 0; // requested max tokens
    qint32 sourceIndex = 0;  // ShareGPT: 0-based item index; JSONL: 1-based line; synthetic: i
    // A Mooncake trace row: the prompt is built from these when it is sent (mooncakePrompt()),
    // so a long trace's prompts are never all in memory at once.
    QList<qint64> hashIds;
    qint32 hashBlockTokens = 0;
    // Images sent with the prompt (docs/datasets.md, "Images in prompts"): data URLs
    // ("data:image/png;base64,…"), made when the dataset is loaded so no image is drawn or
    // encoded on the dispatch path, and the bytes of the image files they hold (decoded).
    QList<QByteArray> images;
    qint64 imageBytes = 0;
};

// What was loaded and how; stored with every run. sha256 is the dataset's identity: two loads
// with the same hash produce the same request list.
struct DatasetInfo
{
    DatasetKind kind{};
    QString path;         // as given; not part of the hash (the same file may live anywhere)
    QString versionLabel; // the user's label; not part of the hash
    QString sha256;       // sha256 over the source bytes' sha256 and `parameters`
    QString sourceSha256; // of the file bytes alone; empty for synthetic data
    qint64 sourceBytes = 0;
    QJsonObject parameters; // the canonical sampling parameters that went into sha256
    qint64 sourceItems = 0; // ShareGPT conversations / non-blank JSONL lines / 0 for synthetic
    qint64 itemCount = 0;   // usable items after filtering (synthetic: the number generated)
    qint64 skipped = 0;
    QMap<QString, qint64> skipReasons; // reason key -> count, see loadDataset()
    qint64 sampled = 0;                // requests in the list
    qint64 oversampled = 0;            // of them, repeats drawn with replacement
    qint64 replacedSurrogates = 0;     // lone \uD800-\uDFFF escapes turned into U+FFFD
    QString tokenCounter;          // TokenCounter::name(): kApproxTokenCounterName | "tokenizer"
    bool approximateTokens = true; // counts are local estimates, not the model's tokenizer
    // With a tokenizer: Tokenizer::describe() and sha256; for synthetic prompts the words of the
    // list that are one token each (SyntheticVocabulary) and the prompts whose whole count had
    // to be fitted to their length by adding or removing words (0 when every word counts one).
    QString tokenizer;
    QString tokenizerSha256;
    int syntheticWords = 0;
    qint64 fittedPrompts = 0;
    LengthStats inputStats; // over the sampled request list
    LengthStats outputStats;
    // Multi-turn datasets: the sessions sampled and their user turns; inputStats and
    // outputStats are then per turn (the new user message, the requested output).
    bool sessions = false;
    qint64 turns = 0;
    // A Mooncake trace: the prefix reuse its hash ids imply (mooncakePrefixReuse()).
    QJsonObject traceReuse;
    // A custom dataset's image files (docs/datasets.md, "Images in prompts"): sha256 over each
    // sent file's sha256, in request-list order; empty without image files. Part of sha256.
    QString imageFilesSha256;

    QJsonObject toJson() const;
};

struct LoadedDataset
{
    QList<PromptItem> items;     // single-request datasets
    QList<SessionItem> sessions; // multi-turn datasets (DatasetSpec::multiTurn)
    DatasetInfo info;
};

// Filter constants of vLLM's ShareGPT sampling (benchmarks: sample_sharegpt_requests /
// is_valid_sequence), applied to TokenCounter::count(): the model's tokenizer when one is given,
// as vLLM counts (special tokens included), else approximate counts.
inline constexpr int kShareGptMinLen = 4;
inline constexpr int kShareGptMaxPromptLen = 1024;
inline constexpr int kShareGptMaxTotalLen = 2048;
// Output length of a custom JSONL line without output_tokens (vLLM's --custom-output-len).
inline constexpr int kCustomDefaultOutputLen = 256;

// Loads, filters and samples a dataset into a request list of numPrompts items.
//
// ShareGPT: a conversation needs two turns ("fewer_than_two_turns" otherwise); the prompt is the
// first human turn and the reply must be the turn right after it, from the assistant
// ("no_assistant_reply"). The output length is the reply's token count, or sharegptOutputLen
// when > 0. Skipped like vLLM: prompt or output below 4 tokens ("prompt_too_short",
// "output_too_short"; the output check is off with a fixed length), and, without a fixed output
// length, prompt above 1024 ("prompt_too_long") or prompt + output above 2048 tokens
// ("total_too_long"). vLLM takes turns 0 and 1 whatever their roles; here roles are checked.
//
// Custom JSONL: see CustomJsonlReader. Output length: sharegptOutputLen when > 0 (a fixed length
// wins, as in vLLM), else the line's output_tokens, else kCustomDefaultOutputLen. No filtering.
//
// Random: see the DatasetSpec fields. Each prompt is randomPrefixLen shared words followed by
// its own drawn input length of words; inputTokens is their sum.
//
// Sampling: the usable items, in file order, are shuffled with SeededRng(seed) and the first
// numPrompts taken (numPrompts <= 0: all of them, shuffled). Asking for more than there are is an
// error unless spec.withReplacement: then, like vLLM's default oversampling, every item is taken
// once and the rest drawn uniformly with replacement (info.oversampled counts them). ServeBench
// makes this opt-in because repeated prompts hit the server's prefix cache and flatter it.
//
// Multi-turn (spec.multiTurn): the sessions of loadSessions(), numPrompts of them; items stays
// empty.
//
// Token counts (docs/tokenizers.md): with a tokenizer, ShareGPT and custom lengths are its
// counts (TokenCounter::count) and every synthetic prompt holds exactly its drawn length of
// tokens under it (no special tokens; SyntheticVocabulary), spec.tokensPerWord then unused;
// without one, approximate counts and words scaled by spec.tokensPerWord.
//
// Returns false with *error (naming the file and line / item index and field) and leaves *out
// untouched on any failure: nothing runs half-loaded.
bool loadDataset(const DatasetSpec &spec, int numPrompts, quint64 seed, LoadedDataset *out,
                 QString *error, const Tokenizer *tokenizer = nullptr);

// The canonical sampling parameters that, with the source bytes, identify a request list. A
// tokenizer changes the counts (and so the filtering and the synthetic prompts): its sha256 is
// then part of them.
QJsonObject canonicalDatasetParameters(const DatasetSpec &spec, int numPrompts, quint64 seed,
                                       const Tokenizer *tokenizer = nullptr);
// sha256 identity from a source file hash (empty for synthetic data) and the parameters above.
QString datasetIdentityHash(const QString &sourceSha256, const QJsonObject &parameters);

} // namespace sb
