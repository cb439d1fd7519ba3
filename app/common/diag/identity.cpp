// Who the user is, for the `<user>` redaction rule, and the secrets they hold.

#include "app/common/diag/redact.h"

#include <QDir>
#include <QProcessEnvironment>
#include <algorithm>
#include <cctype>

#ifndef _WIN32
#include <pwd.h>
#include <unistd.h>
#endif

namespace sp::diag {

namespace {

// Account names that identify nobody; redacting them would garble text ("root cause").
bool isGeneric(std::string name)
{
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* g : {"root", "admin", "administrator", "user", "guest", "default", "public",
                          "nobody", "system"})
        if (name == g)
            return true;
    return false;
}

void addUnique(std::vector<std::string>& to, std::string s)
{
    while (s.size() > 1 && (s.back() == '/' || s.back() == '\\'))
        s.pop_back();
    if (!s.empty() && std::find(to.begin(), to.end(), s) == to.end())
        to.push_back(std::move(s));
}

std::string lastComponent(const std::string& path)
{
    const auto sep = path.find_last_of("/\\");
    return sep == std::string::npos ? path : path.substr(sep + 1);
}

} // namespace

Identity Identity::fromEnvironment()
{
    Identity id;
    std::vector<std::string> names, homes;
    for (const char* var : {"USER", "LOGNAME", "USERNAME"})
        addUnique(names, qEnvironmentVariable(var).toStdString());
    for (const char* var : {"HOME", "USERPROFILE"})
        addUnique(homes, qEnvironmentVariable(var).toStdString());
    addUnique(homes, QDir::homePath().toStdString());
    addUnique(homes, QDir::toNativeSeparators(QDir::homePath()).toStdString());
#ifndef _WIN32
    if (const passwd* pw = getpwuid(geteuid())) {
        addUnique(names, pw->pw_name ? pw->pw_name : "");
        addUnique(homes, pw->pw_dir ? pw->pw_dir : "");
    }
#endif
    for (auto& n : names)
        if (!isGeneric(n))
            addUnique(id.names, n);
    // A home named after nobody in particular (/root) is nobody's.
    for (auto& h : homes)
        if (h != "/" && !isGeneric(lastComponent(h)))
            addUnique(id.homes, h);
    std::vector<std::pair<std::string, std::string>> vars;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : env.keys())
        vars.emplace_back(name.toStdString(), env.value(name).toStdString());
    id.addSecretValues(vars);
    return id;
}

void Identity::addSecretValues(const std::vector<std::pair<std::string, std::string>>& vars)
{
    for (const auto& [name, value] : vars) {
        std::vector<std::string>* list = Redactor::isVerbatimSecret(name, value) ? &secrets
                                         : Redactor::isWordSecret(name, value)   ? &wordSecrets
                                                                                 : nullptr;
        if (list && std::find(list->begin(), list->end(), value) == list->end())
            list->push_back(value);
    }
}

void Identity::addSecretValuesIn(const nlohmann::json& doc)
{
    // Depth-first over objects and arrays; a string under a secret-named key (at any
    // depth below it) is a secret.
    std::vector<std::pair<const nlohmann::json*, std::string>> todo{{&doc, std::string()}};
    std::vector<std::pair<std::string, std::string>> found;
    while (!todo.empty()) {
        const auto [value, secretName] = todo.back();
        todo.pop_back();
        if (value->is_string() && !secretName.empty())
            found.emplace_back(secretName, value->get<std::string>());
        else if (value->is_object())
            for (const auto& [k, v] : value->items())
                todo.emplace_back(&v, !secretName.empty()         ? secretName
                                      : Redactor::isSecretName(k) ? k
                                                                  : std::string());
        else if (value->is_array())
            for (const auto& v : *value)
                todo.emplace_back(&v, secretName);
    }
    addSecretValues(found);
}

} // namespace sp::diag
