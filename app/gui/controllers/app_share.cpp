// AppController's side of sharing a smoke test's or a launch's result (issue 34,
// docs/LEDGER.md): the newest result of the stack just checked or just ended, as the shared
// record exactly as it would leave the PC, offered once per stack and card ("ask"), shared
// at once ("always") or never; then queued and, where a ledger address is set, sent, or
// without one opened in the feed's report form. Built and sent off the GUI thread; a
// failure costs nothing (the queue keeps it).

#include "app/common/ledger/share.h"
#include "app/gui/controllers/app_controller.h"
#include "app/gui/controllers/background.h"
#include "core/catalog/feed/store.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QDate>
#include <QDesktopServices>
#include <QUrl>

namespace sp::gui {

namespace {

std::filesystem::path shareQueue()
{
    return paths::dataDir() / "share-queue";
}

// The card's memory for the record's class, by the fingerprint's PCI id.
std::int64_t vramOf(const HardwareSnapshot& snap, const std::string& gpu)
{
    for (const auto& g : snap.gpus)
        if (!g.pciId.empty() && gpu.rfind(g.pciId, 0) == 0)
            return g.vramMb.value_or(0);
    return 0;
}

// The newest result of `profile` of that kind (a smoke test, a launch), unless it was
// shared or declined before.
std::optional<ShareOffer> offerFor(const std::string& profile, EvidenceKind kind,
                                   const HardwareSnapshot& snap, const std::string& chosenLedger)
{
    const auto records = EvidenceStore(EvidenceStore::defaultFile()).records();
    if (!records)
        return std::nullopt;
    const EvidenceRecord* newest = nullptr;
    for (const EvidenceRecord& e : *records)
        if (e.profile == profile && e.kind == kind)
            newest = &e;
    if (!newest)
        return std::nullopt;
    ShareOffer o;
    o.key = ledger::evidenceKey(*newest);
    // A launch's result is asked for once per stack and card, whatever the answer: every
    // Stop is not a question.
    o.launch = kind == EvidenceKind::Launch;
    o.declineKey = profile + "|" + newest->machine.gpu + (o.launch ? "|launch" : "");
    if (ledger::sharedKeys(shareQueue()).count(o.key) ||
        ledger::declined(shareQueue(), o.declineKey))
        return std::nullopt;
    const auto id =
        ledger::installId(paths::configDir() / "install-id.json", QDate::currentDate().year());
    if (!id)
        return std::nullopt;
    auto r = ledger::shareable(*newest, *id, vramOf(snap, newest->machine.gpu));
    if (!r)
        return std::nullopt; // something private would leave: it is not offered
    o.record = std::move(*r);
    o.text = ledger::recordText(o.record);
    o.ledger = ledger::ledgerAddress(chosenLedger);
    if (o.ledger.empty())
        o.formUrl = ledger::reportFormAddress(feed::installedSharing().reportForm, o.record);
    return o;
}

} // namespace

void AppController::maybeOfferShare(const std::string& profile, EvidenceKind kind)
{
    if (recordedMachine() || m_settings.shareResults == "never")
        return;
    runInBackground(
        this,
        [profile, kind, snap = m_gpus.snapshot(), chosen = m_settings.ledgerUrl] {
            return offerFor(profile, kind, snap, chosen);
        },
        [this](std::optional<ShareOffer> offer) {
            if (!offer)
                return;
            m_shareOffer = std::move(offer);
            if (m_settings.shareResults == "always")
                answerShare(ShareAnswer::Share);
            else
                emit shareOffered(
                    tr("Help other owners of the %1: share this result?").arg(gpuName()),
                    qs(m_shareOffer->text), !m_shareOffer->formUrl.empty());
        });
}

void AppController::answerShare(ShareAnswer answer)
{
    if (!m_shareOffer)
        return;
    const ShareOffer offer = *std::exchange(m_shareOffer, std::nullopt);
    if (answer == ShareAnswer::Always || answer == ShareAnswer::Never)
        updateSettings(
            [mode = answer == ShareAnswer::Always ? "always" : "never"](Settings& s) {
                s.shareResults = mode;
                return Expected<void>();
            },
            {});
    if (answer == ShareAnswer::NotNow || answer == ShareAnswer::Never) {
        runInBackground(
            this, [key = offer.declineKey] { return ledger::decline(shareQueue(), key); },
            [](const Expected<void>&) {}, orderedPool());
        return;
    }
    // Without a ledger, the feed's report form opens in the browser with the record
    // filled in; only on the user's own Share, never on "Always".
    const bool viaBrowser = answer == ShareAnswer::Share && !offer.formUrl.empty();
    if (viaBrowser)
        QDesktopServices::openUrl(QUrl(qs(offer.formUrl)));
    runInBackground(
        this,
        [offer] {
            if (offer.launch)
                (void)ledger::decline(shareQueue(), offer.declineKey); // asked once
            return ledger::shareOne(shareQueue(), offer.key, offer.record, offer.ledger);
        },
        [this, hasUrl = !offer.ledger.empty(),
         viaBrowser](const Expected<ledger::SendReport>& sent) {
            if (!sent)
                emit notice(tr("The result could not be queued: %1").arg(qs(sent.error().message)),
                            true);
            else if (viaBrowser)
                emit notice(tr("The report opened in your browser with the result filled in; "
                               "send it from there."),
                            false);
            else if (sent->sent > 0)
                emit notice(tr("Thank you: the result was sent."), false);
            else
                emit notice(
                    hasUrl ? tr("The result waits in the queue; it is sent on the next try.")
                           : tr("The result waits in the queue until a ledger address is set."),
                    false);
        },
        orderedPool());
}

} // namespace sp::gui
