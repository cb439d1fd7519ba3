// The baseline of bench_gui_startup: the smallest Qt Widgets main window that paints
// something, printing the milliseconds from main() to its first paint, then quitting.
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QScreen>
#include <QTimer>
#include <cstdio>

namespace {

class Window : public QMainWindow
{
public:
    explicit Window(QElapsedTimer& t) : m_t(t)
    {
        auto* label = new QLabel(QStringLiteral("minimal"), this);
        setCentralWidget(label);
        label->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint && !m_done) {
            m_done = true;
            QTimer::singleShot(0, this, [this] {
                std::printf("first-paint-ms %lld\n", static_cast<long long>(m_t.elapsed()));
                std::fflush(stdout);
                QApplication::quit();
            });
        }
        return QMainWindow::eventFilter(o, e);
    }

private:
    QElapsedTimer& m_t;
    bool m_done = false;
};

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer t;
    t.start();
    QApplication app(argc, argv);
    Window w(t);
    // As StackPilot sizes its window: its own size, or 90 % of the screen's free area.
    const QSize free = QApplication::primaryScreen()->availableSize() * 0.9;
    w.resize(QSize(1180, 780).boundedTo(free));
    w.show();
    return QApplication::exec();
}
