#include "app/gui/models/plain_words.h"

#include <QCoreApplication>
#include <QDate>
#include <QDateTime>
#include <QLocale>

namespace sp::gui {

namespace {

QString daysAgo(const std::string& iso, const QDate& today)
{
    const QDateTime at = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    if (!at.isValid())
        return {};
    const qint64 days = at.toLocalTime().date().daysTo(today);
    if (days <= 0)
        return QCoreApplication::translate("PlainWords", "today");
    if (days == 1)
        return QCoreApplication::translate("PlainWords", "yesterday");
    return QCoreApplication::translate("PlainWords", "%n days ago", nullptr, int(days));
}

} // namespace

QString uiLanguage()
{
    return QLocale().name();
}

QString userText(const UserText& text)
{
    return QString::fromStdString(text.in(uiLanguage().toStdString()));
}

QString componentPhrase(const std::string& c)
{
    static const std::pair<const char*, const char*> kWords[] = {
        {"hipblaslt", QT_TRANSLATE_NOOP("PlainWords", "AMD's hipBLASLt math library")},
        {"rocblas", QT_TRANSLATE_NOOP("PlainWords", "AMD's rocBLAS math library")},
        {"miopen", QT_TRANSLATE_NOOP("PlainWords", "AMD's MIOpen library")},
        {"zluda", QT_TRANSLATE_NOOP("PlainWords", "ZLUDA")},
        {"migraphx", QT_TRANSLATE_NOOP("PlainWords", "AMD's MIGraphX library")},
        {"onnxruntime", QT_TRANSLATE_NOOP("PlainWords", "the ONNX Runtime")},
        {"hsa-runtime", QT_TRANSLATE_NOOP("PlainWords", "AMD's GPU runtime (ROCr)")},
        {"amdgpu-driver", QT_TRANSLATE_NOOP("PlainWords", "the AMD graphics driver")},
        {"windows-loader", QT_TRANSLATE_NOOP("PlainWords", "Windows, loading a library")},
        {"hip-runtime", QT_TRANSLATE_NOOP("PlainWords", "AMD's HIP runtime")},
        {"vulkan-driver", QT_TRANSLATE_NOOP("PlainWords", "the Vulkan graphics driver")},
        {"cublas", QT_TRANSLATE_NOOP("PlainWords", "NVIDIA's cuBLAS math library")},
        {"cuda-runtime", QT_TRANSLATE_NOOP("PlainWords", "NVIDIA's CUDA runtime")},
        {"pytorch", QT_TRANSLATE_NOOP("PlainWords", "PyTorch")},
        {"linker", QT_TRANSLATE_NOOP("PlainWords", "the program's build")},
    };
    for (const auto& [id, words] : kWords)
        if (c == id)
            return QCoreApplication::translate("PlainWords", words);
    return QCoreApplication::translate("PlainWords", "the workload itself");
}

QString statusPhrase(const QString& status)
{
    if (status == QLatin1String("tested"))
        return QCoreApplication::translate("PlainWords", "works, tested on this kind of card");
    if (status == QLatin1String("community"))
        return QCoreApplication::translate("PlainWords", "works, reported by users");
    return QCoreApplication::translate("PlainWords", "experimental, may not work");
}

QString statusExplanation(const QString& status)
{
    if (status == QLatin1String("tested"))
        return QCoreApplication::translate(
            "PlainWords", "This stack was run and checked on this kind of graphics card.");
    if (status == QLatin1String("community"))
        return QCoreApplication::translate(
            "PlainWords", "Users with this kind of graphics card report that this stack works; "
                          "public reports are linked under “Why this stack?”.");
    return QCoreApplication::translate(
        "PlainWords", "Nobody has confirmed this stack on this kind of card yet. StackPilot checks "
                      "it on your PC before the first start.");
}

QString rankPhrase(const std::string& code)
{
    if (code == "chosen")
        return QCoreApplication::translate(
            "PlainWords",
            "StackPilot ranks it higher for this PC, but the stack above was chosen instead.");
    if (code == "failed-here")
        return QCoreApplication::translate("PlainWords", "It failed its check on this PC.");
    if (code == "fallback")
        return QCoreApplication::translate("PlainWords",
                                           "It runs on the processor only, which is much slower.");
    if (code == "evidence")
        return QCoreApplication::translate(
            "PlainWords", "The recommended stack already passed its check on this PC.");
    if (code == "crowd")
        return QCoreApplication::translate(
            "PlainWords", "On other PCs with a graphics card like yours, the recommended stack "
                          "passed more often.");
    if (code == "status")
        return QCoreApplication::translate("PlainWords",
                                           "Fewer people have confirmed that it works.");
    if (code == "preference")
        return QCoreApplication::translate(
            "PlainWords", "The published guides recommend the other route for this card.");
    if (code == "unverified-url")
        return QCoreApplication::translate(
            "PlainWords", "One of its downloads cannot be checked against a published address.");
    if (code == "support")
        return QCoreApplication::translate("PlainWords",
                                           "Its support for your graphics card is weaker.");
    if (code == "specificity")
        return QCoreApplication::translate(
            "PlainWords", "It is made for a wider range of cards, not for yours in particular.");
    if (code == "older")
        return QCoreApplication::translate("PlainWords", "It uses older versions.");
    return QCoreApplication::translate("PlainWords",
                                       "It is as good; the recommended one comes first.");
}

QString evidencePhrase(const LocalVerdict& v, const QDate& today)
{
    const QString when = daysAgo(v.at, today);
    switch (v.state) {
    case LocalVerdict::State::Passed:
        return QCoreApplication::translate("PlainWords", "Passed its check on this PC %1")
            .arg(when);
    case LocalVerdict::State::Failed:
        return QCoreApplication::translate("PlainWords", "Failed its check on this PC %1")
            .arg(when);
    case LocalVerdict::State::Unverified:
        break;
    }
    return v.passedEarlier
               ? QCoreApplication::translate(
                     "PlainWords", "Passed on this PC before the driver changed; it is checked "
                                   "again before the next start")
               : QCoreApplication::translate(
                     "PlainWords", "Failed on this PC before the driver changed; it is checked "
                                   "again before the next start");
}

QString proofPhrase(const ProfileProof* proof, const std::string& arch, const QDate& today)
{
    if (!proof || proof->installs == 0)
        return QCoreApplication::translate("PlainWords",
                                           "No results from other PCs with this stack yet.");
    if (const GpuFamilyProof* f = proof->family(arch))
        return QCoreApplication::translate(
                   "PlainWords",
                   "Passed on %n PC(s) with a graphics card like yours, %1 failed (last: %2).",
                   nullptr, int(f->passedInstalls))
            .arg(f->failedInstalls)
            .arg(daysAgo(f->lastSeen, today));
    if (!arch.empty() && !proof->byGpu.empty())
        return QCoreApplication::translate(
            "PlainWords",
            "No results from PCs with a graphics card like yours yet; it passed on %n PC(s) "
            "with other cards.",
            nullptr, int(proof->passedInstalls));
    return QCoreApplication::translate("PlainWords",
                                       "Passed on %n PC(s) with this stack, %1 failed (last: %2).",
                                       nullptr, int(proof->passedInstalls))
        .arg(proof->failedInstalls)
        .arg(daysAgo(proof->lastSeen, today));
}

} // namespace sp::gui
