// Contrast and themes: the WCAG 2 formula; every link, warning, badge, verdict and probe
// colour against the background it is drawn on, in the light and dark themes and the
// platform's own palette, at least 4.5:1 (each ratio is printed); and a theme chosen in
// Settings changes the application's palette, and the colours already shown, at once.

#include "app/gui/widgets/main_window.h"
#include "app/gui/widgets/profile_card.h"
#include "app/gui/widgets/settings_dialog.h"
#include "app/gui/widgets/style.h"
#include "gui_fixture.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <cstring>

using namespace sp;
using namespace sp::test;
namespace style = sp::gui::style;

namespace {

struct Pair
{
    const char* what;
    QColor fg;
    QColor bg;
};

// What is drawn on what: text colours on the card (Base) and on dialogs (Window), the
// badges and verdicts on the card and the tree (Base), the banner's text and link on its
// tint, the console's text on a matched line's tint and its ANSI colours on Base.
std::vector<Pair> pairsOf(const QPalette& p)
{
    const QColor base = p.color(QPalette::Base);
    const QColor window = p.color(QPalette::Window);
    const style::Colors c = style::colors(p);
    std::vector<Pair> out;
    const std::pair<const char*, QColor> text[] = {
        {"link", c.link}, {"visited link", c.linkVisited}, {"muted", c.muted}, {"ok", c.ok},
        {"info", c.info}, {"warning", c.warning},          {"error", c.error}};
    for (const auto& [name, colour] : text) {
        out.push_back({name, colour, base});
        out.push_back({name, colour, window});
    }
    for (const char* status : {"tested", "community", "experimental", "rejected"})
        out.push_back(
            {status, style::toneColor(style::toneOfStatus(QLatin1String(status)), p), base});
    out.push_back({"verdict available", style::toneColor(style::Tone::Good, p), base});
    out.push_back({"verdict rejected/failed", style::toneColor(style::Tone::Bad, p), base});
    out.push_back({"probe ok dot", c.ok, base});
    out.push_back({"probe missing dot", c.muted, base});
    out.push_back({"probe failed dot", c.error, base});
    out.push_back({"text", p.color(QPalette::Text), base});
    out.push_back({"window text", p.color(QPalette::WindowText), window});
    out.push_back({"palette link role", p.color(QPalette::Link), base});
    out.push_back({"palette link role", p.color(QPalette::Link), window});
    out.push_back({"placeholder role", p.color(QPalette::PlaceholderText), base});
    out.push_back({"console text on a matched line", p.color(QPalette::Text),
                   style::tint(style::Tone::Caution, p, 0.3)});
    for (int i = 1; i < 16; ++i)
        if (i != 7 && i != 8 && i != 15 && i != 0) // greys and black/white: the program's
            out.push_back({"ansi colour", style::ansiColor(i, p), base});
    // The banner: a real widget tinted on a parent of this palette.
    QWidget parent;
    parent.setPalette(p);
    QWidget banner(&parent);
    style::setTint(&banner, style::Tone::Caution, 0.2);
    const QPalette b = banner.palette();
    out.push_back({"banner text", b.color(QPalette::WindowText), b.color(QPalette::Window)});
    out.push_back({"banner link", b.color(QPalette::Link), b.color(QPalette::Window)});
    return out;
}

void checkAll(const char* theme, const QPalette& p)
{
    for (const Pair& x : pairsOf(p)) {
        const double r = style::contrastRatio(x.fg, x.bg);
        std::printf("contrast %-6s %-32s %s on %s  %5.2f:1\n", theme, x.what,
                    qPrintable(x.fg.name()), qPrintable(x.bg.name()), r);
        QVERIFY2(r >= style::kMinContrast,
                 qPrintable(
                     QStringLiteral("%1 %2: %3 on %4 is %5:1")
                         .arg(QLatin1String(theme), QLatin1String(x.what), x.fg.name(), x.bg.name())
                         .arg(r, 0, 'f', 2)));
    }
}

// The colour of every label whose style sheet sets one ("color: #rrggbb").
QMap<QLabel*, QColor> sheetColours(QWidget* root)
{
    static const QRegularExpression colour(QStringLiteral("color: (#[0-9a-f]{6})"));
    QMap<QLabel*, QColor> out;
    for (QLabel* l : root->findChildren<QLabel*>())
        if (const auto m = colour.match(l->styleSheet()); m.hasMatch())
            out[l] = QColor(m.captured(1));
    return out;
}

// Every colour a label's rich text names ("color:#rrggbb"): the probe dots and states,
// the runtimes' sizes.
std::vector<QColor> textColours(QWidget* root)
{
    static const QRegularExpression colour(QStringLiteral("color:(#[0-9a-f]{6})"));
    std::vector<QColor> out;
    for (QLabel* l : root->findChildren<QLabel*>())
        for (auto it = colour.globalMatch(l->text()); it.hasNext();)
            out.emplace_back(it.next().captured(1));
    return out;
}

// What is shown in a colour that is not readable on `base`; "" when all are (and some
// badge and some rich text colour are shown).
QString unreadable(QWidget* root, const QColor& base)
{
    QStringList bad;
    const auto sheets = sheetColours(root);
    for (auto it = sheets.begin(); it != sheets.end(); ++it)
        if (style::contrastRatio(it.value(), base) < style::kMinContrast)
            bad << it.key()->text() + QLatin1Char(' ') + it.value().name();
    const auto rich = textColours(root);
    for (const QColor& c : rich)
        if (style::contrastRatio(c, base) < style::kMinContrast)
            bad << QStringLiteral("rich text ") + c.name();
    if (sheets.isEmpty() || rich.empty())
        bad << QStringLiteral("no coloured label");
    return bad.join(QStringLiteral(", "));
}

// The mean relative luminance of an image.
double meanLuminance(const QImage& image)
{
    double sum = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            sum += style::relativeLuminance(image.pixelColor(x, y));
    return sum / ((image.height() + 3) / 4) / ((image.width() + 3) / 4);
}

} // namespace

class TestContrast : public QObject
{
    Q_OBJECT

private slots:
    void contrastFormula()
    {
        QCOMPARE(qRound(style::contrastRatio(Qt::black, Qt::white) * 100), 2100);
        QCOMPARE(qRound(style::contrastRatio(Qt::white, Qt::black) * 100), 2100);
        QCOMPARE(style::contrastRatio(QColor(0x80, 0x40, 0x20), QColor(0x80, 0x40, 0x20)), 1.0);
        QCOMPARE(qRound(style::relativeLuminance(Qt::white) * 1000), 1000);
        QCOMPARE(style::relativeLuminance(Qt::black), 0.0);
        // #767676 is the lightest grey that passes AA on white (4.54:1); #777777 fails.
        QVERIFY(style::contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) >= 4.5);
        QVERIFY(style::contrastRatio(QColor(0x77, 0x77, 0x77), Qt::white) < 4.5);
        // Half-transparent black over white is mid grey.
        QColor half(0, 0, 0, 128);
        QVERIFY(qAbs(style::contrastRatio(half, Qt::white) -
                     style::contrastRatio(QColor(127, 127, 127), Qt::white)) < 0.05);
    }

    void readableAdjustsOnlyWhatFails()
    {
        // The amber of the light theme's note was 4.24:1 on white: darkened until it passes.
        const QColor amber(0xb2, 0x6a, 0x00);
        QVERIFY(style::contrastRatio(amber, Qt::white) < 4.5);
        const QColor fixed = style::readable(amber, {Qt::white});
        QVERIFY(style::contrastRatio(fixed, Qt::white) >= 4.5);
        QVERIFY(fixed.lightness() < amber.lightness());
        QCOMPARE(style::readable(amber, {Qt::white}), fixed); // deterministic
        // Qt's default blue link on a dark base (about 2:1): lightened.
        const QColor dark(0x2a, 0x2a, 0x2a);
        const QColor link = style::readable(Qt::blue, {dark});
        QVERIFY(style::contrastRatio(link, dark) >= 4.5);
        QVERIFY(link.lightness() > QColor(Qt::blue).lightness());
        // A colour that passes is kept as it is.
        QCOMPARE(style::readable(QColor(0x20, 0x20, 0x20), {Qt::white}), QColor(0x20, 0x20, 0x20));
    }

    void lightThemeIsReadable() { checkAll("light", style::lightPalette()); }
    void darkThemeIsReadable() { checkAll("dark", style::darkPalette()); }
    void platformPaletteIsReadable()
    {
        checkAll("system", style::withReadableRoles(QApplication::palette()));
    }

    void darkPaletteIsDarkAndLightIsLight()
    {
        QVERIFY(style::isDark(style::darkPalette()));
        QVERIFY(!style::isDark(style::lightPalette()));
        QVERIFY(style::contrastRatio(style::darkPalette().color(QPalette::HighlightedText),
                                     style::darkPalette().color(QPalette::Highlight)) >= 4.5);
        QVERIFY(style::contrastRatio(style::lightPalette().color(QPalette::HighlightedText),
                                     style::lightPalette().color(QPalette::Highlight)) >= 4.5);
    }

    // `stackpilot --theme dark|light` (for screenshots) wins over the setting; another
    // value is refused.
    void themeOption()
    {
        const QString bin = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot");
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STACKPILOT_HOME"), home.path());
        QDir(home.path()).mkpath(QStringLiteral("config"));
        for (const char* theme : {"dark", "light"}) {
            const QString shot = home.filePath(QStringLiteral("shot.png"));
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(bin,
                    {QStringLiteral("--theme"), QLatin1String(theme), QStringLiteral("--hardware"),
                     QStringLiteral(STACKPILOT_SOURCE_DIR
                                    "/tests/gui/fixtures/seed000-windows-rx6750xt.json"),
                     QStringLiteral("--screenshot"), shot});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            const QImage image(shot);
            QVERIFY(!image.isNull());
            const double mean = meanLuminance(image);
            std::printf("--theme %s: mean luminance %.2f\n", theme, mean);
            QVERIFY(std::strcmp(theme, "dark") == 0 ? mean < 0.1 : mean > 0.6);
        }
        QProcess bad;
        bad.start(bin, {QStringLiteral("--theme"), QStringLiteral("purple")});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--theme must be light, dark or system"));
    }

    // Settings → Theme → Dark: the application's palette is dark at once, and the badge,
    // notes and probe colours already shown are recomputed for it; back to Light as well.
    void themeFromSettingsAppliesWithoutRestart()
    {
        GuiWorld w;
        auto app = w.controller();
        gui::MainWindow window(app.get());
        window.resize(1180, 780);
        window.show();
        app->start();
        QVERIFY(waitFor([&] { return app->phase() == gui::AppController::Phase::Ready; }));
        QVERIFY(waitFor([&] { return !window.card()->badgeText().isEmpty(); }));
        const auto before = sheetColours(&window);
        QVERIFY(!before.isEmpty());
        for (const QString& theme : {QStringLiteral("dark"), QStringLiteral("light")}) {
            window.openSettings();
            auto* dlg = window.findChild<gui::SettingsDialog*>();
            QVERIFY(dlg);
            dlg->theme()->setCurrentIndex(dlg->theme()->findData(theme));
            dlg->accept();
            // Saved, then applied when the controller takes the file as written.
            QTRY_COMPARE_WITH_TIMEOUT(style::appliedTheme(), theme, 10000);
            QCOMPARE(style::isDark(QApplication::palette()), theme == QLatin1String("dark"));
            QCOMPARE(QApplication::palette().color(QPalette::Base),
                     (theme == QLatin1String("dark") ? style::darkPalette() : style::lightPalette())
                         .color(QPalette::Base));
            QTRY_COMPARE(window.palette().color(QPalette::Window),
                         QApplication::palette().color(QPalette::Window));
            QCOMPARE(Settings::loadFile(Settings::defaultFile())->theme, theme.toStdString());
            QTRY_VERIFY(window.findChild<gui::SettingsDialog*>() == nullptr);
            // Every coloured label follows: readable on the new base (the card's).
            const QColor base = QApplication::palette().color(QPalette::Base);
            QTRY_VERIFY2_WITH_TIMEOUT(unreadable(&window, base).isEmpty(),
                                      qPrintable(unreadable(&window, base)), 5000);
            if (theme == QLatin1String("dark"))
                for (auto it = before.begin(); it != before.end(); ++it)
                    QVERIFY(sheetColours(&window).value(it.key()) != it.value());
        }
    }
};

QTEST_MAIN(TestContrast)
#include "test_contrast.moc"
