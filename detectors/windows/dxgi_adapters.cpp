// DXGI's view of the display adapters: vendor/device/subsystem/revision as the
// driver reports them, dedicated memory and the LUID. Windows only.
#include "detectors/windows/adapters.h"
#include "detectors/windows/win_text.h"

#include <dxgi.h>
#include <iterator>

namespace sp::win {

namespace {

// Enough of ComPtr for two interfaces, without pulling in WRL (not in every
// MinGW release).
template <class T> class ComRef
{
public:
    ComRef() = default;
    ComRef(const ComRef&) = delete;
    ComRef& operator=(const ComRef&) = delete;
    ~ComRef() { reset(); }
    void reset()
    {
        if (m_p)
            m_p->Release();
        m_p = nullptr;
    }
    T** put()
    {
        reset();
        return &m_p;
    }
    T* operator->() const { return m_p; }

private:
    T* m_p = nullptr;
};

} // namespace

Expected<std::vector<WinAdapter>> enumerateDxgiAdapters()
{
    ComRef<IDXGIFactory1> factory;
    HRESULT hr =
        CreateDXGIFactory1(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(factory.put()));
    if (FAILED(hr))
        return Error::runtime("dxgi: CreateDXGIFactory1 failed: " + hresultText(hr));

    std::vector<WinAdapter> adapters;
    for (UINT i = 0;; ++i) {
        ComRef<IDXGIAdapter1> adapter;
        hr = factory->EnumAdapters1(i, adapter.put());
        if (hr == DXGI_ERROR_NOT_FOUND)
            break;
        if (FAILED(hr))
            return Error::runtime("dxgi: EnumAdapters1(" + std::to_string(i) +
                                  ") failed: " + hresultText(hr));
        DXGI_ADAPTER_DESC1 desc{};
        hr = adapter->GetDesc1(&desc);
        if (FAILED(hr))
            return Error::runtime("dxgi: GetDesc1(" + std::to_string(i) +
                                  ") failed: " + hresultText(hr));
        WinAdapter a;
        a.vendorId = desc.VendorId;
        a.deviceId = desc.DeviceId;
        a.subsysId = desc.SubSysId;
        a.revision = desc.Revision;
        a.dedicatedVideoMemory = desc.DedicatedVideoMemory;
        a.dedicatedSystemMemory = desc.DedicatedSystemMemory;
        a.sharedSystemMemory = desc.SharedSystemMemory;
        a.description = toUtf8Terminated(desc.Description, std::size(desc.Description));
        a.luid = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(desc.AdapterLuid.HighPart))
                  << 32) |
                 desc.AdapterLuid.LowPart;
        a.software = (desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) != 0;
        adapters.push_back(std::move(a));
    }
    return adapters;
}

} // namespace sp::win
