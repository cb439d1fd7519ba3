#pragma once
// A value or an error a user can act on. std::expected is C++23; the toolchains we
// target (g++ 12, MinGW 12, MSVC in C++20 mode) do not all ship it, so this is the
// small subset we use. [[nodiscard]]: a result that is dropped is an error that is lost.

#include "core/failure_cause.h"

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace sp {

enum class ErrorCode
{
    Runtime = 1,      // exit 1: something failed while doing the work
    Usage = 2,        // exit 2: the command line was wrong
    InvalidInput = 3, // exit 3: bad JSON, bad catalog, bad archive
    Cancelled = 4,    // the CLI maps it to exit 1 (app/cli/command.h exitCodeFor)
};

struct Error
{
    ErrorCode code = ErrorCode::Runtime;
    // One line, naming the file and position where there is one: "file:line:col: reason".
    std::string message;
    // Why, set where the failure happens (core/failure_cause.h); the words a user reads
    // come from it. Code that re-words an error copies it (prefixed) to keep the cause.
    Cause cause = Cause::Unknown;

    static Error runtime(std::string m) { return {ErrorCode::Runtime, std::move(m)}; }
    static Error usage(std::string m) { return {ErrorCode::Usage, std::move(m)}; }
    static Error invalid(std::string m) { return {ErrorCode::InvalidInput, std::move(m)}; }
    static Error cancelled(std::string m = "cancelled")
    {
        return {ErrorCode::Cancelled, std::move(m), Cause::Cancelled};
    }

    // The same error with its cause: Error::runtime("...").withCause(Cause::Network).
    Error withCause(Cause c) const
    {
        Error e = *this;
        e.cause = c;
        return e;
    }
    // The same error (code and cause) with `context` before its message.
    Error prefixed(const std::string& context) const
    {
        Error e = *this;
        e.message = context + e.message;
        return e;
    }
};

template <class T> class [[nodiscard]] Expected
{
public:
    Expected(T value) : m_v(std::move(value)) {}
    Expected(Error error) : m_v(std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<0>(m_v);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_v));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const
    {
        assert(!ok());
        return std::get<1>(m_v);
    }

private:
    std::variant<T, Error> m_v;
};

template <> class [[nodiscard]] Expected<void>
{
public:
    Expected() = default;
    Expected(Error error) : m_error(std::move(error)), m_ok(false) {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return ok(); }
    const Error& error() const
    {
        assert(!ok());
        return m_error;
    }

private:
    Error m_error;
    bool m_ok = true;
};

} // namespace sp
