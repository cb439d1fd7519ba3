// The pure half of the Windows detectors (hardware-id parser, home
// classification, DXGI/SetupAPI combination), built natively on Linux.
#include "pure_checks.h"

#include <QTest>

using namespace sp::wintest;

namespace {

QByteArray joined(const std::vector<std::string>& failures)
{
    QByteArray out;
    for (const auto& f : failures)
        out += QByteArray::fromStdString(f) + '\n';
    return out;
}

} // namespace

class TestWindowsPure : public QObject
{
    Q_OBJECT
private slots:
    void hardwareIds()
    {
        std::vector<std::string> failures;
        QVERIFY(checkHardwareIds(failures) > 20);
        QVERIFY2(failures.empty(), joined(failures).constData());
    }
    void homeClassification()
    {
        std::vector<std::string> failures;
        QVERIFY(checkHomeClassification(failures) > 20);
        QVERIFY2(failures.empty(), joined(failures).constData());
    }
    void combine()
    {
        std::vector<std::string> failures;
        QVERIFY(checkCombine(failures) > 15);
        QVERIFY2(failures.empty(), joined(failures).constData());
    }
};

QTEST_GUILESS_MAIN(TestWindowsPure)
#include "test_windows_pure.moc"
