// The probe reads hipDeviceProp_t by byte offset. Check those offsets against
// the HIP headers where installed (Debian's libamdhip64-dev ships HIP 5, whose
// hipDeviceProp_t is the R0000 layout; HIP 6 headers also declare R0600), and
// the R0600 offsets against the field-by-field struct the fake runtime uses.

#include "detectors/probe/hip_layout.h"
#include "hip_props_r0600.h"

#include <QtTest>
#include <cstddef>

#if __has_include(<hip/hip_runtime_api.h>)
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#define HAVE_HIP_HEADER 1
#endif

namespace L = probe::hip_layout;

class TestHipLayout : public QObject
{
    Q_OBJECT

private slots:
    void r0600OffsetsMatchTheDeclaredStruct()
    {
        QCOMPARE(offsetof(FakeHipDevicePropR0600, name), L::r0600::name);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, totalGlobalMem), L::r0600::totalGlobalMem);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, multiProcessorCount),
                 L::r0600::multiProcessorCount);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, integrated), L::r0600::integrated);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, pciBusID), L::r0600::pciBusID);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, pciDeviceID), L::r0600::pciDeviceID);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, pciDomainID), L::r0600::pciDomainID);
        QCOMPARE(offsetof(FakeHipDevicePropR0600, gcnArchName), L::r0600::gcnArchName);
        // The offsets of hipDeviceProp_tR0600 in HIP 6's hip_runtime_api.h
        // (https://github.com/ROCm/HIP/blob/develop/include/hip/hip_runtime_api.h).
        QCOMPARE(L::r0600::gcnArchName, std::size_t(1160));
        QCOMPARE(L::r0600::multiProcessorCount, std::size_t(388));
        QVERIFY(sizeof(FakeHipDevicePropR0600) <= L::kBufferSize);
    }

    void offsetsMatchInstalledHipHeaders()
    {
#ifndef HAVE_HIP_HEADER
        QSKIP("HIP headers are not installed");
#else
#if HIP_VERSION_MAJOR >= 6
        QCOMPARE(offsetof(hipDeviceProp_tR0600, name), L::r0600::name);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, totalGlobalMem), L::r0600::totalGlobalMem);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, multiProcessorCount),
                 L::r0600::multiProcessorCount);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, integrated), L::r0600::integrated);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, pciBusID), L::r0600::pciBusID);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, pciDomainID), L::r0600::pciDomainID);
        QCOMPARE(offsetof(hipDeviceProp_tR0600, gcnArchName), L::r0600::gcnArchName);
        QCOMPARE(sizeof(hipDeviceProp_tR0600), sizeof(FakeHipDevicePropR0600));
        using R0000 = hipDeviceProp_tR0000;
#else
        using R0000 = hipDeviceProp_t;
#endif
        QCOMPARE(offsetof(R0000, name), L::r0000::name);
        QCOMPARE(offsetof(R0000, totalGlobalMem), L::r0000::totalGlobalMem);
        QCOMPARE(offsetof(R0000, multiProcessorCount), L::r0000::multiProcessorCount);
        QCOMPARE(offsetof(R0000, pciDomainID), L::r0000::pciDomainID);
        QCOMPARE(offsetof(R0000, pciBusID), L::r0000::pciBusID);
        QCOMPARE(offsetof(R0000, pciDeviceID), L::r0000::pciDeviceID);
        QCOMPARE(offsetof(R0000, gcnArchName), L::r0000::gcnArchName);
        QCOMPARE(offsetof(R0000, integrated), L::r0000::integrated);
        QVERIFY(sizeof(R0000) <= L::kBufferSize);
        QCOMPARE(sizeof(R0000::name), L::kNameSize);
        QCOMPARE(sizeof(R0000::gcnArchName), L::kGcnArchNameSize);
#endif
    }
};

QTEST_GUILESS_MAIN(TestHipLayout)
#include "test_hip_layout.moc"
