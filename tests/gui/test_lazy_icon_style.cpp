// The application style's standard icons are read when first drawn (lazy_icon_style.cpp):
// the same images as the style's own, and nothing asked of the style before then.

#include "app/gui/widgets/lazy_icon_style.h"
#include "app/gui/widgets/style.h"

#include <QApplication>
#include <QIcon>
#include <QImage>
#include <QPainter>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QTest>
#include <memory>

using namespace sp::gui;

namespace {

// A style that counts how often it is asked for an icon.
class CountingStyle : public QProxyStyle
{
public:
    explicit CountingStyle(int& asked)
        : QProxyStyle(QStyleFactory::create(QStringLiteral("fusion"))), m_asked(asked)
    {}
    QIcon standardIcon(StandardPixmap which, const QStyleOption* option,
                       const QWidget* widget) const override
    {
        ++m_asked;
        return QProxyStyle::standardIcon(which, option, widget);
    }

private:
    int& m_asked;
};

QImage imageOf(const QIcon& icon, int side)
{
    return icon.pixmap(QSize(side, side)).toImage().convertToFormat(QImage::Format_ARGB32);
}

} // namespace

class TestLazyIconStyle : public QObject
{
    Q_OBJECT

private slots:
    void theSameImagesAsTheStyle()
    {
        std::unique_ptr<QStyle> plain(QStyleFactory::create(QStringLiteral("fusion")));
        std::unique_ptr<QStyle> lazy(style::createLazyIconStyle(QStringLiteral("fusion")));
        QVERIFY(lazy);
        int compared = 0;
        for (auto which : {QStyle::SP_ToolBarHorizontalExtensionButton,
                           QStyle::SP_ToolBarVerticalExtensionButton, QStyle::SP_MessageBoxWarning,
                           QStyle::SP_DialogOkButton, QStyle::SP_ArrowUp, QStyle::SP_DirIcon}) {
            const QIcon mine = lazy->standardIcon(which, nullptr, nullptr);
            const QIcon theirs = plain->standardIcon(which, nullptr, nullptr);
            QCOMPARE(mine.isNull(), theirs.isNull());
            QCOMPARE(mine.availableSizes(), theirs.availableSizes());
            for (int side : {8, 16, 32}) {
                QCOMPARE(mine.actualSize(QSize(side, side)), theirs.actualSize(QSize(side, side)));
                QCOMPARE(imageOf(mine, side), imageOf(theirs, side));
                compared += imageOf(theirs, side).isNull() ? 0 : 1;
            }
        }
        QVERIFY(compared >= 12); // images, not nulls compared with nulls
    }

    void theStyleIsAskedOnlyWhenTheIconIsDrawn()
    {
        int asked = 0;
        std::unique_ptr<QStyle> lazy(style::withLazyIcons(new CountingStyle(asked)));
        const QIcon icon =
            lazy->standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton, nullptr, nullptr);
        const QIcon copy = icon; // as QToolButton::setIcon keeps it
        QCOMPARE(asked, 0);
        QImage canvas(16, 16, QImage::Format_ARGB32);
        canvas.fill(Qt::transparent);
        QPainter painter(&canvas);
        copy.paint(&painter, QRect(0, 0, 16, 16));
        painter.end();
        QCOMPARE(asked, 1);
        QVERIFY(canvas != QImage(16, 16, QImage::Format_ARGB32)); // something was drawn
        (void)imageOf(copy, 16);
        QCOMPARE(asked, 1); // read once
    }

    void aPixmapAddedToACopyStaysWithTheCopy()
    {
        std::unique_ptr<QStyle> lazy(style::createLazyIconStyle(QStringLiteral("fusion")));
        const QIcon icon = lazy->standardIcon(QStyle::SP_DialogOkButton, nullptr, nullptr);
        QIcon copy = icon;
        QPixmap red(48, 48);
        red.fill(Qt::red);
        copy.addPixmap(red);
        QVERIFY(copy.availableSizes().contains(QSize(48, 48)));
        QVERIFY(!icon.availableSizes().contains(QSize(48, 48)));
    }

    void theApplicationStyleIsWrappedAndKeepsItsName()
    {
        style::applyTheme(QStringLiteral("dark"));
        auto* proxy = qobject_cast<QProxyStyle*>(QApplication::style());
        QVERIFY(proxy);
        QCOMPARE(proxy->baseStyle()->name().toLower(), QStringLiteral("fusion"));
        QStyle* before = QApplication::style();
        style::applyTheme(QStringLiteral("light")); // Fusion again: the style is kept
        QCOMPARE(QApplication::style(), before);
        QVERIFY(!QApplication::style()
                     ->standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton)
                     .isNull());
    }
};

QTEST_MAIN(TestLazyIconStyle)
#include "test_lazy_icon_style.moc"
