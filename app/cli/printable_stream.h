#pragma once
// An ostream that passes everything through sp::PrintableFilter to another stream:
// verbs that print what drivers, catalogs and logs said (detect, plan, profiles,
// diagnose-log) write their human output through it.

#include "core/text.h"

#include <ostream>
#include <streambuf>

namespace sp::cli {

class PrintableStream : public std::ostream
{
public:
    explicit PrintableStream(std::ostream& target) : std::ostream(&m_buf), m_buf(target) {}
    ~PrintableStream() override { m_buf.close(); }

private:
    class Buf : public std::streambuf
    {
    public:
        explicit Buf(std::ostream& target) : m_target(target) {}
        void close()
        {
            m_target << m_filter.finish();
            m_target.flush();
        }

    protected:
        int_type overflow(int_type c) override
        {
            if (c != traits_type::eof()) {
                const char ch = traits_type::to_char_type(c);
                m_target << m_filter.feed(std::string_view(&ch, 1));
            }
            return traits_type::not_eof(c);
        }
        std::streamsize xsputn(const char* s, std::streamsize n) override
        {
            m_target << m_filter.feed(std::string_view(s, static_cast<std::size_t>(n)));
            return n;
        }
        int sync() override
        {
            m_target.flush();
            return 0;
        }

    private:
        std::ostream& m_target;
        PrintableFilter m_filter;
    };
    Buf m_buf;
};

} // namespace sp::cli
