#pragma once
// "Help other owners of a Radeon RX 6750 XT: share this result?" (issue 34): the shared
// record exactly as it would leave the PC, and four answers: Share, Not now (asked again
// for another stack or card only), Always share, Never ask.

#include "app/gui/controllers/app_controller.h"

#include <QDialog>

namespace sp::gui {

class ShareDialog : public QDialog
{
    Q_OBJECT
public:
    // `viaBrowser`: Share opens the feed's report form in the browser (no ledger).
    ShareDialog(const QString& question, const QString& record, bool viaBrowser,
                QWidget* parent = nullptr);
    ShareAnswer answer() const { return m_answer; }

private:
    ShareAnswer m_answer = ShareAnswer::NotNow; // closing the dialog is "Not now"
};

} // namespace sp::gui
