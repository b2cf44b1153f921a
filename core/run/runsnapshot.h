#pragma once

#include <QJsonObject>

namespace sb {

struct PreparedRun;
struct RunPlan;

// The frozen configuration stored with every run, built in one place for both front ends:
//   the plan (SUT manifest, dataset spec, load profile, request parameters; no secrets),
//   "connection"   how the SUT was reached (proxy route, CA file),
//   "dataset_info" the dataset's identity (content hash, counts, length statistics),
//   "command"      a `servebench-cli run …` line that issues this very run again,
//   "execution"    the HTTP client and the front end that drove the run,
//   "tokenizer"    the model's tokenizer when one was given (path, describe(), sha256),
//   "tool_version", and for a shard the "shard" block with its start.
// `plan` is the plan of this run (a sweep's point has its own rate); startMonoNs is when its
// schedule starts (the shard block records it).
QJsonObject buildRunSnapshot(const PreparedRun &prepared, const RunPlan &plan, qint64 startMonoNs);

} // namespace sb
