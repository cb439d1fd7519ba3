#pragma once
// Settings, kept in <config>/settings.json (under STACKPILOT_HOME when set): install and
// cache folders (with the doctor's warnings for non-ASCII, OneDrive and Program Files
// paths), mirrors and proxy, the probe timeout, launch logs kept, opening the browser
// by itself, the theme (applied at once) and the language.

#include "core/settings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QDoubleSpinBox;
class QFormLayout;

namespace sp::gui {

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    SettingsDialog(const Settings& current, QWidget* parent = nullptr);

    // The settings as edited; `error` explains a mirror line that does not parse.
    Settings result(QString* error = nullptr) const;
    // What OK changes, for Settings::update: only the fields the user edited here, so a
    // change another process made to the file while the dialog was open (a remedy, a
    // `catalog update --feed`, a CLI edit, or a field the dialog does not show) is kept.
    Settings::Change changes(QString* error = nullptr) const;
    QString pathWarnings() const;

    QLineEdit* installDir() const { return m_installDir; }
    QLineEdit* cacheDir() const { return m_cacheDir; }
    QLineEdit* proxy() const { return m_proxy; }
    QPlainTextEdit* mirrors() const { return m_mirrors; }
    QDoubleSpinBox* probeTimeout() const { return m_probeTimeout; } // seconds
    QSpinBox* keepLaunches() const { return m_keepLaunches; }
    QCheckBox* openBrowser() const { return m_openBrowser; }
    QComboBox* language() const { return m_language; }
    QComboBox* theme() const { return m_theme; }

private:
    void updateWarnings();
    QWidget* folderRow(QLineEdit* edit);
    void addFolders(QFormLayout* form, const Settings& current);
    void addNetwork(QFormLayout* form, const Settings& current);
    void addBehaviour(QFormLayout* form, const Settings& current);
    void addLook(QFormLayout* form, const Settings& current);

    Settings m_base;
    QLineEdit* m_installDir = nullptr;
    QLineEdit* m_cacheDir = nullptr;
    QLabel* m_warnings = nullptr;
    QLineEdit* m_proxy = nullptr;
    QLineEdit* m_hfToken = nullptr;
    QPlainTextEdit* m_mirrors = nullptr;
    QDoubleSpinBox* m_probeTimeout = nullptr;
    QSpinBox* m_keepLaunches = nullptr;
    QCheckBox* m_openBrowser = nullptr;
    QComboBox* m_language = nullptr;
    QComboBox* m_theme = nullptr;
    QComboBox* m_share = nullptr;
};

} // namespace sp::gui
