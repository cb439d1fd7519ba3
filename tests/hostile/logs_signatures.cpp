// Issue 35, item 16: the prefilter and RE2 disagreed. RE2 reads a group of flags alone,
// "(?)", as matching nothing, so a '?' after it makes the character before it optional:
// "errorr(?)?" matches "error". The prefilter read "(?)" as an atom of its own and
// required "errorr", so `diagnose-log` never ran the signature on the line it matches.
// The attack: a catalog.d rule written that way, and a log with the line, through
// `diagnose-log` in process (what it matched is the point, not how the process ended).

#include "support/cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

class HostileLogsSignatures : public QObject
{
    Q_OBJECT
private slots:
    void item16_flagGroupSignatureIsNotSkippedByThePrefilter()
    {
        QTemporaryDir dir;
        const nlohmann::json catalog = {
            {"schema_version", 1},
            {"known_issues",
             {{{"id", "hostile-flag-group"},
               {"title", "A signature with a flag group"},
               {"signatures", {"rocblas_status_internal_errorr(?)?"}},
               {"remedy", {{"action", "info"}, {"text", "Read the rocBLAS log."}}}}}}};
        std::ofstream(dir.filePath(QStringLiteral("flag.json")).toStdString()) << catalog.dump();
        std::ofstream(dir.filePath(QStringLiteral("a.log")).toStdString())
            << "loading\nrocBLAS error: rocblas_status_internal_error in gemm\n";
        const auto r = sp::test::runCliInProcess(
            {QStringLiteral("diagnose-log"), dir.filePath(QStringLiteral("a.log")),
             QStringLiteral("--json"), QStringLiteral("--catalog-dir"), dir.path()});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        bool found = false;
        for (const auto& m : j["matches"])
            found = found || (m["known_issue"] == "hostile-flag-group" && m["line"] == 2);
        QVERIFY2(found, r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(HostileLogsSignatures)
#include "logs_signatures.moc"
