// Issue 33, item 11: one Chinese term per concept and one register. The glossary is the
// table in docs/GUI.md ("Glossary (zh_CN)"); every translation of the window's .ts file
// is held to it, so a new string with 配置 for "stack" or 你 for "you" fails here.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Term
{
    QRegularExpression english; // the English words, whole, any case
    QString term;
    QStringList never;
    bool required = false;
};

QString readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

// The rows of the table under "### Glossary (zh_CN)".
QList<Term> glossary(const QString& doc)
{
    QList<Term> out;
    const qsizetype at = doc.indexOf(QStringLiteral("### Glossary (zh_CN)"));
    if (at < 0)
        return out;
    const QStringList lines = doc.mid(at).split(QLatin1Char('\n'));
    bool inTable = false;
    for (const QString& line : lines) {
        if (!line.startsWith(QLatin1Char('|'))) {
            if (inTable)
                break;
            continue;
        }
        inTable = true;
        const QStringList cells = line.split(QLatin1Char('|'));
        if (cells.size() < 6 || cells[1].contains(QStringLiteral("---")) ||
            cells[1].contains(QStringLiteral("English words")))
            continue;
        QStringList words;
        for (const QString& w : cells[1].split(QLatin1Char(',')))
            words << QRegularExpression::escape(w.trimmed());
        Term t;
        t.english =
            QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(words.join(QLatin1Char('|'))),
                               QRegularExpression::CaseInsensitiveOption);
        t.term = cells[2].trimmed();
        for (const QString& n : cells[3].split(QLatin1Char(',')))
            t.never << n.trimmed();
        t.required = cells[4].trimmed() == QLatin1String("yes");
        out << t;
    }
    return out;
}

struct Message
{
    QString source, translation;
};

QList<Message> messages(const QString& tsPath)
{
    QFile f(tsPath);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(tsPath));
    QXmlStreamReader xml(&f);
    QList<Message> out;
    Message m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("source"))
            m.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            const bool gone =
                xml.attributes().value(QLatin1String("type")) == QLatin1String("vanished");
            m.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (!gone)
                out << m;
            m = {};
        }
    }
    if (xml.hasError())
        qFatal("%s:%lld: %s", qPrintable(tsPath), xml.lineNumber(), qPrintable(xml.errorString()));
    return out;
}

// Every {"en", "zh_CN"} user text of the shipped catalog, as a message.
void collectUserTexts(const QJsonValue& v, QList<Message>& out)
{
    if (v.isArray()) {
        for (const QJsonValue& x : v.toArray())
            collectUserTexts(x, out);
        return;
    }
    if (!v.isObject())
        return;
    const QJsonObject o = v.toObject();
    if (o.contains(QLatin1String("en")) && o.contains(QLatin1String("zh_CN")))
        out << Message{o.value(QLatin1String("en")).toString(),
                       o.value(QLatin1String("zh_CN")).toString()};
    for (const QJsonValue& x : o)
        collectUserTexts(x, out);
}

QList<Message> catalogTexts()
{
    QList<Message> out;
    const QDir dir(QStringLiteral(STACKPILOT_SOURCE_DIR "/profiles/catalog"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}))
        collectUserTexts(QJsonDocument::fromJson(readAll(dir.filePath(name)).toUtf8()).object(),
                         out);
    return out;
}

QStringList violations(const QList<Term>& terms, const QList<Message>& all, int* checked)
{
    QStringList bad;
    for (const Message& m : all)
        for (const Term& t : terms) {
            for (const QString& n : t.never)
                if (m.translation.contains(n))
                    bad << QStringLiteral("uses %1 (say %2): %3 → %4")
                               .arg(n, t.term, m.source.left(70), m.translation.left(40));
            // "an executable stack" is the ELF flag a ROCm library asks for, not a stack of ours.
            QString source = m.source;
            source.remove(QStringLiteral("executable stack"));
            if (!t.required || !t.english.match(source).hasMatch())
                continue;
            ++*checked;
            if (!m.translation.contains(t.term))
                bad << QStringLiteral("lacks %1: %2 → %3")
                           .arg(t.term, m.source.left(70), m.translation.left(40));
        }
    return bad;
}

} // namespace

class TestGlossary : public QObject
{
    Q_OBJECT
private slots:
    void everyTranslationUsesTheGlossary()
    {
        const auto terms = glossary(readAll(QStringLiteral(STACKPILOT_SOURCE_DIR "/docs/GUI.md")));
        QVERIFY2(terms.size() >= 4, "docs/GUI.md has no glossary table");
        const auto all = messages(
            QStringLiteral(STACKPILOT_SOURCE_DIR "/resources/translations/stackpilot_zh_CN.ts"));
        QVERIFY(all.size() > 100);
        int checked = 0;
        const QStringList bad = violations(terms, all, &checked);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
        QVERIFY2(checked > 40, qPrintable(QString::number(checked))); // the table matched
    }

    // The catalog's user texts (what the card, the failures and the menus show) too.
    void everyCatalogTextUsesTheGlossary()
    {
        const auto terms = glossary(readAll(QStringLiteral(STACKPILOT_SOURCE_DIR "/docs/GUI.md")));
        const auto all = catalogTexts();
        QVERIFY(all.size() > 100);
        int checked = 0;
        const QStringList bad = violations(terms, all, &checked);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
        QVERIFY(checked > 10);
    }
};

QTEST_GUILESS_MAIN(TestGlossary)
#include "test_glossary.moc"
