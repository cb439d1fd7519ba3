// Start-up: from starting the process to its first painted main window, for
// `stackpilot --hardware SNAPSHOT` and for a minimal Qt Widgets window built here
// (bench_minimal_window), both on the offscreen platform, 15 runs each, interleaved,
// in the same run. Each program prints "first-paint-ms N" (measured from main())
// when its window first paints, and quits; this program also times the whole
// process from QProcess::start to that line.
//
// Target (issue 24, after "The desktop app"'s 1.5): median(stackpilot) / median(minimal)
// <= 1.3. Printed with both figures; not asserted (a loaded machine moves it).

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr int kRuns = 15;

struct Times
{
    std::vector<qint64> wall;   // process start to the printed line
    std::vector<qint64> inside; // what the program measured from main()
};

bool once(const QString& program, const QStringList& args, const QProcessEnvironment& env, Times& t)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer clock;
    clock.start();
    p.start(program, args);
    QByteArray out;
    while (!out.contains("first-paint-ms")) {
        if (!p.waitForReadyRead(20000))
            return false;
        out += p.readAllStandardOutput();
    }
    t.wall.push_back(clock.elapsed());
    const auto at = out.indexOf("first-paint-ms ");
    t.inside.push_back(out.mid(at + 15).trimmed().split('\n').front().toLongLong());
    p.waitForFinished(10000);
    return true;
}

qint64 median(std::vector<qint64> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("STACKPILOT_HOME"), home.path());
    const QString app1 = QStringLiteral(STACKPILOT_BINARY_DIR "/bin/stackpilot");
    const QStringList args1 = {
        QStringLiteral("--hardware"),
        QStringLiteral(STACKPILOT_SOURCE_DIR "/tests/gui/fixtures/seed000-windows-rx6750xt.json"),
        QStringLiteral("--print-first-paint")};
    const QString app2 = QStringLiteral(MINIMAL_WINDOW);
    Times ours, minimal;
    for (int i = 0; i < kRuns; ++i) {
        if (!once(app1, args1, env, ours) || !once(app2, {}, env, minimal)) {
            std::printf("a program did not report its first paint\n");
            return 1;
        }
    }
    const double ratio =
        double(median(ours.wall)) / double(std::max<qint64>(1, median(minimal.wall)));
    std::printf("first painted window, median of %d runs (process start -> paint; from main()):\n",
                kRuns);
    std::printf("  stackpilot --hardware: %lld ms (%lld ms from main)\n",
                static_cast<long long>(median(ours.wall)),
                static_cast<long long>(median(ours.inside)));
    std::printf("  minimal Qt window:     %lld ms (%lld ms from main)\n",
                static_cast<long long>(median(minimal.wall)),
                static_cast<long long>(median(minimal.inside)));
    std::printf("  ratio %.2f (target <= 1.3: %s)\n", ratio, ratio <= 1.3 ? "met" : "NOT met");
    return 0;
}
