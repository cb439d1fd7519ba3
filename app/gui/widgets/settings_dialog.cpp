#include "app/gui/widgets/settings_dialog.h"

#include "app/common/doctor/doctor.h"
#include "app/gui/widgets/style.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace sp::gui {

namespace {

QString mirrorsText(const Settings& s)
{
    QStringList lines;
    for (const auto& [host, prefixes] : s.mirrors)
        for (const auto& p : prefixes)
            lines << qs(host) + QLatin1Char(' ') + qs(p);
    return lines.join(QLatin1Char('\n'));
}

// A titled section of the dialog with its own form.
QFormLayout* section(QVBoxLayout* layout, const QString& title, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    layout->addWidget(box);
    return form;
}

} // namespace

SettingsDialog::SettingsDialog(const Settings& current, QWidget* parent)
    : QDialog(parent), m_base(current)
{
    setWindowTitle(tr("Settings"));
    resize(640, 640);
    auto* layout = new QVBoxLayout(this);
    addFolders(section(layout, tr("Folders"), this), current);
    addNetwork(section(layout, tr("Downloads"), this), current);
    addBehaviour(section(layout, tr("Detection and logs"), this), current);
    addLook(section(layout, tr("Look and language"), this), current);
    layout->addStretch(1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_installDir, &QLineEdit::textChanged, this, &SettingsDialog::updateWarnings);
    connect(m_cacheDir, &QLineEdit::textChanged, this, &SettingsDialog::updateWarnings);
    updateWarnings();
}

void SettingsDialog::addFolders(QFormLayout* form, const Settings& current)
{
    m_installDir = new QLineEdit(qpath(current.installDir), this);
    m_installDir->setPlaceholderText(qpath(paths::dataDir()));
    m_installDir->setAccessibleName(tr("Install folder"));
    m_cacheDir = new QLineEdit(qpath(current.cacheDir), this);
    m_cacheDir->setPlaceholderText(qpath(paths::cacheDir()));
    m_cacheDir->setAccessibleName(tr("Cache folder"));
    form->addRow(tr("&Install folder:"), folderRow(m_installDir));
    form->addRow(tr("&Cache folder:"), folderRow(m_cacheDir));
    m_warnings = new QLabel(this);
    m_warnings->setWordWrap(true);
    style::setTextTone(m_warnings, style::Tone::Caution);
    form->addRow(QString(), m_warnings);
}

void SettingsDialog::addNetwork(QFormLayout* form, const Settings& current)
{
    m_proxy = new QLineEdit(qs(current.proxy.value_or("")), this);
    m_proxy->setPlaceholderText(tr("From the environment (http_proxy, https_proxy)"));
    form->addRow(tr("&Proxy:"), m_proxy);
    // Shown masked: a token on screen is a token in a screenshot.
    m_hfToken = new QLineEdit(qs(current.hfToken), this);
    m_hfToken->setEchoMode(QLineEdit::Password);
    m_hfToken->setPlaceholderText(tr("From HF_TOKEN, if set"));
    m_hfToken->setToolTip(tr("Needed only for gated models; sent only to huggingface.co."));
    form->addRow(tr("Hugging Face &token:"), m_hfToken);
    m_mirrors = new QPlainTextEdit(mirrorsText(current), this);
    m_mirrors->setPlaceholderText(tr("One per line: the site, a space, then the copy's address\n"
                                     "github.com https://mirror.example/github.com"));
    m_mirrors->setMaximumHeight(90);
    m_mirrors->setToolTip(tr("Download from a copy of a site when the site itself is slow or "
                             "blocked: each line names the site, then the copy's address."));
    m_mirrors->setAccessibleName(tr("Mirrors"));
    form->addRow(tr("&Mirrors:"), m_mirrors);
}

void SettingsDialog::addBehaviour(QFormLayout* form, const Settings& current)
{
    // Kept in milliseconds in settings.json; a person reads seconds.
    m_probeTimeout = new QDoubleSpinBox(this);
    m_probeTimeout->setRange(0.1, 600.0);
    m_probeTimeout->setDecimals(1);
    m_probeTimeout->setSingleStep(0.5);
    m_probeTimeout->setSuffix(tr(" seconds"));
    m_probeTimeout->setValue(current.probeTimeoutMs / 1000.0);
    m_probeTimeout->setToolTip(tr("How long detection waits for each vendor library (AMD's, "
                                  "NVIDIA's) to answer before it goes on without it."));
    form->addRow(tr("&Wait for each graphics check:"), m_probeTimeout);
    m_keepLaunches = new QSpinBox(this);
    m_keepLaunches->setRange(1, 1000);
    m_keepLaunches->setValue(current.keepLaunches);
    form->addRow(tr("&Logs kept per stack:"), m_keepLaunches);
    m_openBrowser = new QCheckBox(tr("&Open the workload in the browser when it is ready"), this);
    m_openBrowser->setChecked(current.openBrowser);
    form->addRow(QString(), m_openBrowser);
    // docs/LEDGER.md: a smoke test's result, shown before it leaves the PC.
    m_share = new QComboBox(this);
    m_share->addItem(tr("Ask each time"), QStringLiteral("ask"));
    m_share->addItem(tr("Always"), QStringLiteral("always"));
    m_share->addItem(tr("Never"), QStringLiteral("never"));
    m_share->setCurrentIndex(std::max(0, m_share->findData(qs(current.shareResults))));
    m_share->setToolTip(tr("Results of the check before a first start help other owners of the "
                           "same card; nothing names you, your folders or your PC."));
    form->addRow(tr("&Share check results:"), m_share);
}

void SettingsDialog::addLook(QFormLayout* form, const Settings& current)
{
    m_theme = new QComboBox(this);
    m_theme->addItem(tr("Same as the system"), QString());
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(qs(current.theme))));
    form->addRow(tr("T&heme:"), m_theme);
    m_language = new QComboBox(this);
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(std::max(0, m_language->findData(qs(current.language))));
    form->addRow(tr("L&anguage:"), m_language);
    auto* note = new QLabel(tr("A new language applies as soon as you save."), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(QString(), note);
}

QWidget* SettingsDialog::folderRow(QLineEdit* edit)
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    auto* browse = new QPushButton(tr("Browse…"), row);
    browse->setAccessibleDescription(tr("Choose a folder for: %1").arg(edit->accessibleName()));
    h->addWidget(edit, 1);
    h->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, edit] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Choose a folder"),
            edit->text().isEmpty() ? edit->placeholderText() : edit->text());
        if (!dir.isEmpty())
            edit->setText(QDir::toNativeSeparators(dir));
    });
    return row;
}

// The doctor's install-path check, on both folders as typed.
void SettingsDialog::updateWarnings()
{
    QStringList lines;
    for (QLineEdit* e : {m_installDir, m_cacheDir}) {
        doctor::DoctorInput in;
        in.dataDir = toPath(e->text().isEmpty() ? e->placeholderText() : e->text());
        for (const auto& f : doctor::checkInstallPath(in))
            lines << qs(f.text);
    }
    m_warnings->setText(lines.join(QLatin1Char('\n')));
    m_warnings->setVisible(!lines.isEmpty());
}

QString SettingsDialog::pathWarnings() const
{
    return m_warnings->text();
}

Settings SettingsDialog::result(QString* error) const
{
    Settings s = m_base;
    s.installDir = toPath(m_installDir->text().trimmed());
    s.cacheDir = toPath(m_cacheDir->text().trimmed());
    const QString proxy = m_proxy->text().trimmed();
    s.proxy = proxy.isEmpty() ? std::nullopt : std::optional<std::string>(proxy.toStdString());
    s.hfToken = m_hfToken->text().trimmed().toStdString();
    s.mirrors.clear();
    const QStringList lines = m_mirrors->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QStringList parts = lines[i].simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (parts.isEmpty())
            continue;
        if (parts.size() < 2 || !(parts[1].startsWith(QLatin1String("http://")) ||
                                  parts[1].startsWith(QLatin1String("https://")))) {
            if (error)
                *error = tr("Mirrors, line %1: write a host, a space and an http(s) URL prefix")
                             .arg(i + 1);
            return m_base;
        }
        for (int p = 1; p < parts.size(); ++p)
            s.mirrors[parts[0].toStdString()].push_back(parts[p].toStdString());
    }
    s.probeTimeoutMs = int(std::lround(m_probeTimeout->value() * 1000.0));
    s.keepLaunches = m_keepLaunches->value();
    s.openBrowser = m_openBrowser->isChecked();
    s.language = m_language->currentData().toString().toStdString();
    s.theme = m_theme->currentData().toString().toStdString();
    s.shareResults = m_share->currentData().toString().toStdString();
    return s;
}

Settings::Change SettingsDialog::changes(QString* error) const
{
    QString why;
    const Settings edited = result(&why);
    if (error)
        *error = why;
    if (!why.isEmpty())
        return {};
    return [edited, base = m_base](Settings& file) {
        // Field by field: what the dialog showed and the user left alone is not written.
        auto take = [](auto& into, const auto& was, const auto& now) {
            if (now != was)
                into = now;
        };
        take(file.installDir, base.installDir, edited.installDir);
        take(file.cacheDir, base.cacheDir, edited.cacheDir);
        take(file.proxy, base.proxy, edited.proxy);
        take(file.hfToken, base.hfToken, edited.hfToken);
        take(file.mirrors, base.mirrors, edited.mirrors);
        take(file.probeTimeoutMs, base.probeTimeoutMs, edited.probeTimeoutMs);
        take(file.keepLaunches, base.keepLaunches, edited.keepLaunches);
        take(file.openBrowser, base.openBrowser, edited.openBrowser);
        take(file.language, base.language, edited.language);
        take(file.theme, base.theme, edited.theme);
        take(file.shareResults, base.shareResults, edited.shareResults);
        return Expected<void>();
    };
}

} // namespace sp::gui
