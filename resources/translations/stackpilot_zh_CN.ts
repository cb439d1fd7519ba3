<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>PlanView</name>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="16"/>
        <source>HIP SDK %1</source>
        <translation>HIP SDK %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="18"/>
        <source>ZLUDA %1</source>
        <translation>ZLUDA %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="22"/>
        <source>rocBLAS for %1</source>
        <translation>适用于 %1 的 rocBLAS</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="25"/>
        <source>ROCm %1</source>
        <translation>ROCm %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="27"/>
        <source>PyTorch %1</source>
        <translation>PyTorch %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="29"/>
        <source>llamafile %1</source>
        <translation>llamafile %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="31"/>
        <source>Python %1</source>
        <translation>Python %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="33"/>
        <source>Git %1</source>
        <translation>Git %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="38"/>
        <source>%1 %2 (source)</source>
        <translation>%1 %2（源码）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="64"/>
        <source>this machine (no usable GPU)</source>
        <translation>本机（没有可用的显卡）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="66"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="100"/>
        <source>The best-ranked profile of %1 for %2.</source>
        <translation>%1 在 %2 上排名最高的配置。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="102"/>
        <source>GPU: %1</source>
        <translation>显卡：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="104"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="106"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="108"/>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="147"/>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="165"/>
        <source>No profile of %1 fits this machine; the other profiles say why.</source>
        <translation>%1 没有适合本机的配置；其他配置中列出了原因。</translation>
    </message>
</context>
<context>
    <name>sp::gui::AlternativesView</name>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="12"/>
        <source>Other profiles</source>
        <translation>其他配置</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="12"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="33"/>
        <source>rejected</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="34"/>
        <source>failed here</source>
        <translation>在此失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="35"/>
        <source>available</source>
        <translation>可用</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="47"/>
        <source>Known issues: %1</source>
        <translation>已知问题：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="53"/>
        <source>%n profile(s) made for another GPU, OS or vendor</source>
        <translation>
            <numerusform>%n 个配置适用于其他显卡、系统或厂商</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::AppController</name>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="57"/>
        <source>Detecting…</source>
        <translation>正在检测…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="59"/>
        <source>Cancel install</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="62"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="64"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="69"/>
        <source>Resume install</source>
        <translation>继续安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="72"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="73"/>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="73"/>
        <source>Install and launch</source>
        <translation>安装并启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="91"/>
        <source>This is a recorded machine (--hardware): StackPilot shows its plan and installs or launches nothing.</source>
        <translation>这是记录下来的机器（--hardware）：StackPilot 只显示它的方案，不会安装或启动任何东西。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="200"/>
        <source>Install cancelled; nothing half-installed was kept.</source>
        <translation>已取消安装；没有保留任何安装了一半的文件。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="201"/>
        <source>Install failed: %1</source>
        <translation>安装失败：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="206"/>
        <source>Installed.</source>
        <translation>已安装。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="217"/>
        <source>Nothing to launch: %1</source>
        <translation>没有可启动的内容：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="43"/>
        <source>Could not launch: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="314"/>
        <source>Setup step %1 of %2: %3</source>
        <translation>准备步骤 %1/%2：%3</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="315"/>
        <source>Setup steps: %1</source>
        <translation>准备步骤：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="283"/>
        <source>The workload ended: %1</source>
        <translation>工作负载已结束：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="36"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="38"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="40"/>
        <source>done before, skipped</source>
        <translation>之前已完成，跳过</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="42"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="44"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="48"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="284"/>
        <source>The workload stopped: %1. Log: %2</source>
        <translation>工作负载已停止：%1。日志：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="350"/>
        <source>Switch profile and relaunch</source>
        <translation>切换配置并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="354"/>
        <source>Switch to %1 and relaunch</source>
        <translation>切换到 %1 并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="357"/>
        <source>Repair and relaunch</source>
        <translation>修复并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="359"/>
        <source>Apply the fix and relaunch</source>
        <translation>应用修复并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="414"/>
        <source>%1 uses the recommended profile again.</source>
        <translation>%1 已恢复使用推荐配置。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="415"/>
        <source>%1 now uses %2.</source>
        <translation>%1 现在使用 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="36"/>
        <source>Checking that %1 computes on your %2…</source>
        <translation>正在检查 %1 能否在您的 %2 上完成计算…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="137"/>
        <source>stackpilot-cli detect exited with code %1</source>
        <translation>stackpilot-cli detect 退出，代码 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="146"/>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="19"/>
        <source>PC</source>
        <translation>电脑</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="43"/>
        <source>%1 failed its check on your %2</source>
        <translation>%1 未通过在您的 %2 上的检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="44"/>
        <source>%1. No other stack fits this PC.</source>
        <translation>%1。没有其他方案适合这台电脑。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="45"/>
        <source>%1. StackPilot can switch to %2.</source>
        <translation>%1。StackPilot 可以切换到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="46"/>
        <source>Switch and launch</source>
        <translation>切换并启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="69"/>
        <source>%1 is back on %2, which passed its check on this PC on %3.</source>
        <translation>%1 已回到 %2，它于 %3 在这台电脑上通过了检查。</translation>
    </message>
</context>
<context>
    <name>sp::gui::ConsoleView</name>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="144"/>
        <source>Search the console</source>
        <translation>在控制台中搜索</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="146"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="147"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="148"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="149"/>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="151"/>
        <source>Keep the newest line in view</source>
        <translation>始终显示最新一行</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="152"/>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="169"/>
        <source>The workload&apos;s output appears here once it runs.
The whole log is also kept on disk.</source>
        <translation>工作负载运行后，它的输出会显示在这里。
完整日志也会保存在磁盘上。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="221"/>
        <source>%1 lines; showing the last %2</source>
        <translation>共 %1 行；显示最后 %2 行</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/console_view.cpp" line="222"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="229"/>
        <source>Full log</source>
        <translation>完整日志</translation>
    </message>
</context>
<context>
    <name>sp::gui::DetailsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="20"/>
        <source>Why this stack?</source>
        <translation>为什么选这个软件栈？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="38"/>
        <source>Profile id: %1</source>
        <translation>配置 ID：%1</translation>
    </message>
</context>
<context>
    <name>sp::gui::DiagnosticsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="25"/>
        <source>Export diagnostics</source>
        <translation>导出诊断包</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="28"/>
        <source>One zip with what a helper asks for: your GPUs and probes, the chosen stack and why, installed runtimes checked again, recent launches and their logs, the environment and the doctor&apos;s findings. Tokens, passwords, keys and your user name are replaced before anything is written; review the list below.</source>
        <translation>一个 zip 文件，包含帮助者会问到的全部信息：显卡和探测结果、选中的软件栈及原因、重新校验的已安装运行时、最近的启动及其日志、环境变量和体检结果。令牌、密码、密钥和您的用户名在写入前都会被替换；请检查下面的列表。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="36"/>
        <source>Collecting…</source>
        <translation>正在收集…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="39"/>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="39"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="39"/>
        <source>Redacted</source>
        <translation>已脱敏</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="48"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="54"/>
        <source>Save diagnostics</source>
        <translation>保存诊断包</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="55"/>
        <source>Zip files (*.zip)</source>
        <translation>Zip 文件 (*.zip)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="95"/>
        <source>Collecting: %1…</source>
        <translation>正在收集：%1…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="102"/>
        <source>Could not collect: %1</source>
        <translation>无法收集：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="123"/>
        <source>%n entries, %1 before compression.</source>
        <translation>
            <numerusform>%n 个条目，压缩前 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="125"/>
        <source>Redacted in all, by kind (values are never recorded): %1</source>
        <translation>按类型统计的脱敏总数（从不记录原值）：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="141"/>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="150"/>
        <source>Could not save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="153"/>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
</context>
<context>
    <name>sp::gui::EnvironmentDialog</name>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="49"/>
        <source>Environment of %1</source>
        <translation>%1 的环境变量</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="53"/>
        <source>What the workload sees: %n variable(s) differ from your system&apos;s environment, each with the reason.</source>
        <translation>
            <numerusform>工作负载看到的环境：有 %n 个变量与系统环境不同，每个都附有原因。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="71"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="72"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>sp::gui::EnvironmentModel</name>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="60"/>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="62"/>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="64"/>
        <source>removed</source>
        <translation>已移除</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="65"/>
        <source>as in your environment</source>
        <translation>与系统环境相同</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="86"/>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="88"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="90"/>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="92"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>sp::gui::GpuPanel</name>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="19"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="21"/>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="23"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="25"/>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="27"/>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="78"/>
        <source>Detecting your GPU…</source>
        <translation>正在检测显卡…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="79"/>
        <source>Reading the PCI devices, the driver and the vendor libraries. This takes a few seconds.</source>
        <translation>正在读取 PCI 设备、驱动和厂商库，需要几秒钟。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="85"/>
        <source>Detection failed</source>
        <translation>检测失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="92"/>
        <source>Recorded machine (%1): this is the plan its user sees. Nothing is installed or launched here.</source>
        <translation>记录下来的机器（%1）：这是该用户看到的方案。这里不会安装或启动任何东西。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="109"/>
        <source>No GPU found</source>
        <translation>未找到显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="110"/>
        <source>CPU-only stacks are still available.</source>
        <translation>仍可使用纯 CPU 的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="116"/>
        <source>%1  ·  %2 VRAM  ·  %3</source>
        <translation>%1  ·  显存 %2  ·  %3</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="118"/>
        <source>driver unknown</source>
        <translation>驱动版本未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="119"/>
        <source>driver %1</source>
        <translation>驱动 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="123"/>
        <source>integrated</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="123"/>
        <source>discrete</source>
        <translation>独立显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="138"/>
        <source>Probes:</source>
        <translation>探测：</translation>
    </message>
</context>
<context>
    <name>sp::gui::GpuTableModel</name>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="43"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="43"/>
        <source>integrated</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="43"/>
        <source>discrete</source>
        <translation>独立显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="63"/>
        <source>PCI %1 rev %2 at %3
Found by: %4</source>
        <translation>PCI %1 修订版 %2，位于 %3
发现来源：%4</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="67"/>
        <source>Workloads run on this GPU.</source>
        <translation>工作负载在这块显卡上运行。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="90"/>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="92"/>
        <source>Target</source>
        <translation>目标架构</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="94"/>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="96"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/gpu_table_model.cpp" line="98"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>sp::gui::InstallPanel</name>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="35"/>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="89"/>
        <source>Installing</source>
        <translation>正在安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="41"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="66"/>
        <source>Setting up %1</source>
        <translation>正在准备 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="90"/>
        <source>Installing %1 (%2 of %3)</source>
        <translation>正在安装 %1（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="95"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="95"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="100"/>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="127"/>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
</context>
<context>
    <name>sp::gui::IssueBanner</name>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="107"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="128"/>
        <source>Known problem: %1</source>
        <translation>已知问题：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="130"/>
        <source>Why?</source>
        <translation>为什么？</translation>
    </message>
</context>
<context>
    <name>sp::gui::KnowledgeStatus</name>
    <message>
        <location filename="../../app/gui/widgets/knowledge_status.cpp" line="29"/>
        <source>Knowledge shipped with StackPilot %1</source>
        <translation>知识库：StackPilot %1 自带</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/knowledge_status.cpp" line="32"/>
        <source>Knowledge from %1 (feed %2)</source>
        <translation>知识库：%1（更新源第 %2 版）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/knowledge_status.cpp" line="36"/>
        <source>; feed %1 is used from the next start</source>
        <translation>；更新源第 %1 版将在下次启动时使用</translation>
    </message>
</context>
<context>
    <name>sp::gui::LaunchRunner</name>
    <message>
        <location filename="../../app/gui/controllers/launch_runner.cpp" line="55"/>
        <source>The check of the stack was stopped; nothing was launched.</source>
        <translation>方案检查已停止，未启动任何程序。</translation>
    </message>
</context>
<context>
    <name>sp::gui::MainWindow</name>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="54"/>
        <source>Detecting GPUs…</source>
        <translation>正在检测显卡…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="73"/>
        <source>Workload:</source>
        <translation>工作负载：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="144"/>
        <source>%1 is ready at %2</source>
        <translation>%1 已就绪：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="164"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="165"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="167"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="168"/>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="169"/>
        <source>&amp;Environment…</source>
        <translation>环境变量(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="170"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="171"/>
        <source>Export &amp;diagnostics…</source>
        <translation>导出诊断包(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="176"/>
        <source>&amp;About StackPilot</source>
        <translation>关于 StackPilot(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="177"/>
        <source>About StackPilot</source>
        <translation>关于 StackPilot</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="178"/>
        <source>&lt;b&gt;StackPilot %1&lt;/b&gt;&lt;p&gt;Runs local AI workloads on the stack known to work on your GPU.&lt;/p&gt;</source>
        <translation>&lt;b&gt;StackPilot %1&lt;/b&gt;&lt;p&gt;在已知适用于您显卡的软件栈上运行本地 AI 工作负载。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="228"/>
        <source>No GPU found. CPU-only stacks are still available.</source>
        <translation>未找到显卡。仍可使用纯 CPU 的软件栈。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/main_window.cpp" line="229"/>
        <source>%n GPU(s) found.</source>
        <translation>
            <numerusform>找到 %n 块显卡。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="276"/>
        <source>An install of %1 was interrupted on %2. Press “Resume install” to continue where it stopped.</source>
        <translation>%1 的安装在 %2 被中断。点击“继续安装”从中断处接着安装。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="284"/>
        <source>StackPilot — running %1</source>
        <translation>StackPilot — 正在运行 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="292"/>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="293"/>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Line %2 of the log:&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;日志第 %2 行：&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="301"/>
        <source>&lt;p&gt;Evidence:&lt;/p&gt;</source>
        <translation>&lt;p&gt;依据：&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="308"/>
        <source>Why StackPilot thinks so</source>
        <translation>StackPilot 的判断依据</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="337"/>
        <source>Settings saved.</source>
        <translation>设置已保存。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="347"/>
        <source>No stack is chosen, so there is no environment to show.</source>
        <translation>尚未选择软件栈，没有可显示的环境。</translation>
    </message>
</context>
<context>
    <name>sp::gui::ProfileCard</name>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="18"/>
        <source>tested</source>
        <translation>已测试</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="20"/>
        <source>community</source>
        <translation>社区验证</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="22"/>
        <source>experimental</source>
        <translation>实验性</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="39"/>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="99"/>
        <source>Recommended stack</source>
        <translation>推荐的软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="63"/>
        <source>Why this stack?</source>
        <translation>为什么选这个软件栈？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="64"/>
        <source>Environment…</source>
        <translation>环境变量…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="99"/>
        <source>Your choice</source>
        <translation>您的选择</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="110"/>
        <source>Choosing a stack…</source>
        <translation>正在选择软件栈…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="111"/>
        <source>StackPilot picks the stack known to work on exactly this GPU.</source>
        <translation>StackPilot 会选择已知能在这块显卡上运行的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="116"/>
        <source>No stack fits this machine</source>
        <translation>没有适合本机的软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="117"/>
        <source>This profile cannot be used here</source>
        <translation>此配置不能在本机使用</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="128"/>
        <source>Note:</source>
        <translation>注意：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="137"/>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="139"/>
        <source>size unknown</source>
        <translation>大小未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="148"/>
        <source>Everything is installed.</source>
        <translation>全部已安装。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/profile_card.cpp" line="151"/>
        <source>To install: %n runtime(s), at least %1 (some sizes are not published).</source>
        <translation>
            <numerusform>待安装：%n 个运行时，至少 %1（部分大小未公布）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/profile_card.cpp" line="154"/>
        <source>To install: %n runtime(s), %1.</source>
        <translation>
            <numerusform>待安装：%n 个运行时，共 %1。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sp::gui::ProfilesMenu</name>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="10"/>
        <source>&amp;Profiles</source>
        <translation>配置(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="27"/>
        <source>Detecting…</source>
        <translation>正在检测…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="32"/>
        <source>Running: %1 (%2)</source>
        <translation>正在运行：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="35"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="48"/>
        <source>Planning…</source>
        <translation>正在规划…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="53"/>
        <source>Recommended automatically</source>
        <translation>自动推荐</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="63"/>
        <source>%1 — rejected</source>
        <translation>%1 — 已排除</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="81"/>
        <source>Back to the last stack that worked here</source>
        <translation>回到上次在这台电脑上可用的方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="89"/>
        <source>Stop %1</source>
        <translation>停止 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="90"/>
        <source>Launch %1</source>
        <translation>启动 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="107"/>
        <source>Use a rejected profile?</source>
        <translation>使用已排除的配置？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="108"/>
        <source>StackPilot rejected %1 on this machine:

%2

Use it anyway?</source>
        <translation>StackPilot 在本机上排除了 %1：

%2

仍然要使用吗？</translation>
    </message>
</context>
<context>
    <name>sp::gui::SettingsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="39"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="48"/>
        <source>Install folder:</source>
        <translation>安装目录：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="49"/>
        <source>Cache folder:</source>
        <translation>缓存目录：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="56"/>
        <source>From the environment (http_proxy, https_proxy)</source>
        <translation>使用环境变量（http_proxy、https_proxy）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="57"/>
        <source>Proxy:</source>
        <translation>代理：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="59"/>
        <source>One per line: host URL-prefix
github.com https://mirror.example/github.com</source>
        <translation>每行一个：主机 URL 前缀
github.com https://mirror.example/github.com</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="62"/>
        <source>Mirrors:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="66"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="68"/>
        <source>Probe timeout:</source>
        <translation>探测超时：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="72"/>
        <source>Launch logs kept per profile:</source>
        <translation>每个配置保留的启动日志数：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="73"/>
        <source>Open the workload in the browser when it is ready</source>
        <translation>工作负载就绪后在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="77"/>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="81"/>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="82"/>
        <source>A new language applies the next time StackPilot starts.</source>
        <translation>新的语言在 StackPilot 下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="101"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="106"/>
        <source>Choose a folder</source>
        <translation>选择目录</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="149"/>
        <source>Mirrors, line %1: write a host, a space and an http(s) URL prefix</source>
        <translation>镜像第 %1 行：请写主机名、一个空格和 http(s) URL 前缀</translation>
    </message>
</context>
</TS>
