#pragma once

#include "common/message.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

// What kind of setting a compared field is (docs/design.md, comparison and acceptance).
enum class FieldRole {
    Workload,    // must match for a fair comparison: model, dataset, load, request parameters...
    Sut,         // what is being compared: endpoint, engine, GPUs... — never a blocker
    Measurement, // how it was measured: tool version, metric definitions, transport
};
const char *fieldRoleName(FieldRole r); // "workload" | "sut" | "measurement"

// One compared setting across the runs.
struct FieldComparison
{
    QString key;          // stable: "model", "dataset_hash", "scenario", "request_rate", ...
    QString label;        // "dataset hash"
    Message labelMessage; // the label with its identifier ("cmp.field.<key>"), for display
    FieldRole role = FieldRole::Workload;
    bool blocker = false;         // a difference here forbids ranking (scenario, dataset)
    QStringList values;           // per run, display text; "unknown" where the run cannot tell
    QList<Message> valueMessages; // the same values as messages (values = their English text)
    QList<bool> known;            // per run
    bool differs = false;         // two known values differ
    bool unknown = false;         // some run cannot tell (imported run)
};

// The comparability of two or more runs, from their snapshots (RunPlan::toJson plus the run's
// "dataset_info", "tool_version", "imported", "unknown_fields").
struct Comparability
{
    QStringList runLabels;
    QList<FieldComparison> fields; // every compared field, in report order

    QList<FieldComparison> differences() const; // fields with differs, any role
    QList<FieldComparison> workloadDifferences() const;
    QList<FieldComparison> sutDifferences() const;
    QList<FieldComparison> measurementDifferences() const;
    QList<FieldComparison> unknowns() const;

    // Variables: each differing workload field counts as one; the SUT counts as one variable
    // however many of its fields differ (it is the thing compared).
    int variableCount() const;
    // The single variable when exactly one differs ("SUT (engine, GPU model)", "request rate"),
    // empty otherwise.
    QString singleVariable() const;
    Message singleVariableMessage() const;
    // Ranking is refused across scenarios or datasets; refusals say why.
    bool rankable() const { return refusals.isEmpty() && refusalMessages.isEmpty(); }
    // No workload field differs and none is unknown: the runs measure the same workload.
    bool comparable() const { return workloadDifferences().isEmpty() && unknowns().isEmpty(); }

    QStringList refusals; // why ranking is refused
    QStringList warnings; // confounded variables, unknowns, measurement differences
    // The same texts as messages, for a reader in another language (refusals = their text()).
    QList<Message> refusalMessages;
    QList<Message> warningMessages;

    // One sentence: "Comparable: only the SUT differs (engine, GPU model)." / "Not rankable: ..."
    QString verdict() const;
    Message verdictMessage() const;
    // English unless `translate`: then in the installed language (the CLI under a Chinese locale).
    QString formatText(bool translate = false) const;
    QJsonObject toJson() const;
};

// Compares the snapshots; labels name the runs in the messages.
Comparability checkComparability(const QList<QJsonObject> &snapshots, const QStringList &labels);

} // namespace sb
