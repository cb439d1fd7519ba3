#pragma once
// The machine the window tests detect on a fake sysfs tree: an APU (gfx90c) and an
// RX 6700 XT (gfx1031), the discrete card being the one to choose.

#include "detectors/fake_sysfs.h"

namespace sp::test {

inline void addMachine(FakeSysfs& sys)
{
    FakeSysfs::Card apu;
    apu.index = 0;
    apu.bus = "0000:05:00.0";
    apu.device = "0x1638";
    apu.revision = "0xc5";
    apu.vramBytes = "536870912";
    apu.gttBytes = "16777216000";
    apu.bootVga = "0";
    sys.addCard(apu);
    FakeSysfs::Card dgpu;
    dgpu.index = 1;
    dgpu.bus = "0000:03:00.0";
    dgpu.device = "0x73df";
    dgpu.revision = "0xc1";
    dgpu.vramBytes = "12868124672";
    dgpu.gttBytes = "16777216000";
    sys.addCard(dgpu);
    sys.addCpuNode(0);
    sys.addGpuNode(1, 90012, 0x1638, 0x500, 16);
    sys.addGpuNode(2, 100301, 0x73df, 0x300, 80);
}

} // namespace sp::test
