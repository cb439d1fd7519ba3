#include "app/gui/widgets/share_dialog.h"

#include "app/gui/widgets/style.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sp::gui {

ShareDialog::ShareDialog(const QString& question, const QString& record, bool viaBrowser,
                         QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Share this result?"));
    resize(640, 520);
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(question, this);
    title->setFont(style::titleFont(font(), 1.15));
    title->setWordWrap(true);
    layout->addWidget(title);
    auto* why = new QLabel(tr("Results from many PCs decide which stacks are marked as proven "
                              "for each card. This is exactly what would leave this PC: no name, "
                              "folder, host name, token or model name."),
                           this);
    why->setWordWrap(true);
    layout->addWidget(why);
    if (viaBrowser) {
        auto* how = new QLabel(tr("“Share” opens a report form in your web browser with this text "
                                  "filled in; you send it from there."),
                               this);
        how->setWordWrap(true);
        layout->addWidget(how);
    }
    auto* text = new QPlainTextEdit(record, this);
    text->setReadOnly(true);
    text->setFont(style::monoFont());
    text->setAccessibleName(tr("The result as it would be sent"));
    layout->addWidget(text, 1);
    auto* buttons = new QDialogButtonBox(this);
    const std::pair<QString, ShareAnswer> answers[] = {{tr("Share"), ShareAnswer::Share},
                                                       {tr("Not now"), ShareAnswer::NotNow},
                                                       {tr("Always share"), ShareAnswer::Always},
                                                       {tr("Never ask"), ShareAnswer::Never}};
    for (const auto& [label, value] : answers) {
        QPushButton* b =
            buttons->addButton(label, value == ShareAnswer::Share ? QDialogButtonBox::AcceptRole
                                                                  : QDialogButtonBox::ActionRole);
        connect(b, &QPushButton::clicked, this, [this, answer = value] {
            m_answer = answer;
            accept();
        });
    }
    layout->addWidget(buttons);
}

} // namespace sp::gui
