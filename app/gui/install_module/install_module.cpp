// stackpilot-install: the installer as a module for the window (see
// app/gui/controllers/install_module.h). It holds its own copy of the core, so the
// install and cache folders of the settings are applied here too.

#include "app/gui/controllers/install_module.h"

#include <QtGlobal>

extern "C" Q_DECL_EXPORT int stackpilot_install_all(const std::vector<sp::Runtime>* runtimes,
                                                    const sp::InstallOptions* options,
                                                    std::string* error)
{
    options->settings.applyFolders();
    sp::Installer installer(*options);
    for (const sp::Runtime& rt : *runtimes) {
        if (options->onEvent) {
            sp::InstallEvent started;
            started.kind = sp::InstallEvent::Kind::Message;
            started.runtimeId = rt.id;
            started.text = "installing";
            options->onEvent(started);
        }
        auto result = installer.install(rt);
        if (!result) {
            *error = result.error().message;
            return static_cast<int>(result.error().code);
        }
    }
    return 0;
}
