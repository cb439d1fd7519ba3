// The application's style with its standard icons read when first drawn, not when asked
// for: see lazy_icon_style.cpp.
#pragma once

#include <QString>

class QStyle;

namespace sp::gui::style {

// The style named NAME ("fusion", "windowsvista", ...) wrapped so that standardIcon()
// returns at once; the icon's images are read on first use. Null if there is no such
// style.
QStyle* createLazyIconStyle(const QString& name);

// BASE (owned from now on) wrapped the same way.
QStyle* withLazyIcons(QStyle* base);

} // namespace sp::gui::style
