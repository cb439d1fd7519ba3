#include "installers/prefix_store.h"

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
                              ": cannot create the prefix root: " + ec.message());
    return {};
}

bool PrefixStore::isInstalled(const std::string& id) const
{
    std::error_code ec;
    return fs::is_directory(fs::symlink_status(runtimeDir(id), ec)) &&
           fs::is_regular_file(receiptFile(id), ec);
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
        if (name.size() > kReceiptSuffix.size() &&
            name.compare(name.size() - kReceiptSuffix.size(), kReceiptSuffix.size(),
                         kReceiptSuffix) == 0) {
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
    std::error_code ec;
    fs::remove_all(p, ec);
}

Expected<fs::path> PrefixStore::makeStaging(const std::string& id) const
{
    if (auto r = ensureRoot(); !r)
        return r.error();
    const auto p = uniqueSibling(kStaging, id);
    std::error_code ec;
    if (!fs::create_directory(p, ec) || ec)
        return Error::runtime(paths::toUtf8(p) +
                              ": cannot create staging folder: " + (ec ? ec.message() : "exists"));
    return p;
}

Expected<void> PrefixStore::commit(const std::string& id, const fs::path& staging,
                                   const Receipt& receipt) const
{
    std::error_code ec;
    const auto dir = runtimeDir(id);
    fs::path trash;
    if (fs::exists(fs::symlink_status(dir, ec))) {
        trash = uniqueSibling(kTrash, id);
        fs::rename(dir, trash, ec);
        if (ec)
            return Error::runtime(paths::toUtf8(dir) +
                                  ": cannot move the old install aside: " + ec.message());
    }
    if (auto r = receipt.save(receiptFile(id)); !r)
        return r;
    fs::rename(staging, dir, ec);
    if (ec) {
        fs::remove(receiptFile(id), ec);
        return Error::runtime(paths::toUtf8(dir) +
                              ": cannot move the staged runtime into place: " + ec.message());
    }
    if (!trash.empty())
        removeTree(trash);
    return {};
}

Expected<void> PrefixStore::remove(const std::string& id) const
{
    std::error_code ec;
    const auto dir = runtimeDir(id);
    const bool hasDir = fs::exists(fs::symlink_status(dir, ec));
    const bool hasReceipt = fs::exists(receiptFile(id), ec);
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

std::vector<std::string> PrefixStore::recover(const std::string& id) const
{
    std::vector<std::string> done;
    std::error_code ec;
    std::vector<fs::path> leftovers;
    for (const auto& e : fs::directory_iterator(m_root, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        if (idOfLeftover(name, kStaging) == id || idOfLeftover(name, kTrash) == id)
            leftovers.push_back(e.path());
    }
    for (const auto& p : leftovers) {
        removeTree(p);
        done.push_back("removed leftover " + paths::toUtf8(p.filename()));
    }
    const bool hasDir = fs::is_directory(fs::symlink_status(runtimeDir(id), ec));
    const bool hasReceipt = fs::exists(receiptFile(id), ec);
    if (hasReceipt && !hasDir) {
        fs::remove(receiptFile(id), ec);
        done.push_back("removed the receipt of the incomplete install of " + id);
    } else if (hasDir && !hasReceipt) {
        const auto trash = uniqueSibling(kTrash, id);
        fs::rename(runtimeDir(id), trash, ec);
        removeTree(trash);
        done.push_back("removed the folder of " + id + ", which had no receipt");
    }
    return done;
}

std::vector<std::string> PrefixStore::recoverAll() const
{
    std::set<std::string> ids;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(m_root, ec)) {
        const std::string name = paths::toUtf8(e.path().filename());
        for (const auto& marker : {kStaging, kTrash})
            if (auto id = idOfLeftover(name, marker); !id.empty())
                ids.insert(id);
        if (name.size() > kReceiptSuffix.size() &&
            name.compare(name.size() - kReceiptSuffix.size(), kReceiptSuffix.size(),
                         kReceiptSuffix) == 0) {
            const auto id = name.substr(0, name.size() - kReceiptSuffix.size());
            if (!fs::is_directory(runtimeDir(id), ec))
                ids.insert(id);
        }
    }
    std::vector<std::string> done;
    for (const auto& id : ids) {
        auto lock = InstallLock::tryAcquire(m_root, id);
        if (!lock)
            continue; // being installed right now
        auto lines = recover(id);
        done.insert(done.end(), lines.begin(), lines.end());
    }
    return done;
}

} // namespace sp
