#include "installers/prefix_store.h"

#include "core/ownership.h"
#include "core/paths.h"
#include "installers/install_lock.h"

#include <algorithm>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace sp {

namespace {

const std::string kStaging = ".staging-";
const std::string kTrash = ".trash-";
const std::string kReceiptSuffix = ".receipt.json";

std::string randomHex()
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static const char* digits = "0123456789abcdef";
    std::string s(8, '0');
    auto v = rng();
    for (auto& c : s) {
        c = digits[v & 15];
        v >>= 4;
    }
    return s;
}

// ".staging-<id>-<rand>[.spoolN]" -> id
std::string idOfLeftover(const std::string& name, const std::string& marker)
{
    const auto dash = name.rfind('-');
    if (name.rfind(marker, 0) != 0 || dash == std::string::npos || dash <= marker.size())
        return {};
    return name.substr(marker.size(), dash - marker.size());
}

const char* kNotOursAdvice =
    "choose another prefix root (--prefix-root) or move that folder out of it";

bool isReceiptName(const std::string& name)
{
    return name.size() > kReceiptSuffix.size() &&
           name.compare(name.size() - kReceiptSuffix.size(), kReceiptSuffix.size(),
                        kReceiptSuffix) == 0;
}

// A folder of ours by name whose marker never got in: it is empty, or it holds only
// QSaveFile's temporary file of the marker ("<marker>.XXXXXX").
bool onlyAHalfWrittenMarker(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(dir, ec)))
        return false;
    const std::string marker = ownership::markerName();
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        if (name.rfind(marker + ".", 0) != 0 || !e.is_regular_file(ec) || e.is_symlink(ec))
            return false;
    }
    return !ec;
}

void removeHalfMarked(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        fs::remove(e.path(), ec);
    fs::remove(dir, ec); // removes only an empty folder
}

} // namespace

PrefixStore::PrefixStore(fs::path root) : m_root(root.empty() ? defaultRoot() : std::move(root)) {}

fs::path PrefixStore::defaultRoot()
{
    return paths::dataDir() / "runtimes";
}

fs::path PrefixStore::runtimeDir(const std::string& id) const
{
    return m_root / paths::fromUtf8(id);
}

fs::path PrefixStore::receiptFile(const std::string& id) const
{
    return m_root / paths::fromUtf8(id + kReceiptSuffix);
}

Expected<void> PrefixStore::checkId(const std::string& id)
{
    const bool ok = !id.empty() && id.front() != '.' && id.size() <= 128 &&
                    std::all_of(id.begin(), id.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                               c == '_' || c == '-' || c == '+';
                    });
    if (!ok)
        return Error::invalid("'" + id + "' is not a valid runtime id (letters, digits, . _ - +)");
    return {};
}

Expected<void> PrefixStore::ensureRoot() const
{
    std::error_code ec;
    fs::create_directories(m_root / ".locks", ec);
    if (ec)
        return Error::runtime(paths::toUtf8(m_root) +
                              ": cannot create the prefix root: " + ec.message())
            .withCause(causeFromError(ec));
    return {};
}

bool PrefixStore::isInstalled(const std::string& id) const
{
    std::error_code ec;
    return ownership::isOwned(runtimeDir(id)) &&
           fs::is_regular_file(fs::symlink_status(receiptFile(id), ec));
}

bool PrefixStore::isOurReceipt(const std::string& id) const
{
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(receiptFile(id), ec)))
        return false;
    auto r = Receipt::load(receiptFile(id));
    return r && r->id == id;
}

Expected<Receipt> PrefixStore::receipt(const std::string& id) const
{
    if (!isInstalled(id))
        return Error::runtime("runtime '" + id + "' is not installed in " + paths::toUtf8(m_root));
    return Receipt::load(receiptFile(id));
}

std::vector<std::string> PrefixStore::installedIds() const
{
    std::vector<std::string> ids;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(m_root, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        if (isReceiptName(name)) {
            const auto id = name.substr(0, name.size() - kReceiptSuffix.size());
            if (isInstalled(id))
                ids.push_back(id);
        }
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

fs::path PrefixStore::uniqueSibling(const std::string& prefix, const std::string& id) const
{
    for (;;) {
        auto p = m_root / paths::fromUtf8(prefix + id + "-" + randomHex());
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(p, ec)))
            return p;
    }
}

void PrefixStore::removeTree(const fs::path& p) const
{
    (void)ownership::removeOwned(p); // never deletes a folder without the marker
}

Expected<fs::path> PrefixStore::makeStaging(const std::string& id) const
{
    if (auto r = ensureRoot(); !r)
        return r.error();
    const auto p = uniqueSibling(kStaging, id);
    // The marker goes in before the first file, so the folder and whatever it becomes
    // (the runtime's folder, then its trash) can always be told apart from the user's.
    if (auto r = ownership::createOwned(p, "staging of runtime " + id); !r) {
        std::error_code ec;
        fs::remove(p, ec); // empty, or holding only a half-written marker
        return r.error();
    }
    return p;
}

Expected<void> PrefixStore::commit(const std::string& id, const fs::path& staging,
                                   const Receipt& receipt) const
{
    std::error_code ec;
    const auto dir = runtimeDir(id);
    fs::path trash;
    if (fs::exists(fs::symlink_status(dir, ec))) {
        if (!ownership::isOwned(dir))
            return Error::runtime(ownership::notOursMessage(dir, kNotOursAdvice));
        trash = uniqueSibling(kTrash, id);
        fs::rename(dir, trash, ec);
        if (ec)
            return Error::runtime(paths::toUtf8(dir) +
                                  ": cannot move the old install aside: " + ec.message())
                .withCause(causeFromError(ec));
    }
    if (auto r = receipt.save(receiptFile(id)); !r)
        return r;
    fs::rename(staging, dir, ec);
    if (ec) {
        const Error e =
            Error::runtime(paths::toUtf8(dir) +
                           ": cannot move the staged runtime into place: " + ec.message())
                .withCause(causeFromError(ec));
        fs::remove(receiptFile(id), ec);
        return e;
    }
    if (!trash.empty())
        removeTree(trash);
    return {};
}

Expected<void> PrefixStore::checkOwnership(const std::string& id) const
{
    std::error_code ec;
    const auto dir = runtimeDir(id);
    if (fs::exists(fs::symlink_status(dir, ec)) && !ownership::isOwned(dir))
        return Error::runtime(ownership::notOursMessage(dir, kNotOursAdvice));
    const auto receipt = receiptFile(id);
    if (fs::exists(fs::symlink_status(receipt, ec)) && !isOurReceipt(id))
        return Error::runtime(paths::toUtf8(receipt) + " is not a StackPilot receipt for '" + id +
                              "', so it is left as " + "it is; " + kNotOursAdvice);
    return {};
}

Expected<void> PrefixStore::remove(const std::string& id) const
{
    if (auto r = checkOwnership(id); !r)
        return r;
    std::error_code ec;
    const auto dir = runtimeDir(id);
    const bool hasDir = fs::exists(fs::symlink_status(dir, ec));
    const bool hasReceipt = fs::exists(fs::symlink_status(receiptFile(id), ec));
    if (!hasDir && !hasReceipt)
        return Error::runtime("runtime '" + id + "' is not installed in " + paths::toUtf8(m_root));
    fs::path trash;
    if (hasDir) {
        trash = uniqueSibling(kTrash, id);
        fs::rename(dir, trash, ec);
        if (ec)
            return Error::runtime(paths::toUtf8(dir) +
                                  ": cannot move to the trash: " + ec.message());
    }
    fs::remove(receiptFile(id), ec);
    if (ec)
        return Error::runtime(paths::toUtf8(receiptFile(id)) + ": cannot delete: " + ec.message());
    if (!trash.empty())
        removeTree(trash);
    return {};
}

std::vector<std::string> PrefixStore::recover(const std::string& id, bool dryRun) const
{
    std::vector<std::string> done;
    const std::string verb = dryRun ? "would remove " : "removed ";
    std::error_code ec;
    std::vector<fs::path> leftovers;
    for (const auto& e : fs::directory_iterator(m_root, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        if (idOfLeftover(name, kStaging) == id || idOfLeftover(name, kTrash) == id)
            leftovers.push_back(e.path());
    }
    for (const auto& p : leftovers) {
        if (!ownership::isOwned(p) && onlyAHalfWrittenMarker(p)) {
            // Killed between creating the folder and renaming its marker into place: the
            // folder holds nothing, or only the marker's temporary file.
            if (!dryRun)
                removeHalfMarked(p);
            done.push_back(verb + "leftover " + paths::toUtf8(p.filename()));
            continue;
        }
        if (!ownership::isOwned(p)) {
            done.push_back("left alone " + paths::toUtf8(p.filename()) +
                           ": it was not created by StackPilot");
            continue;
        }
        if (!dryRun)
            removeTree(p);
        done.push_back(verb + "leftover " + paths::toUtf8(p.filename()));
    }
    const bool owned = ownership::isOwned(runtimeDir(id));
    const bool hasReceipt = isOurReceipt(id);
    if (hasReceipt && !fs::exists(fs::symlink_status(runtimeDir(id), ec))) {
        if (!dryRun)
            fs::remove(receiptFile(id), ec);
        done.push_back(verb + "the receipt of the incomplete install of " + id);
    } else if (owned && !hasReceipt) {
        // Ours, but nothing can say whether it is complete.
        if (!dryRun) {
            const auto trash = uniqueSibling(kTrash, id);
            fs::rename(runtimeDir(id), trash, ec);
            removeTree(ec ? runtimeDir(id) : trash);
        }
        done.push_back(verb + "the folder of " + id + ", which had no receipt");
    }
    return done;
}

std::vector<std::string> PrefixStore::recoverAll(bool dryRun) const
{
    std::set<std::string> ids;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(m_root, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        for (const auto& marker : {kStaging, kTrash})
            if (auto id = idOfLeftover(name, marker); !id.empty())
                ids.insert(id);
        if (isReceiptName(name)) {
            const auto id = name.substr(0, name.size() - kReceiptSuffix.size());
            if (!fs::is_directory(runtimeDir(id), ec))
                ids.insert(id);
        } else if (checkId(name) && ownership::isOwned(e.path()) &&
                   !fs::exists(receiptFile(name), ec)) {
            // An owned runtime folder whose receipt is gone (staging and trash folders
            // start with '.', which no id does).
            ids.insert(name);
        }
    }
    std::vector<std::string> done;
    for (const auto& id : ids) {
        auto lock = InstallLock::tryAcquire(m_root, id);
        if (!lock)
            continue; // being installed right now
        auto lines = recover(id, dryRun);
        done.insert(done.end(), lines.begin(), lines.end());
    }
    return done;
}

} // namespace sp
