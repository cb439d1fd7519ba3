// Issue 20 (second hostile pass), item 7's terminal injection and item 9's console
// findings, through the real stackpilot-cli on a real pseudo-terminal: a workload's OSC 52
// clipboard write, title change, screen clear, DCS and C1 codes, an escape stripped just
// before a multi-byte character, a progress line ended by '\r', and "Step 0/2 skipped".

#include "hostile_support.h"

#include <QElapsedTimer>
#include <QTest>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sp::hostile;

namespace {

// Runs the CLI with `args` on a new pseudo-terminal (so it knows it prints to a
// terminal) and returns everything the terminal received; empty after 30 s.
std::string onTerminal(const ShellWorld& w, const QStringList& args)
{
    std::vector<std::string> argStore{cliPath().toStdString()};
    for (const QString& a : args)
        argStore.push_back(a.toStdString());
    std::vector<std::string> envStore;
    for (const QString& kv : w.env.toStringList())
        envStore.push_back(kv.toStdString());
    std::vector<char*> argv, envp;
    for (auto& a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    if (pid < 0)
        return {};
    std::string out;
    char buf[4096];
    QElapsedTimer t;
    t.start();
    for (ssize_t n; t.elapsed() < 30000 && (n = ::read(master, buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<std::size_t>(n)); // EIO once the CLI has gone
    ::close(master);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return out;
}

bool validUtf8(const std::string& s)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c < 0x80         ? 1
                                : (c >> 5) == 6  ? 2
                                : (c >> 4) == 14 ? 3
                                : (c >> 3) == 30 ? 4
                                                 : 0;
        if (len == 0 || i + len > s.size())
            return false;
        for (std::size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

// The first escape sequence in `s` that is not an SGR colour ("ESC [ digits ; m").
std::string firstNonSgrEscape(const std::string& s)
{
    for (std::size_t i = s.find('\x1b'); i != std::string::npos; i = s.find('\x1b', i + 1)) {
        std::size_t k = i + 1;
        if (k < s.size() && s[k] == '[') {
            ++k;
            while (k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == ';'))
                ++k;
            if (k < s.size() && s[k] == 'm')
                continue;
        }
        return s.substr(i, 12);
    }
    return {};
}

} // namespace

class Pass2Terminal : public QObject
{
    Q_OBJECT

private slots:
    // On a terminal, `launch` passed the workload's OSC 52 (clipboard write), OSC 0
    // (title), screen clears, DCS and C1 codes straight through.
    void pass2_osc52NeverReachesTheTerminal()
    {
        ShellWorld w;
        w.write("printf 'clip \\033]52;c;cHduZWQ=\\007 title \\033]0;pwned\\007 clear \\033[2J "
                "dcs \\033P1$qm\\033\\\\ c1 \\302\\233''2J \\033[31mred\\033[0m end\\n'");
        const std::string out = onTerminal(w, w.launchArgs());
        QVERIFY2(out.find(" end") != std::string::npos, out.c_str());
        QVERIFY2(firstNonSgrEscape(out).empty(), firstNonSgrEscape(out).c_str());
        QVERIFY(out.find('\x07') == std::string::npos);
        QVERIFY(out.find("\xc2\x9b") == std::string::npos);
        QVERIFY2(out.find("\\x1b]52;c;cHduZWQ=") != std::string::npos, out.c_str()); // shown
        QVERIFY2(out.find("\x1b[31mred\x1b[0m") != std::string::npos, out.c_str());  // colours stay
    }

    // Stripping an escape right before a multi-byte character corrupted the UTF-8.
    void pass2_strippingAnEscapeKeepsUtf8Valid()
    {
        ShellWorld w;
        w.write("printf 'a \\033\\303\\251t\\303\\251 b \\033[31m\\346\\230\\276\\033]0;x\\007"
                "\\345\\215\\241 end\\n'");
        const std::string tty = onTerminal(w, w.launchArgs());
        QVERIFY2(tty.find(" end") != std::string::npos, tty.c_str());
        QVERIFY2(validUtf8(tty), tty.c_str());
        QVERIFY2(tty.find("\xc3\xa9t\xc3\xa9") != std::string::npos, tty.c_str());
        QVERIFY2(tty.find("\xe5\x8d\xa1 end") != std::string::npos, tty.c_str());
        // The JSON events and the log on disk are valid UTF-8 too.
        const Run json = w.cli(w.launchArgs({QStringLiteral("--json")}));
        QVERIFY2(validUtf8(json.out) && json.out.find("\xc3\xa9t\xc3\xa9") != std::string::npos,
                 json.out.c_str());
        for (const auto& log : w.launchFiles(".log"))
            QVERIFY2(validUtf8(readAll(log)), log.c_str());
    }

    // A progress line ended by '\r' stayed invisible until a newline came.
    void pass2_aCarriageReturnLineIsShownAtOnce()
    {
        ShellWorld w;
        w.write("printf 'progress 50%%\\r'; sleep 6; echo finished");
        QProcess p;
        p.setProcessEnvironment(w.env);
        p.start(cliPath(), w.launchArgs({QStringLiteral("--json")}));
        QVERIFY(p.waitForStarted());
        QByteArray out;
        const bool shown = pollUntil(
            [&] {
                p.waitForReadyRead(20);
                out += p.readAllStandardOutput();
                return out.contains("progress 50%");
            },
            20000); // from the CLI's start, on a loaded machine; the 6 s pause decides
        const bool early = !out.contains("finished");
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(shown && early, out.constData());
    }

    // The second launch said "Step 0/2 skipped".
    void pass2_skippedStepsAreNotCountedFromZero()
    {
        ShellWorld w;
        w.write("exit 0",
                nlohmann::json::object({{"steps", {{"sh", "-c", "true"}, {"sh", "-c", "true"}}}}));
        const Run first = w.cli(w.launchArgs());
        QVERIFY2(first.rc == 0, first.err.c_str());
        QVERIFY2(first.out.find("==> Step 1/2") != std::string::npos &&
                     first.out.find("==> Step 2/2") != std::string::npos,
                 first.out.c_str());
        const Run second = w.cli(w.launchArgs());
        QVERIFY2(second.out.find("==> Setup steps skipped: done before") != std::string::npos,
                 second.out.c_str());
        QVERIFY2((first.out + second.out).find("Step 0/") == std::string::npos, second.out.c_str());
    }
};

QTEST_GUILESS_MAIN(Pass2Terminal)
#include "pass2_terminal.moc"
