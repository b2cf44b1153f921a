// What ships: the desktop entry and AppStream metadata (ids that match, validated by the
// freedesktop tools when installed), the icon set, the container image recipe, the Kubernetes
// manifests (parsed, and their flags checked against the CLI's own --help), and the Debian
// package CPack builds from this build folder — down to running the packaged binary.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

const QString kAppId = u"io.servebench.ServeBench"_s;

QString src(const QString &rel)
{
    return QDir(QString::fromUtf8(SB_SOURCE_DIR)).filePath(rel);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Proc
{
    int code = -1;
    QString out;
    QString err;
};

Proc run(const QString &program, const QStringList &args, int timeoutMs = 120000,
         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
         const QString &workDir = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workDir.isEmpty())
        p.setWorkingDirectory(workDir);
    p.start(program, args);
    Proc r;
    if (!p.waitForStarted() || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = u"did not run or timed out: "_s + program;
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QMap<QString, QString> desktopEntry()
{
    QMap<QString, QString> keys;
    const QStringList lines =
        QString::fromUtf8(readFile(src(u"packaging/linux/%1.desktop"_s.arg(kAppId)))).split(u'\n');
    bool inEntry = false;
    for (const QString &line : lines) {
        if (line.startsWith(u'['))
            inEntry = line == "[Desktop Entry]"_L1;
        else if (inEntry && line.contains(u'='))
            keys.insert(line.section(u'=', 0, 0), line.section(u'=', 1));
    }
    return keys;
}

// PNG: 8-byte signature, then the IHDR chunk whose data starts with width and height.
bool pngSize(const QByteArray &png, int *w, int *h)
{
    if (png.size() < 24 || !png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR")
        return false;
    auto be32 = [&](int at) {
        return (int(quint8(png[at])) << 24) | (int(quint8(png[at + 1])) << 16) |
               (int(quint8(png[at + 2])) << 8) | int(quint8(png[at + 3]));
    };
    *w = be32(16);
    *h = be32(20);
    return true;
}

QString python3()
{
    // The distribution's interpreter, where apt's python3-yaml lives (scripts/deps.sh).
    if (QFile::exists(u"/usr/bin/python3"_s))
        return u"/usr/bin/python3"_s;
    return QStandardPaths::findExecutable(u"python3"_s);
}

// The YAML documents of a manifest as JSON, through PyYAML's safe loader.
QJsonArray loadYaml(const QString &path, QString *skip)
{
    const QString py = python3();
    if (py.isEmpty()) {
        *skip = u"python3 is not installed (scripts/deps.sh installs it)"_s;
        return {};
    }
    const Proc r = run(py, {u"-c"_s,
                            u"import json, sys, yaml\n"
                            "print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))"_s,
                            path});
    if (r.code != 0 && r.err.contains("No module named 'yaml'"_L1)) {
        *skip = u"python3-yaml is not installed (scripts/deps.sh installs it)"_s;
        return {};
    }
    if (r.code != 0)
        return QJsonArray{QJsonObject{{u"parse_error"_s, r.err}}};
    return QJsonDocument::fromJson(r.out.toUtf8()).array();
}

QJsonObject byKind(const QJsonArray &docs, const QString &kind, const QString &name = {})
{
    for (const QJsonValue &d : docs) {
        const QJsonObject o = d.toObject();
        if (o.value(u"kind"_s).toString() == kind &&
            (name.isEmpty() ||
             o.value(u"metadata"_s).toObject().value(u"name"_s).toString() == name))
            return o;
    }
    return {};
}

QStringList optionsOf(const QString &help)
{
    QStringList out;
    const QRegularExpression re(u"--([a-z0-9-]+)"_s);
    for (auto it = re.globalMatch(help); it.hasNext();)
        out.append(it.next().captured(1));
    return out;
}

// Every --flag in `args` must be one the CLI's command lists in its --help.
void checkFlagsKnown(const QJsonArray &args, const QString &command)
{
    const Proc help = run(QString::fromUtf8(SB_CLI), {command, u"--help"_s});
    QVERIFY2(help.code == 0, qPrintable(help.err));
    const QStringList known = optionsOf(help.out);
    for (const QJsonValue &a : args) {
        const QString s = a.toString();
        if (!s.startsWith("--"_L1))
            continue;
        const QString name = s.mid(2).section(u'=', 0, 0);
        QVERIFY2(known.contains(name),
                 qPrintable(u"%1 %2: unknown flag --%3"_s.arg(u"servebench-cli"_s, command, name)));
    }
}

QJsonObject container(const QJsonObject &podOwner)
{
    QJsonObject spec = podOwner.value(u"spec"_s).toObject();
    if (spec.contains(u"template"_s))
        spec = spec.value(u"template"_s).toObject().value(u"spec"_s).toObject();
    return spec.value(u"containers"_s).toArray().at(0).toObject();
}

QJsonObject podSpec(const QJsonObject &owner)
{
    const QJsonObject spec = owner.value(u"spec"_s).toObject();
    return spec.contains(u"template"_s)
               ? spec.value(u"template"_s).toObject().value(u"spec"_s).toObject()
               : spec;
}

} // namespace

class TestPackaging : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void desktopEntry()
    {
        const auto keys = ::desktopEntry();
        QCOMPARE(keys.value(u"Type"_s), u"Application"_s);
        QCOMPARE(keys.value(u"Name"_s), u"ServeBench"_s);
        QCOMPARE(keys.value(u"Exec"_s).section(u' ', 0, 0), u"servebench"_s);
        QCOMPARE(keys.value(u"Icon"_s), kAppId);
        QCOMPARE(keys.value(u"Terminal"_s), u"false"_s);
        QVERIFY(keys.value(u"Categories"_s).split(u';').contains(u"Development"_s));
        const QString tool = QStandardPaths::findExecutable(u"desktop-file-validate"_s);
        if (tool.isEmpty())
            QSKIP("desktop-file-validate is not installed (desktop-file-utils)");
        const Proc r = run(tool, {src(u"packaging/linux/%1.desktop"_s.arg(kAppId))});
        QVERIFY2(r.code == 0 && r.out.trimmed().isEmpty(), qPrintable(r.out + r.err));
    }

    void metainfoMatchesTheDesktopEntry()
    {
        const QString path = src(u"packaging/linux/%1.metainfo.xml"_s.arg(kAppId));
        QXmlStreamReader xml(readFile(path));
        QString id, launchable, launchableType, icon, rootType;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == "component"_L1)
                rootType = xml.attributes().value(u"type"_s).toString();
            else if (xml.name() == "id"_L1)
                id = xml.readElementText();
            else if (xml.name() == "launchable"_L1) {
                launchableType = xml.attributes().value(u"type"_s).toString();
                launchable = xml.readElementText();
            } else if (xml.name() == "icon"_L1)
                icon = xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(rootType, u"desktop-application"_s);
        QCOMPARE(id, kAppId);
        QCOMPARE(launchableType, u"desktop-id"_s);
        QCOMPARE(launchable, kAppId + u".desktop"_s);
        QVERIFY(QFile::exists(src(u"packaging/linux/"_s + launchable)));
        QCOMPARE(icon, ::desktopEntry().value(u"Icon"_s));
        const QString tool = QStandardPaths::findExecutable(u"appstreamcli"_s);
        if (tool.isEmpty())
            QSKIP("appstreamcli is not installed (appstream)");
        const Proc r = run(tool, {u"validate"_s, u"--no-net"_s, path});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    }

    void iconsHaveTheirSizes()
    {
        QXmlStreamReader svg(readFile(src(u"packaging/linux/icons/%1.svg"_s.arg(kAppId))));
        while (!svg.atEnd() && svg.readNext() != QXmlStreamReader::StartElement) {
        }
        QCOMPARE(svg.name(), "svg"_L1);
        while (!svg.atEnd())
            svg.readNext();
        QVERIFY2(!svg.hasError(), qPrintable(svg.errorString()));
        for (int size : {48, 128, 256}) {
            int w = 0, h = 0;
            const QByteArray png = readFile(
                src(u"packaging/linux/icons/hicolor/%1x%1/apps/%2.png"_s.arg(size).arg(kAppId)));
            QVERIFY2(pngSize(png, &w, &h), qPrintable(QString::number(size)));
            QCOMPARE(w, size);
            QCOMPARE(h, size);
        }
    }

    void dockerfileIsMultiStageNonRootExecForm()
    {
        const QStringList lines =
            QString::fromUtf8(readFile(src(u"packaging/container/Dockerfile"_s))).split(u'\n');
        QStringList from;
        QString entrypoint, cmd, user;
        bool copiesFromBuild = false;
        for (const QString &raw : lines) {
            const QString l = raw.trimmed();
            if (l.startsWith("FROM "_L1)) {
                from.append(l.mid(5));
                user.clear(); // USER applies per stage: only the final stage's counts
            } else if (l.startsWith("ENTRYPOINT "_L1))
                entrypoint = l.mid(11).trimmed();
            else if (l.startsWith("CMD "_L1))
                cmd = l.mid(4).trimmed();
            else if (l.startsWith("USER "_L1))
                user = l.mid(5).trimmed();
            else if (l.startsWith("COPY --from=build"_L1))
                copiesFromBuild = true;
        }
        QVERIFY2(from.size() >= 2, "multi-stage: a build stage and a runtime stage");
        for (const QString &f : std::as_const(from))
            QVERIFY2(f.startsWith("debian:12"_L1), qPrintable(f));
        QVERIFY(from.first().endsWith(" AS build"_L1));
        QVERIFY(copiesFromBuild);
        // Exec form is a JSON array; shell form would make /bin/sh PID 1 and eat SIGTERM.
        for (const QString &form : {entrypoint, cmd}) {
            const QJsonDocument d = QJsonDocument::fromJson(form.toUtf8());
            QVERIFY2(d.isArray() && !d.array().isEmpty(), qPrintable(form));
        }
        QVERIFY(QJsonDocument::fromJson(entrypoint.toUtf8())
                    .array()
                    .at(0)
                    .toString()
                    .endsWith("/servebench-cli"_L1));
        QVERIFY2(!user.isEmpty() && !user.startsWith("root"_L1) && !user.startsWith("0"_L1),
                 qPrintable(user));
    }

    void kubernetesJobWiresTheShards()
    {
        QString skip;
        const QJsonArray jobDocs = loadYaml(src(u"packaging/kubernetes/job.yaml"_s), &skip);
        if (!skip.isEmpty())
            QSKIP(qPrintable(skip));
        const QJsonArray cmDocs = loadYaml(src(u"packaging/kubernetes/configmap.yaml"_s), &skip);
        const QJsonArray pvcDocs = loadYaml(src(u"packaging/kubernetes/pvc.yaml"_s), &skip);

        const QJsonObject job = byKind(jobDocs, u"Job"_s);
        QVERIFY2(!job.isEmpty(), QJsonDocument(jobDocs).toJson().constData());
        QCOMPARE(job.value(u"apiVersion"_s).toString(), u"batch/v1"_s);
        const QJsonObject spec = job.value(u"spec"_s).toObject();
        QCOMPARE(spec.value(u"completionMode"_s).toString(), u"Indexed"_s);
        const int n = spec.value(u"completions"_s).toInt();
        QVERIFY(n >= 2);
        QCOMPARE(spec.value(u"parallelism"_s).toInt(), n); // all agents at once
        const QJsonObject pod = podSpec(job);
        QCOMPARE(pod.value(u"restartPolicy"_s).toString(), u"Never"_s);
        QVERIFY(pod.value(u"securityContext"_s).toObject().value(u"runAsNonRoot"_s).toBool());

        const QJsonObject c = container(job);
        QVERIFY(c.value(u"image"_s).toString().contains("servebench-cli"_L1));
        QVERIFY2(!c.contains(u"command"_s), "the image's exec-form ENTRYPOINT runs the CLI");
        const QJsonArray args = c.value(u"args"_s).toArray();
        QCOMPARE(args.at(0).toString(), u"run"_s);
        QStringList argList;
        for (const QJsonValue &a : args)
            argList.append(a.toString());
        QVERIFY2(argList.contains(u"--shard=$(JOB_COMPLETION_INDEX)/$(SHARDS)"_s),
                 qPrintable(argList.join(u' ')));
        QVERIFY(argList.contains(u"--start-at=$(START_AT_MS)"_s));
        QVERIFY(argList.contains(u"--save-detailed"_s));
        checkFlagsKnown(args, u"run"_s);

        // The environment behind those $(VAR)s.
        QMap<QString, QJsonObject> env;
        for (const QJsonValue &e : c.value(u"env"_s).toArray())
            env.insert(e.toObject().value(u"name"_s).toString(), e.toObject());
        QCOMPARE(env.value(u"JOB_COMPLETION_INDEX"_s)
                     .value(u"valueFrom"_s)
                     .toObject()
                     .value(u"fieldRef"_s)
                     .toObject()
                     .value(u"fieldPath"_s)
                     .toString(),
                 u"metadata.annotations['batch.kubernetes.io/job-completion-index']"_s);
        const QJsonObject startRef = env.value(u"START_AT_MS"_s)
                                         .value(u"valueFrom"_s)
                                         .toObject()
                                         .value(u"configMapKeyRef"_s)
                                         .toObject();
        const QJsonObject startCm =
            byKind(cmDocs, u"ConfigMap"_s, startRef.value(u"name"_s).toString());
        QVERIFY(startCm.value(u"data"_s).toObject().contains(startRef.value(u"key"_s).toString()));
        const QString planCm = c.value(u"envFrom"_s)
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(u"configMapRef"_s)
                                   .toObject()
                                   .value(u"name"_s)
                                   .toString();
        const QJsonObject planData =
            byKind(cmDocs, u"ConfigMap"_s, planCm).value(u"data"_s).toObject();
        QCOMPARE(planData.value(u"SHARDS"_s).toString().toInt(), n);
        for (const QString &var : argList.join(u' ').split(u"$("_s).mid(1)) {
            const QString name = var.section(u')', 0, 0);
            QVERIFY2(env.contains(name) || planData.contains(name), qPrintable(name));
        }

        // Results go to the claimed volume.
        const QJsonObject mount = c.value(u"volumeMounts"_s).toArray().at(0).toObject();
        QCOMPARE(mount.value(u"mountPath"_s).toString(), u"/results"_s);
        QJsonObject volume;
        for (const QJsonValue &v : pod.value(u"volumes"_s).toArray())
            if (v.toObject().value(u"name"_s) == mount.value(u"name"_s))
                volume = v.toObject();
        const QString claim =
            volume.value(u"persistentVolumeClaim"_s).toObject().value(u"claimName"_s).toString();
        QCOMPARE(claim, byKind(pvcDocs, u"PersistentVolumeClaim"_s)
                            .value(u"metadata"_s)
                            .toObject()
                            .value(u"name"_s)
                            .toString());
        QVERIFY(argList.filter(u"--result-dir=/results/"_s).size() == 1);
    }

    void kubernetesHelpersParse()
    {
        QString skip;
        const QJsonArray merge = loadYaml(src(u"packaging/kubernetes/merge-job.yaml"_s), &skip);
        if (!skip.isEmpty())
            QSKIP(qPrintable(skip));
        const QJsonObject job = byKind(merge, u"Job"_s);
        const QJsonArray args = container(job).value(u"args"_s).toArray();
        QCOMPARE(args.at(0).toString(), u"merge"_s);
        checkFlagsKnown(args, u"merge"_s);
        const QJsonObject collect =
            byKind(loadYaml(src(u"packaging/kubernetes/collect-pod.yaml"_s), &skip), u"Pod"_s);
        QVERIFY(container(collect)
                    .value(u"volumeMounts"_s)
                    .toArray()
                    .at(0)
                    .toObject()
                    .value(u"mountPath"_s)
                    .toString() == "/results"_L1);
    }

    // CPack's Debian package of this build, checked with dpkg-deb and run from an unpacked copy.
    void debianPackage()
    {
        for (const char *tool : {"cpack", "dpkg-deb", "dpkg-shlibdeps"})
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
                QSKIP(qPrintable(u"%1 is not installed"_s.arg(QString::fromLatin1(tool))));
        QVERIFY(m_tmp.isValid());
        const QString out = m_tmp.filePath(u"cpack"_s);
        const Proc pack =
            run(u"cpack"_s,
                {u"--config"_s, QString::fromUtf8(SB_BINARY_DIR) + u"/CPackConfig.cmake"_s, u"-G"_s,
                 u"DEB"_s, u"-B"_s, out},
                300000);
        QVERIFY2(pack.code == 0, qPrintable(pack.out + pack.err));
        const QStringList debs = QDir(out).entryList({u"*.deb"_s}, QDir::Files);
        QCOMPARE(debs.size(), 1);
        const QString deb = QDir(out).filePath(debs.first());

        const Proc info = run(u"dpkg-deb"_s, {u"--info"_s, deb});
        QVERIFY2(info.code == 0, qPrintable(info.err));
        QVERIFY(info.out.contains(
            QRegularExpression(u"^ Package: servebench$"_s, QRegularExpression::MultilineOption)));
        const QString depends =
            QRegularExpression(u"^ Depends: (.*)$"_s, QRegularExpression::MultilineOption)
                .match(info.out)
                .captured(1);
        for (const char *dep : {"libqt6core6", "libqt6network6", "libqt6sql6", "libqt6sql6-sqlite",
                                "libc6", "libstdc++6"})
            QVERIFY2(depends.contains(QRegularExpression(u"(^|, )%1( \\(|,|$)"_s.arg(
                         QRegularExpression::escape(QString::fromLatin1(dep))))),
                     qPrintable(
                         u"%1 missing from Depends: %2"_s.arg(QString::fromLatin1(dep), depends)));

        const Proc contents = run(u"dpkg-deb"_s, {u"--contents"_s, deb});
        QVERIFY2(contents.code == 0, qPrintable(contents.err));
        QVERIFY(contents.out.contains(" ./usr/bin/servebench-cli"_L1));
#ifdef SB_GUI_BUILT
        for (const QString &f :
             {u"./usr/bin/servebench"_s, u"./usr/share/applications/%1.desktop"_s.arg(kAppId),
              u"./usr/share/metainfo/%1.metainfo.xml"_s.arg(kAppId),
              u"./usr/share/icons/hicolor/scalable/apps/%1.svg"_s.arg(kAppId),
              u"./usr/share/icons/hicolor/48x48/apps/%1.png"_s.arg(kAppId),
              u"./usr/share/icons/hicolor/256x256/apps/%1.png"_s.arg(kAppId)})
            QVERIFY2(contents.out.contains(u' ' + f + u'\n'), qPrintable(f));
#endif

        // Unpacked, the binary runs with the system's libraries alone.
        const QString root = m_tmp.filePath(u"root"_s);
        const Proc x = run(u"dpkg"_s, {u"-x"_s, deb, root});
        QVERIFY2(x.code == 0, qPrintable(x.err));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(u"LD_LIBRARY_PATH"_s);
        const Proc version =
            run(root + u"/usr/bin/servebench-cli"_s, {u"version"_s}, 30000, env, m_tmp.path());
        QVERIFY2(version.code == 0, qPrintable(version.err));
        QCOMPARE(version.out.trimmed(),
                 u"servebench-cli %1"_s.arg(QString::fromLatin1(SERVEBENCH_VERSION)));
    }
};

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
