#pragma once
// A real nginx for the ledger's tests: WebDAV PUT under /ledger/ on a free loopback port,
// in a temporary folder (Debian's nginx-core has the module). Stopped when destroyed.

#include "tests/support/loopback.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sp::test {

// nginx with `dav_methods PUT` under /ledger/, in a temporary folder, on a free port.
class Nginx
{
public:
    explicit Nginx(const std::string& dir) : m_dir(dir), m_port(sp::test::freePort())
    {
        std::filesystem::create_directories(dir + "/www/ledger");
        std::filesystem::create_directories(dir + "/tmp");
        std::ofstream(dir + "/nginx.conf")
            << (::geteuid() == 0 ? "user root;\n" : "") << "daemon off;\npid " << dir
            << "/nginx.pid;\nerror_log " << dir << "/error.log;\nevents {}\nhttp {\n"
            << "  access_log off;\n  client_body_temp_path " << dir << "/tmp;\n"
            << "  server {\n    listen 127.0.0.1:" << m_port << ";\n"
            << "    location /ledger/ {\n      root " << dir << "/www;\n"
            << "      dav_methods PUT;\n      create_full_put_path on;\n    }\n  }\n}\n";
        const QString nginx = QStandardPaths::findExecutable(
            QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
        if (nginx.isEmpty())
            return;
        m_process.start(nginx, {QStringLiteral("-c"), QString::fromStdString(dir + "/nginx.conf"),
                                QStringLiteral("-p"), QString::fromStdString(dir)});
        m_started =
            m_process.waitForStarted() &&
            QTest::qWaitFor([&] { return std::filesystem::exists(dir + "/nginx.pid"); }, 10000);
    }
    ~Nginx()
    {
        m_process.terminate();
        m_process.waitForFinished(5000);
    }
    bool started() const { return m_started; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/ledger"; }
    std::size_t stored() const
    {
        std::size_t n = 0;
        for (const auto& e : std::filesystem::directory_iterator(m_dir + "/www/ledger"))
            n += e.path().extension() == ".json" ? 1 : 0;
        return n;
    }
    std::string folder() const { return m_dir + "/www/ledger"; }

private:
    std::string m_dir;
    std::uint16_t m_port;
    QProcess m_process;
    bool m_started = false;
};

} // namespace sp::test
