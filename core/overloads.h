#pragma once
// std::visit with one lambda per alternative: std::visit(Overloads{[](const A&) {...},
// [](const B&) {...}}, variant).

namespace sp {

template <class... F> struct Overloads : F...
{
    using F::operator()...;
};
template <class... F> Overloads(F...) -> Overloads<F...>;

} // namespace sp
