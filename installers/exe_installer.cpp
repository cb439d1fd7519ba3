#include "installers/exe_installer.h"

#include "core/paths.h"
#include "core/qt_text.h"

#include <QProcess>
#include <QStringList>
#include <thread>

#ifdef _WIN32
#include <shellapi.h>
#include <windows.h>
#endif

namespace sp {

namespace {

constexpr int kRebootRequired = 3010;   // ERROR_SUCCESS_REBOOT_REQUIRED
constexpr int kElevationRequired = 740; // ERROR_ELEVATION_REQUIRED

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

#ifdef _WIN32
// QProcess cannot raise a UAC prompt; ShellExecuteEx with "runas" can.
Expected<int> runElevated(const SilentInstall& s, const std::vector<std::string>& argv,
                          const CancelToken& cancel)
{
    QStringList quoted;
    for (const auto& a : argv)
        quoted << QLatin1Char('"') + QString::fromStdString(a) + QLatin1Char('"');
    const std::wstring file = s.installer.wstring();
    const std::wstring params = quoted.join(QLatin1Char(' ')).toStdWString();
    SHELLEXECUTEINFOW info{};
    info.cbSize = sizeof(info);
    info.fMask = SEE_MASK_NOCLOSEPROCESS | SEE_MASK_FLAG_NO_UI;
    info.lpVerb = L"runas";
    info.lpFile = file.c_str();
    info.lpParameters = params.c_str();
    info.nShow = SW_HIDE;
    if (!ShellExecuteExW(&info) || !info.hProcess)
        return Error::runtime(paths::toUtf8(s.installer) +
                              ": the elevation prompt was declined or failed (error " +
                              std::to_string(GetLastError()) + ")");
    const auto deadline = std::chrono::steady_clock::now() + s.timeout;
    DWORD wait = WAIT_TIMEOUT;
    while (wait == WAIT_TIMEOUT && !cancel.cancelled() &&
           std::chrono::steady_clock::now() < deadline)
        wait = WaitForSingleObject(info.hProcess, 200);
    if (wait == WAIT_TIMEOUT) {
        TerminateProcess(info.hProcess, 1);
        CloseHandle(info.hProcess);
        return cancel.cancelled() ? Error::cancelled("installer cancelled")
                                  : Error::runtime(paths::toUtf8(s.installer) + ": timed out");
    }
    DWORD code = 1;
    GetExitCodeProcess(info.hProcess, &code);
    CloseHandle(info.hProcess);
    return static_cast<int>(code);
}
#endif

} // namespace

std::vector<std::string> expandInstallerArgs(const SilentInstall& s)
{
    std::vector<std::string> out;
    for (const auto& a : s.args)
        out.push_back(replaceAll(replaceAll(a, "{log}", paths::toUtf8(s.logFile)), "{install_dir}",
                                 s.installDir));
    return out;
}

Expected<SilentInstallResult> runSilentInstaller(const SilentInstall& s, const CancelToken& cancel)
{
    SilentInstallResult result;
    result.argv = expandInstallerArgs(s);
    const std::string name = paths::toUtf8(s.installer.filename());
    const std::string logHint =
        s.logFile.empty() ? std::string() : " (log: " + paths::toUtf8(s.logFile) + ")";

    QStringList args;
    for (const auto& a : result.argv)
        args << QString::fromStdString(a);
    QProcess proc;
    proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    proc.setStandardOutputFile(QProcess::nullDevice());
    proc.start(qpath(s.installer), args);
    if (!proc.waitForStarted(10000))
        return Error::runtime(name +
                              ": cannot start the installer: " + proc.errorString().toStdString());
    const auto deadline = std::chrono::steady_clock::now() + s.timeout;
    while (!proc.waitForFinished(200)) {
        if (cancel.cancelled() || std::chrono::steady_clock::now() >= deadline) {
            proc.kill();
            proc.waitForFinished(5000);
            return cancel.cancelled() ? Error::cancelled(name + ": installer cancelled")
                                      : Error::runtime(name + ": installer timed out" + logHint);
        }
    }
    if (proc.exitStatus() != QProcess::NormalExit)
        return Error::runtime(name + ": installer crashed" + logHint);
    result.exitCode = proc.exitCode();
#ifdef _WIN32
    if (result.exitCode == kElevationRequired) {
        auto elevated = runElevated(s, result.argv, cancel);
        if (!elevated)
            return elevated.error();
        result.exitCode = *elevated;
    }
#endif
    result.rebootRequired = result.exitCode == kRebootRequired;
    if (result.exitCode != 0 && !result.rebootRequired)
        return Error::runtime(name + ": installer failed with exit code " +
                              std::to_string(result.exitCode) + logHint);
    if (!s.installDir.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(paths::fromUtf8(s.installDir), ec))
            return Error::runtime(name + ": installer finished but " + s.installDir +
                                  " does not exist" + logHint);
    }
    return result;
}

} // namespace sp
