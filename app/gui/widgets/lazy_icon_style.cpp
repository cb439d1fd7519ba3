// Why: QMenuBar's constructor asks the style for its overflow button's icon, and Qt's
// common style answers with QIcon::addFile on its PNGs, whose QImageReader::format()
// loads every image-format plugin (gif, ico, jpeg and their libraries) to probe the file.
// That was 0.7 ms of the 8 ms before the window's first paint, for a button shown only
// when the menus do not fit (callgrind: 2.6 M of the window's instructions). The icon
// engine below asks the real style on first use and forwards everything to its answer.

#include "app/gui/widgets/lazy_icon_style.h"

#include <QIconEngine>
#include <QPointer>
#include <QProxyStyle>
#include <QStyleFactory>
#include <functional>
#include <optional>

namespace sp::gui::style {

namespace {

class LazyIconEngine : public QIconEngine
{
public:
    explicit LazyIconEngine(std::function<QIcon()> make) : m_make(std::move(make)) {}

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state) override
    {
        real().paint(painter, rect, Qt::AlignCenter, mode, state);
    }
    QSize actualSize(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return real().actualSize(size, mode, state);
    }
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return real().pixmap(size, mode, state);
    }
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state,
                         qreal scale) override
    {
        return real().pixmap(size, scale, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override
    {
        return real().availableSizes(mode, state);
    }
    void addPixmap(const QPixmap& pixmap, QIcon::Mode mode, QIcon::State state) override
    {
        real().addPixmap(pixmap, mode, state);
    }
    void addFile(const QString& file, const QSize& size, QIcon::Mode mode,
                 QIcon::State state) override
    {
        real().addFile(file, size, mode, state);
    }
    bool isNull() override { return real().isNull(); }
    QString iconName() override { return real().name(); }
    QString key() const override { return QStringLiteral("sp-lazy"); }
    QIconEngine* clone() const override
    {
        auto* copy = new LazyIconEngine(m_make);
        copy->m_icon = m_icon;
        return copy;
    }

private:
    QIcon& real()
    {
        if (!m_icon)
            m_icon = m_make();
        return *m_icon;
    }

    std::function<QIcon()> m_make;
    std::optional<QIcon> m_icon;
};

class LazyIconStyle : public QProxyStyle
{
public:
    explicit LazyIconStyle(QStyle* base) : QProxyStyle(base) {}

    QIcon standardIcon(StandardPixmap which, const QStyleOption* option,
                       const QWidget* widget) const override
    {
        // An option lives on the caller's stack and cannot be kept: with one, the icon is
        // read now. The widget only picks the layout direction; it is held weakly.
        if (option)
            return QProxyStyle::standardIcon(which, option, widget);
        QPointer<const QWidget> owner(widget);
        QPointer<QStyle> base(baseStyle());
        return QIcon(new LazyIconEngine([base, owner, which] {
            return base ? base->standardIcon(which, nullptr, owner.data()) : QIcon();
        }));
    }
};

} // namespace

QStyle* withLazyIcons(QStyle* base)
{
    return new LazyIconStyle(base);
}

QStyle* createLazyIconStyle(const QString& name)
{
    QStyle* base = QStyleFactory::create(name);
    return base ? withLazyIcons(base) : nullptr;
}

} // namespace sp::gui::style
