#pragma once
// A shared cancellation flag for long work (installs, launches, steps): copies observe
// the same flag, so a front end keeps one copy to press Cancel while the worker polls
// another. A default-constructed token can still be cancelled by whoever holds a copy.

#include <atomic>
#include <memory>

namespace sp {

class CancelToken
{
public:
    CancelToken() : m_flag(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() const { m_flag->store(true); }
    bool cancelled() const { return m_flag->load(); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace sp
