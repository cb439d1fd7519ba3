<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>PlainWords</name>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="22"/>
        <source>%n days ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="152"/>
        <source>Passed on %n PC(s) with a graphics card like yours, %1 failed (last: %2).</source>
        <translation>
            <numerusform>Passed on %n PC with a graphics card like yours, %1 failed (last: %2).</numerusform>
            <numerusform>Passed on %n PCs with a graphics card like yours, %1 failed (last: %2).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="159"/>
        <source>No results from PCs with a graphics card like yours yet; it passed on %n PC(s) with other cards.</source>
        <translation>
            <numerusform>No results from PCs with a graphics card like yours yet; it passed on %n PC with other cards.</numerusform>
            <numerusform>No results from PCs with a graphics card like yours yet; it passed on %n PCs with other cards.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="164"/>
        <source>Passed on %n PC(s) with this stack, %1 failed (last: %2).</source>
        <translation>
            <numerusform>Passed on %n PC with this stack, %1 failed (last: %2).</numerusform>
            <numerusform>Passed on %n PCs with this stack, %1 failed (last: %2).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PlanExplain</name>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_explain.cpp" line="57"/>
        <source>%n other stack(s) are made for other graphics cards or systems.</source>
        <translation>
            <numerusform>%n other stack is made for other graphics cards or systems.</numerusform>
            <numerusform>%n other stacks are made for other graphics cards or systems.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_explain.cpp" line="94"/>
        <source>Sets %n setting(s) for %1 only, while it runs; the PC&apos;s own settings stay as they are.</source>
        <translation>
            <numerusform>Sets %n setting for %1 only, while it runs; the PC&apos;s own settings stay as they are.</numerusform>
            <numerusform>Sets %n settings for %1 only, while it runs; the PC&apos;s own settings stay as they are.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PlanView</name>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="255"/>
        <source>%n download(s) have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</source>
        <translation>
            <numerusform>%n download has no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</numerusform>
            <numerusform>%n downloads have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="274"/>
        <source>To install: %n part(s), about %1 to download.</source>
        <translation>
            <numerusform>To install: %n part, about %1 to download.</numerusform>
            <numerusform>To install: %n parts, about %1 to download.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="280"/>
        <source>To install: %n part(s). The download size of %1 is not known before the download.</source>
        <translation>
            <numerusform>To install: %n part. The download size of %1 is not known before the download.</numerusform>
            <numerusform>To install: %n parts. The download size of %1 is not known before the download.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="285"/>
        <source>To install: %n part(s), about %1 to download, plus %2, whose size is not known before the download.</source>
        <translation>
            <numerusform>To install: %n part, about %1 to download, plus %2, whose size is not known before the download.</numerusform>
            <numerusform>To install: %n parts, about %1 to download, plus %2, whose size is not known before the download.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::AlternativesView</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="49"/>
        <source>%n more stack(s) for other cards or systems</source>
        <translation>
            <numerusform>%n more stack for other cards or systems</numerusform>
            <numerusform>%n more stacks for other cards or systems</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::AppController</name>
    <message numerus="yes">
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="59"/>
        <source>%n download(s) have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</source>
        <translation>
            <numerusform>%n download has no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</numerusform>
            <numerusform>%n downloads have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/controllers/app_notes.cpp" line="35"/>
        <source>%1 installed in %2 (%n file(s))</source>
        <translation>
            <numerusform>%1 installed in %2 (%n file)</numerusform>
            <numerusform>%1 installed in %2 (%n files)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::ConsoleView</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/console_view.cpp" line="255"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::DiagnosticsDialog</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="133"/>
        <source>%n entries, %1 before compression.</source>
        <translation>
            <numerusform>%n entry, %1 before compression.</numerusform>
            <numerusform>%n entries, %1 before compression.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::EnvironmentDialog</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="113"/>
        <source>What the workload sees: %n variable(s) differ from your system&apos;s environment, each with the reason.</source>
        <translation>
            <numerusform>What the workload sees: %n variable differs from your system&apos;s environment, each with the reason.</numerusform>
            <numerusform>What the workload sees: %n variables differ from your system&apos;s environment, each with the reason.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::InstallPanel</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/install_panel.cpp" line="98"/>
        <source>%1 of about %2 known so far, plus %n part(s) whose size is not known yet</source>
        <translation>
            <numerusform>%1 of about %2 known so far, plus %n part whose size is not known yet</numerusform>
            <numerusform>%1 of about %2 known so far, plus %n parts whose size is not known yet</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/main_window.cpp" line="285"/>
        <source>%n GPU(s) found.</source>
        <translation>
            <numerusform>%n GPU found.</numerusform>
            <numerusform>%n GPUs found.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::ModelsDialog</name>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="121"/>
        <source>%n model(s) in the vault; StackPilot&apos;s downloads take %1 (%2 free on that disk). Imported files stay where they are and take no space here.</source>
        <translation>
            <numerusform>%n model in the vault; StackPilot&apos;s downloads take %1 (%2 free on that disk). Imported files stay where they are and take no space here.</numerusform>
            <numerusform>%n models in the vault; StackPilot&apos;s downloads take %1 (%2 free on that disk). Imported files stay where they are and take no space here.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="125"/>
        <source>%n model(s) in the vault; StackPilot&apos;s downloads take %1.</source>
        <translation>
            <numerusform>%n model in the vault; StackPilot&apos;s downloads take %1.</numerusform>
            <numerusform>%n models in the vault; StackPilot&apos;s downloads take %1.</numerusform>
        </translation>
    </message>
</context>
</TS>
