// The commands README.md, README.zh_CN.md and docs/*.md print, run as printed. Beside tst_cli's
// docsNameOnlyFlagsTheirCommandHas (a flag a doc names exists) and
// readmeQuickStartIsWhatRunPrints, this is the third check of what the docs say of the command
// line: every `servebench-cli …` line of a ```console / ```sh / ```bash / ```shell block runs
// (against the built-in simulator where the doc names a remote host) and exits 0, and the output
// lines a console block shows after a `$` command are what the command prints, in order.
//
// How a doc is run. Its commands run in order in one temporary directory of its own (so `run …
// --project p.sbproj` then `show --project p.sbproj` works); the docs run at the same time, each
// in its own thread. A command runs as printed, with these substitutions only:
//  - the program: `servebench-cli`, `./build/release/app/servebench-cli` → the one built here
//    (its folder first in PATH, for the commands a doc's command starts itself);
//  - a remote endpoint (`--base-url` or `--host` other than 127.0.0.1/localhost, e.g.
//    http://gpu-box:8000) → a `servebench-cli simulate --port 0` the test starts for the doc
//    (its defaults are the built-in simulator's: TTFT 50 ms, 10 ms per token);
//  - a `servebench-cli simulate --port P &` the doc starts → `--port 0` (P may be taken on a
//    shared machine), and the doc's later loopback URLs with port P → the port it printed;
//  - `--num-prompts` above 30 → 30, `--duration` above 3 → 3 (s), so a doc runs in seconds;
//  - `--start-at` in the past → 3 s from now (docs/distributed.md prints an example epoch);
//  - `--shard I/N` with the placeholder I (docs/distributed.md: "on each agent I = 0..N-1") →
//    N agents started together, I replaced by 0..N-1 in every argument;
//  - paths: `/tmp/…` → the doc's directory (and back in the output); an argument naming a file of
//    the source tree (`resources/examples/…`) → that file; a `--dataset-path` that neither has →
//    the tree's sample for its `--dataset-name` (`resources/datasets/`);
//  - `CMD &` is a background job and `kill %N` stops job N, as in a shell; other shell lines
//    (`export`, `cd`, `sha256sum`) are not run. English output (LC_ALL=C.UTF-8), no
//    OPENAI_API_KEY.
// The output a console block shows is compared with what the command printed (stdout and stderr
// as a terminal interleaves them): numbers and sha256 digests masked, whitespace collapsed, blank
// lines ignored. A line that is only `…` (or `...`) stands for any number of lines; the lines
// between two such lines are consecutive in the output; a `…` inside a line matches any text.
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <map>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

QString sourceRoot()
{
    return QDir::cleanPath(QStringLiteral(SB_SOURCE_DIR));
}

// Commands that cannot run here, by file, line and the command's start, each with why. None
// today: with the substitutions above every command the docs print runs on this machine. An
// entry that names no such command fails the test, so the list cannot go stale.
struct Skip
{
    QString file;
    int line;
    QString command;
    QString reason;
};
const QList<Skip> kSkips = {};

const int kMaxPrompts = 30;   // the README quick start's own 30 runs unchanged
const double kMaxSeconds = 3; // --duration
const int kCommandTimeoutMs = 240000;

struct Expected
{
    int line = 0;
    QString text;
};

struct Command
{
    enum Kind { Cli, Kill };
    Kind kind = Cli;
    QString file;
    int line = 0;
    QString text;      // as the doc prints it, continuation lines joined
    QStringList words; // after the program, shell quoting removed
    bool background = false;
    int job = 0; // kill %job
    QList<Expected> expected;
};

// A shell line's words: quotes and backslashes removed, cut at a comment or at the first
// operator (`&&`, `|`, `;`, `>`); a trailing `&` makes it a background job.
QStringList shellWords(const QString &line, bool *background)
{
    QStringList words;
    QString cur;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                cur += c;
            continue;
        }
        if (c == u'\'' || c == u'"') {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << cur;
            cur.clear();
            inWord = false;
        } else if (c == u'#' && !inWord) {
            break;
        } else if (c == u'\\' && i + 1 < line.size()) {
            cur += line.at(++i);
            inWord = true;
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (inWord)
        words << cur;
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString &w = words.at(i);
        if (w == u"&&"_s || w == u"||"_s || w == u";"_s || w == u"|"_s || w.startsWith(u'>')) {
            words = words.mid(0, i);
            break;
        }
    }
    *background = !words.isEmpty() && words.last() == u"&"_s;
    if (*background)
        words.removeLast();
    return words;
}

// Every servebench-cli command (and `kill %N`) of a doc's shell blocks, in order, with the
// output lines a console block shows after it.
QList<Command> extractCommands(const QString &file, const QString &text)
{
    static const QStringList shells = {u"console"_s, u"sh"_s, u"bash"_s, u"shell"_s};
    QList<Command> commands;
    const QStringList lines = text.split(u'\n');
    bool inBlock = false;
    bool shell = false;
    bool console = false;
    qsizetype last = -1; // the console command that output lines belong to
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString &l = lines.at(i);
        if (l.trimmed().startsWith(u"```"_s)) {
            inBlock = !inBlock;
            const QString lang = l.trimmed().mid(3).trimmed().toLower();
            shell = inBlock && shells.contains(lang);
            console = lang == u"console"_s;
            last = -1;
            continue;
        }
        if (!shell)
            continue;
        QString command = l;
        if (console) {
            if (!l.startsWith(u"$ "_s)) {
                if (last >= 0)
                    commands[last].expected << Expected{int(i) + 1, l};
                continue;
            }
            command = l.mid(2);
        }
        const int first = int(i) + 1;
        while (command.endsWith(u'\\') && i + 1 < lines.size()) {
            command.chop(1);
            command += u' ' + lines.at(++i).trimmed();
        }
        last = -1;
        Command c;
        c.file = file;
        c.line = first;
        c.text = command.simplified();
        QStringList words = shellWords(command, &c.background);
        if (words.size() == 2 && words.first() == u"kill"_s && words.at(1).startsWith(u'%')) {
            c.kind = Command::Kill;
            c.job = words.at(1).mid(1).toInt();
            commands << c;
            continue;
        }
        if (words.isEmpty() || QFileInfo(words.first()).fileName() != u"servebench-cli"_s)
            continue;
        c.words = words.mid(1);
        commands << c;
        last = commands.size() - 1;
    }
    return commands;
}

// A printed or shown line as it is compared: digests and numbers masked, whitespace collapsed.
QString shape(QString l)
{
    static const QRegularExpression digest(u"\\b[0-9a-f]{64}\\b"_s);
    static const QRegularExpression number(u"\\d+(\\.\\d+)?"_s);
    l.replace(digest, u"#"_s);
    l.replace(number, u"#"_s);
    return l.simplified();
}

bool isElision(const QString &l)
{
    const QString t = l.trimmed();
    return t == u"…"_s || t == u"..."_s;
}

// A shown line as a pattern: its `…` / `...` match any text.
QRegularExpression pattern(const QString &shown)
{
    static const QRegularExpression wild(u"…|\\.\\.\\."_s);
    QStringList parts;
    for (const QString &p : shape(shown).split(wild))
        parts << QRegularExpression::escape(p);
    return QRegularExpression(QRegularExpression::anchoredPattern(parts.join(u".*"_s)));
}

// The first shown line the output does not have, with the printed lines where it should be;
// empty when every shown line is there.
QString compareOutput(const QList<Expected> &shown, const QStringList &printedLines, int *compared)
{
    QStringList raw;
    QStringList printed;
    for (const QString &l : printedLines)
        if (!l.trimmed().isEmpty()) {
            raw << l;
            printed << shape(l);
        }
    QList<QList<Expected>> segments{{}};
    for (const Expected &e : shown) {
        if (isElision(e.text))
            segments.append(QList<Expected>());
        else if (!e.text.trimmed().isEmpty())
            segments.last().append(e);
    }
    qsizetype from = 0;
    for (const QList<Expected> &seg : std::as_const(segments)) {
        if (seg.isEmpty())
            continue;
        QList<QRegularExpression> patterns;
        for (const Expected &e : seg)
            patterns << pattern(e.text);
        qsizetype bestAt = from;
        qsizetype bestLen = 0;
        for (qsizetype at = from; at < printed.size(); ++at) {
            qsizetype n = 0;
            while (n < seg.size() && at + n < printed.size() &&
                   patterns.at(n).match(printed.at(at + n)).hasMatch())
                ++n;
            if (n > bestLen) {
                bestLen = n;
                bestAt = at;
            }
            if (n == seg.size())
                break;
        }
        if (bestLen == seg.size()) {
            from = bestAt + seg.size();
            *compared += int(seg.size());
            continue;
        }
        // Where the line should be: after the part of its run of lines that matched, or (none
        // did) after what matched before.
        const qsizetype at = bestLen > 0 ? bestAt + bestLen : from;
        const Expected &missing = seg.at(bestLen);
        QString context;
        for (qsizetype i = qMax<qsizetype>(0, at - 6); i < qMin(raw.size(), at + 6); ++i)
            context += (i == at ? u"  > "_s : u"    "_s) + raw.at(i) + u'\n';
        if (at >= raw.size())
            context += u"  > (the output ends)\n"_s;
        return u"line %1 shows\n      %2\n  (compared as: %3)\n  and the output has no such line "
               "%4; printed there (>):\n%5"_s.arg(missing.line)
                   .arg(missing.text.trimmed(), shape(missing.text),
                        bestLen > 0 ? u"after the line before it"_s
                                    : (from > 0 ? u"after the lines matched before"_s : QString()),
                        context);
    }
    return QString();
}

QString tail(const QString &text, int lines = 40)
{
    QStringList l = text.split(u'\n');
    if (l.size() > lines)
        l = QStringList{u"[…]"_s} + l.mid(l.size() - lines);
    return u"    "_s + l.join(u"\n    "_s);
}

// One doc's commands, in order, in one directory; runs in its own thread.
class DocRunner
{
public:
    DocRunner(QList<Command> commands, QString dir)
        : m_commands(std::move(commands)), m_dir(std::move(dir))
    {
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
        m_env.insert(u"LANG"_s, u"C.UTF-8"_s);
        m_env.remove(u"LANGUAGE"_s);
        m_env.remove(u"OPENAI_API_KEY"_s);
        m_env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s); // report --pdf renders off-screen
        // A command the doc's command starts itself (a managed server's start command,
        // docs/managed-servers.md) finds the servebench-cli built here first too.
        m_env.insert(u"PATH"_s, QFileInfo(QString::fromUtf8(SB_CLI)).absolutePath() + u':' +
                                    m_env.value(u"PATH"_s));
    }

    void run()
    {
        QElapsedTimer t;
        t.start();
        for (const Command &c : std::as_const(m_commands)) {
            if (skipped(c))
                continue;
            if (c.kind == Command::Kill)
                kill(c);
            else
                runCommand(c);
        }
        for (auto &[job, p] : m_jobs)
            stop(p.get());
        m_jobs.clear();
        if (m_remote)
            stop(m_remote.get());
        m_remote.reset();
        seconds = t.elapsed() / 1000.0;
    }

    QStringList problems;
    QStringList skips; // "file:line" of the skip list entries used
    int ran = 0;
    int compared = 0;
    double seconds = 0;

private:
    bool skipped(const Command &c)
    {
        for (const Skip &s : kSkips)
            if (s.file == c.file && s.line == c.line && c.text.contains(s.command)) {
                skips << u"%1:%2"_s.arg(s.file).arg(s.line);
                return true;
            }
        return false;
    }

    QString where(const Command &c) const
    {
        return u"%1:%2: `%3`"_s.arg(c.file).arg(c.line).arg(c.text);
    }

    void kill(const Command &c)
    {
        const auto it = m_jobs.find(c.job);
        if (it == m_jobs.end()) {
            problems << where(c) + u": no background job %"_s + QString::number(c.job);
            return;
        }
        stop(it->second.get());
        m_jobs.erase(it);
    }

    static void stop(QProcess *p)
    {
        p->terminate();
        if (!p->waitForFinished(5000)) {
            p->kill();
            p->waitForFinished();
        }
    }

    // Starts `servebench-cli simulate ARGS` in the background; its output goes to a file, and
    // the URL it prints is returned (empty: it did not start, with the reason in problems).
    QString startSimulator(std::unique_ptr<QProcess> &p, const QStringList &args,
                           const QString &what)
    {
        const QString log = QDir(m_dir).filePath(u"simulate-%1.log"_s.arg(++m_logs));
        p = std::make_unique<QProcess>();
        p->setWorkingDirectory(m_dir);
        p->setProcessEnvironment(m_env);
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->setStandardOutputFile(log);
        p->start(QStringLiteral(SB_CLI), args);
        static const QRegularExpression url(u"http://[0-9.]+:(\\d+)"_s);
        for (int i = 0; i < 200; ++i) {
            QFile f(log);
            const QString out =
                f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
            const QRegularExpressionMatch m = url.match(out);
            if (m.hasMatch())
                return u"http://127.0.0.1:"_s + m.captured(1);
            if (p->waitForFinished(50)) {
                problems << u"%1 exited %2 before it listened:\n%3"_s.arg(what)
                                .arg(p->exitCode())
                                .arg(tail(out));
                return QString();
            }
        }
        problems << what + u" printed no URL in 10 s"_s;
        return QString();
    }

    static qsizetype valueAt(const QStringList &w, const QString &flag)
    {
        const qsizetype i = w.indexOf(flag);
        return i >= 0 && i + 1 < w.size() ? i + 1 : -1;
    }

    // The substitutions the header lists; false (with a problem) when one cannot be made.
    bool substitute(const Command &c, QStringList &w)
    {
        const QDir src(sourceRoot());
        const QDir dir(m_dir);
        const bool simulate = !w.isEmpty() && w.first() == u"simulate"_s;
        for (QString &a : w) {
            if (a.startsWith(u"/tmp/"_s))
                a = dir.filePath(a.mid(5));
            else if (!a.startsWith(u'-') && a.contains(u'/') &&
                     !QFileInfo::exists(dir.filePath(a)) && QFileInfo::exists(src.filePath(a)))
                a = src.filePath(a);
        }
        for (qsizetype i = 0; i < w.size(); ++i)
            if (w.at(i).startsWith(u"--num-prompts="_s)) {
                const QString v = w.at(i).mid(14);
                w[i] = u"--num-prompts"_s;
                w.insert(i + 1, v);
            }
        if (const qsizetype i = valueAt(w, u"--num-prompts"_s);
            i >= 0 && w.at(i).toLongLong() > kMaxPrompts)
            w[i] = QString::number(kMaxPrompts);
        if (const qsizetype i = valueAt(w, u"--duration"_s);
            i >= 0 && !simulate && w.at(i).toDouble() > kMaxSeconds)
            w[i] = QString::number(kMaxSeconds);
        if (const qsizetype i = valueAt(w, u"--start-at"_s);
            i >= 0 && w.at(i).toLongLong() < QDateTime::currentMSecsSinceEpoch() + 1000)
            w[i] = QString::number(QDateTime::currentMSecsSinceEpoch() + 3000);
        if (const qsizetype i = valueAt(w, u"--dataset-path"_s);
            i >= 0 && !QFileInfo::exists(dir.filePath(w.at(i)))) {
            const qsizetype n = valueAt(w, u"--dataset-name"_s);
            const QString name = n >= 0 ? w.at(n) : QString();
            if (name == u"sharegpt"_s)
                w[i] = src.filePath(u"resources/datasets/sharegpt_sample.json"_s);
            else if (name == u"custom"_s)
                w[i] = src.filePath(u"resources/datasets/custom_sample.jsonl"_s);
        }
        if (simulate) {
            if (const qsizetype i = valueAt(w, u"--port"_s); i >= 0) {
                m_docPort = w.at(i).toInt();
                w[i] = u"0"_s;
            }
            return true;
        }
        const auto loopback = [](const QString &host) {
            return host == u"127.0.0.1"_s || host == u"localhost"_s || host == u"::1"_s;
        };
        if (const qsizetype i = valueAt(w, u"--base-url"_s); i >= 0) {
            QUrl u(w.at(i));
            if (!loopback(u.host())) {
                const QString remote = remoteUrl(c);
                if (remote.isEmpty())
                    return false;
                w[i] = remote + u.path();
            } else if (m_ports.contains(u.port())) {
                u.setPort(m_ports.value(u.port()));
                w[i] = u.toString();
            }
        }
        if (const qsizetype h = valueAt(w, u"--host"_s); h >= 0) {
            const qsizetype p = valueAt(w, u"--port"_s);
            if (!loopback(w.at(h))) {
                const QString remote = remoteUrl(c);
                if (remote.isEmpty())
                    return false;
                w[h] = u"127.0.0.1"_s;
                if (p >= 0)
                    w[p] = QString::number(QUrl(remote).port());
                else
                    w << u"--port"_s << QString::number(QUrl(remote).port());
            } else if (p >= 0 && m_ports.contains(w.at(p).toInt())) {
                w[p] = QString::number(m_ports.value(w.at(p).toInt()));
            }
        }
        return true;
    }

    // The simulator that stands for the doc's remote host, started on first use.
    QString remoteUrl(const Command &c)
    {
        if (m_remoteUrl.isEmpty())
            m_remoteUrl = startSimulator(m_remote, {u"simulate"_s, u"--port"_s, u"0"_s},
                                         where(c) + u": the simulator for its remote host"_s);
        return m_remoteUrl;
    }

    void runCommand(const Command &c)
    {
        QStringList words = c.words;
        if (!substitute(c, words))
            return;
        ++ran;
        if (c.background) {
            std::unique_ptr<QProcess> p;
            const QString url = startSimulator(p, words, where(c));
            if (url.isEmpty())
                return;
            if (words.first() == u"simulate"_s)
                m_ports.insert(m_docPort, QUrl(url).port());
            const int job = m_jobs.empty() ? 1 : m_jobs.rbegin()->first + 1;
            m_jobs.emplace(job, std::move(p));
            return;
        }
        // `--shard I/N`: the N agents, started together.
        QList<QStringList> agents{words};
        static const QRegularExpression placeholder(u"^I/(\\d+)$"_s);
        if (const qsizetype i = valueAt(words, u"--shard"_s); i >= 0) {
            const QRegularExpressionMatch m = placeholder.match(words.at(i));
            if (m.hasMatch()) {
                agents.clear();
                static const QRegularExpression letter(u"(?<![A-Za-z0-9])I(?![A-Za-z0-9])"_s);
                for (int a = 0; a < m.captured(1).toInt(); ++a) {
                    QStringList w = words;
                    w.replaceInStrings(letter, QString::number(a));
                    agents << w;
                }
            }
        }
        std::vector<std::unique_ptr<QProcess>> procs;
        for (const QStringList &w : std::as_const(agents)) {
            auto p = std::make_unique<QProcess>();
            p->setWorkingDirectory(m_dir);
            p->setProcessEnvironment(m_env);
            p->setProcessChannelMode(QProcess::MergedChannels); // as a terminal shows it
            p->start(QStringLiteral(SB_CLI), w);
            procs.push_back(std::move(p));
        }
        QString output;
        for (std::size_t a = 0; a < procs.size(); ++a) {
            QProcess &p = *procs.at(a);
            const bool done = p.waitForFinished(kCommandTimeoutMs);
            if (!done) {
                p.kill();
                p.waitForFinished();
            }
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            output += out;
            const QString as =
                agents.size() > 1 || agents.first() != c.words
                    ? u"\n  run as: servebench-cli "_s + agents.at(qsizetype(a)).join(u' ')
                    : QString();
            if (!done)
                problems << where(c) + u" timed out"_s + as + u"\n"_s + tail(out);
            else if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
                problems << u"%1 exited %2%3\n  output (stdout and stderr):\n%4"_s.arg(where(c))
                                .arg(p.exitStatus() == QProcess::NormalExit
                                         ? QString::number(p.exitCode())
                                         : u"by a crash"_s)
                                .arg(as, tail(out));
        }
        if (c.expected.isEmpty())
            return;
        // Back to the paths the doc prints.
        output.replace(QDir(m_dir).absolutePath() + u'/', u"/tmp/"_s);
        output.replace(sourceRoot() + u'/', QString());
        const QString diff = compareOutput(c.expected, output.split(u'\n'), &compared);
        if (!diff.isEmpty())
            problems << u"%1 prints differently from the doc: %2"_s.arg(where(c), diff);
    }

    const QList<Command> m_commands;
    const QString m_dir;
    QProcessEnvironment m_env;
    std::map<int, std::unique_ptr<QProcess>> m_jobs; // background jobs by their %N
    QHash<int, int> m_ports; // a port the doc's simulate names → its real one
    int m_docPort = 0;
    std::unique_ptr<QProcess> m_remote;
    QString m_remoteUrl;
    int m_logs = 0;
};

} // namespace

class TestDocsCommands : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QStringList m_files; // the docs with commands, README.md first
    QHash<QString, QList<Command>> m_commands;
    QHash<QString, std::shared_ptr<DocRunner>> m_runs;

private slots:
    // Reads the docs and runs every doc's commands, the docs side by side.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QDir root(sourceRoot());
        QStringList files{u"README.md"_s, u"README.zh_CN.md"_s};
        for (const QString &f : QDir(root.filePath(u"docs"_s)).entryList({u"*.md"_s}, QDir::Files))
            files << u"docs/"_s + f;
        for (const QString &f : std::as_const(files)) {
            QFile in(root.filePath(f));
            QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(f));
            const QList<Command> commands = extractCommands(f, QString::fromUtf8(in.readAll()));
            if (commands.isEmpty())
                continue;
            m_files << f;
            m_commands.insert(f, commands);
        }
        QElapsedTimer t;
        t.start();
        std::vector<std::unique_ptr<QThread>> threads;
        for (const QString &f : std::as_const(m_files)) {
            const QString dir = m_dir.filePath(QString(f).replace(u'/', u'_'));
            QVERIFY(QDir().mkpath(dir));
            auto runner = std::make_shared<DocRunner>(m_commands.value(f), dir);
            m_runs.insert(f, runner);
            threads.emplace_back(QThread::create([runner] { runner->run(); }));
            threads.back()->start();
        }
        for (auto &th : threads)
            th->wait();
        for (const QString &f : std::as_const(m_files))
            qInfo("%s: %d commands, %d shown output lines compared, %.1f s", qPrintable(f),
                  m_runs.value(f)->ran, m_runs.value(f)->compared, m_runs.value(f)->seconds);
        qInfo("all docs: %.1f s", t.elapsed() / 1000.0);
    }

    // The extraction finds what the docs print: the README's quick start with its output, the
    // study example, docs/distributed.md's agents and merge, docs/statistics.md's simulators.
    void extractionFindsTheDocsCommands()
    {
        const QList<Command> readme = m_commands.value(u"README.md"_s);
        QVERIFY2(readme.size() >= 6, qPrintable(QString::number(readme.size())));
        // The quick start's first line, found by its text (the README grows above it).
        const QStringList lines = [] {
            QFile f(QDir(sourceRoot()).filePath(u"README.md"_s));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(u'\n')
                                               : QStringList();
        }();
        const qsizetype quickStart = lines.indexOf(
            u"$ ./build/release/app/servebench-cli run --num-prompts 30 --random-input-len 16 \\"_s);
        QVERIFY(quickStart >= 0);
        QCOMPARE(readme.first().line, int(quickStart + 1));
        QVERIFY(readme.first().words.startsWith(u"run"_s));
        QVERIFY(readme.first().words.contains(u"--random-output-len"_s)); // the continued line
        QVERIFY2(readme.first().expected.size() > 30,
                 qPrintable(QString::number(readme.first().expected.size())));
        QVERIFY(m_commands.contains(u"docs/distributed.md"_s));
        int kills = 0;
        for (const Command &c : m_commands.value(u"docs/statistics.md"_s))
            kills += c.kind == Command::Kill;
        QVERIFY(kills >= 1);
        QVERIFY2(m_runs.value(u"README.md"_s)->compared > 30,
                 qPrintable(QString::number(m_runs.value(u"README.md"_s)->compared)));
    }

    // Every entry of the skip list names a command a doc prints (a stale entry hides nothing).
    void skipListNamesCommands()
    {
        QStringList used;
        for (const auto &r : std::as_const(m_runs))
            used << r->skips;
        for (const Skip &s : kSkips)
            QVERIFY2(used.contains(u"%1:%2"_s.arg(s.file).arg(s.line)),
                     qPrintable(
                         u"%1:%2 (%3) names no command"_s.arg(s.file).arg(s.line).arg(s.command)));
    }

    void docCommandsRunAsPrinted_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f : std::as_const(m_files))
            QTest::newRow(qPrintable(f)) << f;
    }

    // Each command exits 0, and each console block's output is what its command printed.
    void docCommandsRunAsPrinted()
    {
        QFETCH(QString, file);
        const auto run = m_runs.value(file);
        QVERIFY(run);
        // In full as warnings: QVERIFY2 cuts its message at 1,024 characters.
        for (const QString &p : std::as_const(run->problems))
            qWarning().noquote() << p;
        QVERIFY2(run->problems.isEmpty(),
                 qPrintable(u"%1 problem(s), each above; the first:\n%2"_s.arg(run->problems.size())
                                .arg(run->problems.value(0).left(400))));
    }
};

QTEST_GUILESS_MAIN(TestDocsCommands)
#include "tst_docscommands.moc"
