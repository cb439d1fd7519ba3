#pragma once
// The status bar's "Knowledge from 2026-11-20 (feed 142)": which catalog the window
// plans from, and the once-a-day feed check (installers/feed_daily_check.h). Started
// after the first paint; the check runs off the GUI thread, so it never delays it. A
// newer feed it installs is used from the next start (the window keeps the plans it
// showed); the label says so.

class QMainWindow;

namespace sp::gui {

void startKnowledgeStatus(QMainWindow& window);

} // namespace sp::gui
