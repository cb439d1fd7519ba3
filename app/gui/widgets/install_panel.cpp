#include "app/gui/widgets/install_panel.h"

#include "app/gui/controllers/install_progress.h"
#include "app/gui/widgets/style.h"
#include "core/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace sp::gui {

namespace {

QString fmt(quint64 n)
{
    return QString::fromStdString(format::bytes(n));
}

// Bars count in thousandths, so a large download moves from its first megabyte.
int permille(quint64 done, quint64 total)
{
    return total ? int(std::min<quint64>(1000, done * 1000 / total)) : 0;
}

} // namespace

InstallPanel::InstallPanel(InstallProgress* job, QWidget* parent) : QFrame(parent), m_job(job)
{
    style::makeCard(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    m_heading = new QLabel(tr("Installing"), this);
    m_heading->setFont(style::titleFont(font(), 1.15));
    layout->addWidget(m_heading);
    auto* overallRow = new QHBoxLayout;
    m_overall = new QProgressBar(this);
    m_overall->setRange(0, 1000);
    m_cancel = new QPushButton(tr("Cancel"), this);
    overallRow->addWidget(m_overall, 1);
    overallRow->addWidget(m_cancel);
    layout->addLayout(overallRow);
    m_overallText = new QLabel(this);
    layout->addWidget(m_overallText);
    m_rowsLayout = new QVBoxLayout;
    m_rowsLayout->setSpacing(4);
    layout->addLayout(m_rowsLayout);
    m_step = new QLabel(this);
    m_step->setWordWrap(true);
    m_step->hide();
    layout->addWidget(m_step);
    layout->addStretch(1);
    connect(m_cancel, &QPushButton::clicked, this, &InstallPanel::cancelRequested);
    connect(m_job, &InstallProgress::progress, this, &InstallPanel::refresh);
}

int InstallPanel::overallPermille() const
{
    return m_overall->maximum() == 0 ? -1 : m_overall->value();
}

QString InstallPanel::overallLine() const
{
    return m_overallText->text();
}

void InstallPanel::showSteps(const QString& stack)
{
    m_heading->setText(tr("Setting up %1").arg(stack));
    m_overall->hide();
    m_overallText->hide();
    m_cancel->hide();
    for (const Row& r : m_rows) {
        r.label->hide();
        r.bar->hide();
    }
}

void InstallPanel::setStep(const QString& text)
{
    m_step->setText(text);
    m_step->setVisible(!text.isEmpty());
}

// "12 MiB of 55 MiB · 3.2 MB/s · 20 s left"; with a part of unknown size, what is known
// so far and that the time left is not known yet.
QString InstallPanel::overallText(const InstallSnapshot& s)
{
    QString text;
    if (s.total == 0)
        text = tr("%1 downloaded; the size is not known before the download").arg(fmt(s.received));
    else if (s.unsized == 0)
        text = tr("%1 of %2").arg(fmt(s.received), fmt(s.total));
    else
        text = tr("%1 of about %2 known so far, plus %n part(s) whose size is not known yet",
                  nullptr, s.unsized)
                   .arg(fmt(s.received), fmt(s.total));
    if (s.bytesPerSecond > 0)
        text += QStringLiteral("  ·  ") + QString::fromStdString(format::rate(s.bytesPerSecond));
    if (s.etaSeconds >= 0)
        text += QStringLiteral("  ·  ") +
                tr("%1 left").arg(QString::fromStdString(format::duration(s.etaSeconds)));
    else if (s.unsized > 0 && s.bytesPerSecond > 0)
        text += QStringLiteral("  ·  ") + tr("time left not known yet");
    return text;
}

void InstallPanel::refresh()
{
    const InstallSnapshot& s = m_job->snapshot();
    m_overall->show();
    m_overallText->show();
    m_cancel->show();
    m_cancel->setEnabled(m_job->isRunning());
    m_heading->setText(s.current.isEmpty() ? tr("Installing")
                                           : tr("Installing %1 (%2 of %3)")
                                                 .arg(m_name(s.current))
                                                 .arg(std::min(s.doneRuntimes + 1, s.runtimes))
                                                 .arg(s.runtimes));
    // No size known at all: a busy bar rather than one stuck at 0 %.
    m_overall->setRange(0, s.total ? 1000 : 0);
    m_overall->setValue(permille(s.knownReceived, s.total));
    m_overallText->setText(overallText(s));
    while (m_rows.size() < s.artifacts.size()) {
        Row r{new QLabel(this), new QProgressBar(this)};
        r.bar->setRange(0, 1000);
        r.bar->setTextVisible(false);
        r.bar->setMaximumHeight(8);
        m_rowsLayout->addWidget(r.label);
        m_rowsLayout->addWidget(r.bar);
        m_rows.push_back(r);
    }
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        m_rows[i].label->setVisible(i < s.artifacts.size());
        m_rows[i].bar->setVisible(i < s.artifacts.size());
    }
    for (qsizetype i = 0; i < s.artifacts.size(); ++i) {
        const ArtifactRow& a = s.artifacts[i];
        // "rocm%20libs.7z" is shown as the file is called.
        const QString file = QUrl::fromPercentEncoding(a.name.toUtf8());
        const QString part = m_name(a.runtime);
        QString line = QStringLiteral("%1 — %2").arg(part.isEmpty() ? file : part, fmt(a.received));
        if (a.total)
            line += QStringLiteral(" / ") + fmt(a.total);
        if (a.done)
            line += QStringLiteral("  ✓");
        else if (a.bytesPerSecond > 0) {
            line +=
                QStringLiteral("  ·  ") + QString::fromStdString(format::rate(a.bytesPerSecond));
            if (a.total > a.received)
                line += QStringLiteral("  ·  ") +
                        tr("%1 left").arg(QString::fromStdString(
                            format::duration(double(a.total - a.received) / a.bytesPerSecond)));
        }
        m_rows[i].label->setText(line);
        m_rows[i].bar->setValue(a.done ? 1000 : permille(a.received, a.total));
    }
}

} // namespace sp::gui
