// SetupAPI's view of the display class plus each device's driver key in the
// registry. Neither starts or talks to the driver, so this works on a machine
// whose GPU driver is broken (code 43) or not installed yet. Windows only.
#include "detectors/windows/adapters.h"
#include "detectors/windows/hardware_id.h"
#include "detectors/windows/win_text.h"

// setupapi.h needs the full windows.h (WIN32_LEAN_AND_MEAN is fine).
#include <cfgmgr32.h>
#include <setupapi.h>
#include <vector>

// CM_Get_DevNode_Status: MinGW's setupapi import library has it, MSVC's SDK
// keeps it in cfgmgr32.lib.
#ifdef _MSC_VER
#pragma comment(lib, "cfgmgr32.lib")
#endif

namespace sp::win {

namespace {

// {4d36e968-e325-11ce-bfc1-08002be10318}: GUID_DEVCLASS_DISPLAY, spelled out so
// that no INITGUID dance is needed.
const GUID kDisplayClass = {
    0x4d36e968, 0xe325, 0x11ce, {0xbf, 0xc1, 0x08, 0x00, 0x2b, 0xe1, 0x03, 0x18}};

class DevInfoList
{
public:
    explicit DevInfoList(HDEVINFO h) : m_h(h) {}
    DevInfoList(const DevInfoList&) = delete;
    DevInfoList& operator=(const DevInfoList&) = delete;
    ~DevInfoList()
    {
        if (m_h != INVALID_HANDLE_VALUE)
            SetupDiDestroyDeviceInfoList(m_h);
    }
    HDEVINFO get() const { return m_h; }

private:
    HDEVINFO m_h;
};

class RegKey
{
public:
    explicit RegKey(HKEY h) : m_h(h) {}
    RegKey(const RegKey&) = delete;
    RegKey& operator=(const RegKey&) = delete;
    ~RegKey()
    {
        if (valid())
            RegCloseKey(m_h);
    }
    bool valid() const { return m_h != nullptr && m_h != INVALID_HANDLE_VALUE; }
    HKEY get() const { return m_h; }

private:
    HKEY m_h;
};

std::vector<BYTE> deviceProperty(HDEVINFO devs, SP_DEVINFO_DATA& info, DWORD property, DWORD* type)
{
    DWORD size = 0;
    SetupDiGetDeviceRegistryPropertyW(devs, &info, property, type, nullptr, 0, &size);
    if (size == 0)
        return {};
    std::vector<BYTE> buf(size + 2 * sizeof(wchar_t), 0); // room for missing terminators
    if (!SetupDiGetDeviceRegistryPropertyW(devs, &info, property, type, buf.data(), size, &size))
        return {};
    return buf;
}

std::vector<std::string> multiSz(const std::vector<BYTE>& buf)
{
    std::vector<std::string> out;
    const auto* w = reinterpret_cast<const wchar_t*>(buf.data());
    const std::size_t n = buf.size() / sizeof(wchar_t);
    std::size_t i = 0;
    while (i < n && w[i] != L'\0') {
        std::size_t len = 0;
        while (i + len < n && w[i + len] != L'\0')
            ++len;
        out.push_back(toUtf8(std::wstring_view(w + i, len)));
        i += len + 1;
    }
    return out;
}

std::string stringProperty(HDEVINFO devs, SP_DEVINFO_DATA& info, DWORD property)
{
    DWORD type = 0;
    const auto buf = deviceProperty(devs, info, property, &type);
    if (buf.empty() || (type != REG_SZ && type != REG_MULTI_SZ))
        return {};
    return toUtf8Terminated(reinterpret_cast<const wchar_t*>(buf.data()),
                            buf.size() / sizeof(wchar_t));
}

std::optional<std::uint32_t> dwordProperty(HDEVINFO devs, SP_DEVINFO_DATA& info, DWORD property)
{
    DWORD type = 0;
    DWORD value = 0;
    if (!SetupDiGetDeviceRegistryPropertyW(
            devs, &info, property, &type, reinterpret_cast<BYTE*>(&value), sizeof value, nullptr) ||
        type != REG_DWORD)
        return std::nullopt;
    return value;
}

std::vector<BYTE> registryValue(HKEY key, const wchar_t* name, DWORD* type)
{
    DWORD size = 0;
    if (RegQueryValueExW(key, name, nullptr, type, nullptr, &size) != ERROR_SUCCESS || size == 0)
        return {};
    std::vector<BYTE> buf(size + 2 * sizeof(wchar_t), 0);
    if (RegQueryValueExW(key, name, nullptr, type, buf.data(), &size) != ERROR_SUCCESS)
        return {};
    buf.resize(size + 2 * sizeof(wchar_t));
    return buf;
}

std::string registryString(HKEY key, const wchar_t* name)
{
    DWORD type = 0;
    const auto buf = registryValue(key, name, &type);
    if (buf.empty() || type != REG_SZ)
        return {};
    return toUtf8Terminated(reinterpret_cast<const wchar_t*>(buf.data()),
                            buf.size() / sizeof(wchar_t));
}

// qwMemorySize (REG_QWORD) is exact; older drivers only write MemorySize as a
// REG_DWORD or 4-byte REG_BINARY, which overflows above 4 GiB.
std::optional<std::uint64_t> registryMemorySize(HKEY key)
{
    DWORD type = 0;
    DWORD size = sizeof(std::uint64_t);
    std::uint64_t q = 0;
    if (RegQueryValueExW(key, L"HardwareInformation.qwMemorySize", nullptr, &type,
                         reinterpret_cast<BYTE*>(&q), &size) == ERROR_SUCCESS &&
        (type == REG_QWORD || type == REG_BINARY) && size == sizeof q && q > 0)
        return q;

    unsigned char raw[8] = {};
    size = sizeof raw;
    if (RegQueryValueExW(key, L"HardwareInformation.MemorySize", nullptr, &type, raw, &size) !=
        ERROR_SUCCESS)
        return std::nullopt;
    if (type != REG_DWORD && type != REG_BINARY && type != REG_QWORD)
        return std::nullopt;
    return memorySizeFromRegistryBytes(raw, size);
}

void readDriverKey(HDEVINFO devs, SP_DEVINFO_DATA& info, WinDisplayDevice& d)
{
    RegKey key(SetupDiOpenDevRegKey(devs, &info, DICS_FLAG_GLOBAL, 0, DIREG_DRV, KEY_READ));
    if (!key.valid())
        return; // no driver installed yet: the device still counts
    d.registryRead = true;
    d.driverDesc = registryString(key.get(), L"DriverDesc");
    d.driverVersion = registryString(key.get(), L"DriverVersion");
    d.memorySize = registryMemorySize(key.get());
}

} // namespace

Expected<std::vector<WinDisplayDevice>> enumerateDisplayDevices()
{
    DevInfoList devs(SetupDiGetClassDevsW(&kDisplayClass, nullptr, nullptr, DIGCF_PRESENT));
    if (devs.get() == INVALID_HANDLE_VALUE)
        return Error::runtime("setupapi: SetupDiGetClassDevsW(display) failed: error " +
                              std::to_string(GetLastError()));

    std::vector<WinDisplayDevice> out;
    for (DWORD i = 0;; ++i) {
        SP_DEVINFO_DATA info{};
        info.cbSize = sizeof info;
        if (!SetupDiEnumDeviceInfo(devs.get(), i, &info)) {
            const DWORD err = GetLastError();
            if (err == ERROR_NO_MORE_ITEMS)
                break;
            return Error::runtime("setupapi: SetupDiEnumDeviceInfo(" + std::to_string(i) +
                                  ") failed: error " + std::to_string(err));
        }
        WinDisplayDevice d;
        wchar_t instance[MAX_DEVICE_ID_LEN + 1] = {};
        if (SetupDiGetDeviceInstanceIdW(devs.get(), &info, instance, MAX_DEVICE_ID_LEN, nullptr))
            d.instanceId = toUtf8Terminated(instance, MAX_DEVICE_ID_LEN);
        DWORD type = 0;
        d.hardwareIds = multiSz(deviceProperty(devs.get(), info, SPDRP_HARDWAREID, &type));
        d.deviceDesc = stringProperty(devs.get(), info, SPDRP_DEVICEDESC);
        d.busNumber = dwordProperty(devs.get(), info, SPDRP_BUSNUMBER);
        d.address = dwordProperty(devs.get(), info, SPDRP_ADDRESS);
        ULONG status = 0;
        ULONG problem = 0;
        if (CM_Get_DevNode_Status(&status, &problem, info.DevInst, 0) == CR_SUCCESS &&
            (status & DN_HAS_PROBLEM) != 0)
            d.problemCode = problem;
        readDriverKey(devs.get(), info, d);
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace sp::win
