<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Cause</name>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="11"/>
        <source>The file to download is no longer at this address. Another stack may still install, or a catalog update may fix the address.</source>
        <translation>要下载的文件已不在这个地址。其他软件栈可能仍可安装，或者更新知识库后地址会被修正。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="15"/>
        <source>StackPilot could not reach the download server, or the transfer broke off. Check the internet connection; behind a company network, set its proxy in StackPilot&apos;s settings. Then try again.</source>
        <translation>StackPilot 无法连接下载服务器，或者传输中断了。请检查网络连接；如果在公司网络中，请在 StackPilot 的设置里填写该网络的代理。然后再试一次。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="20"/>
        <source>StackPilot could not verify that the download server is the real one (its certificate was refused), so nothing was taken from it. Check this computer&apos;s date and time; a company network that inspects secure connections needs its certificate installed on this computer.</source>
        <translation>StackPilot 无法确认下载服务器是真正的那台（它的证书未被接受），因此没有从它获取任何内容。请检查这台电脑的日期和时间；如果公司网络会检查加密连接，需要在这台电脑上安装该网络的证书。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="26"/>
        <source>The download arrived, but the file is not the one expected: its checksum differs (damaged on the way, or replaced on the server). Nothing of it was kept. Try again; if it happens again, another stack or a catalog update may help.</source>
        <translation>下载已完成，但文件不是预期的那个：校验和不符（可能在传输中损坏，或服务器上的文件已被替换）。下载的内容已全部丢弃。请再试一次；如果再次出现，换一个软件栈或更新知识库可能会有帮助。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="32"/>
        <source>The download arrived, but the file is not the one expected: its size differs from the catalog&apos;s. Nothing of it was kept. Try again; if it happens again, another stack or a catalog update may help.</source>
        <translation>下载已完成，但文件不是预期的那个：大小与知识库记录的不符。下载的内容已全部丢弃。请再试一次；如果再次出现，换一个软件栈或更新知识库可能会有帮助。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="37"/>
        <source>The disk is full. Free some space, or choose another install folder in StackPilot&apos;s settings, then try again.</source>
        <translation>磁盘已满。请释放一些空间，或在 StackPilot 的设置中换一个安装目录，然后再试一次。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="41"/>
        <source>The system refused to let StackPilot write a file. Choose an install folder of your own in StackPilot&apos;s settings, or start StackPilot as administrator once, then try again.</source>
        <translation>系统拒绝让 StackPilot 写入文件。请在 StackPilot 的设置中选择一个属于您自己的安装目录，或以管理员身份运行一次 StackPilot，然后再试一次。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="46"/>
        <source>Cancelled as asked; nothing half-installed was kept.</source>
        <translation>已按要求取消；没有保留任何安装了一半的文件。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="49"/>
        <source>StackPilot stopped on an internal error; nothing more was done. Try again; if it happens again, export diagnostics and report it.</source>
        <translation>StackPilot 因内部错误而停止，未再执行任何操作。请重试；如果再次发生，请导出诊断信息并报告。</translation>
    </message>
    <message>
        <location filename="../../app/common/diag/cause_words.cpp" line="55"/>
        <source>StackPilot stopped on an error it cannot name more precisely; the details say what happened. Try again, or export diagnostics to report it.</source>
        <translation>StackPilot 因一个无法准确说明的错误而停止；详细信息说明了发生的事情。请再试一次，或导出诊断包来报告问题。</translation>
    </message>
</context>
<context>
    <name>PlainWords</name>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="19"/>
        <source>today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="21"/>
        <source>yesterday</source>
        <translation>昨天</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="22"/>
        <source>%n days ago</source>
        <translation>
            <numerusform>%n 天前</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="40"/>
        <source>AMD&apos;s hipBLASLt math library</source>
        <translation>AMD 的 hipBLASLt 数学库</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="41"/>
        <source>AMD&apos;s rocBLAS math library</source>
        <translation>AMD 的 rocBLAS 数学库</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="42"/>
        <source>AMD&apos;s MIOpen library</source>
        <translation>AMD 的 MIOpen 库</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="43"/>
        <source>ZLUDA</source>
        <translation>ZLUDA</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="44"/>
        <source>AMD&apos;s MIGraphX library</source>
        <translation>AMD 的 MIGraphX 库</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="45"/>
        <source>the ONNX Runtime</source>
        <translation>ONNX 运行时</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="46"/>
        <source>AMD&apos;s GPU runtime (ROCr)</source>
        <translation>AMD 的显卡运行时（ROCr）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="47"/>
        <source>the AMD graphics driver</source>
        <translation>AMD 显卡驱动</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="48"/>
        <source>Windows, loading a library</source>
        <translation>Windows 加载库时</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="49"/>
        <source>AMD&apos;s HIP runtime</source>
        <translation>AMD 的 HIP 运行时</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="50"/>
        <source>the Vulkan graphics driver</source>
        <translation>Vulkan 显卡驱动</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="51"/>
        <source>NVIDIA&apos;s cuBLAS math library</source>
        <translation>NVIDIA 的 cuBLAS 数学库</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="52"/>
        <source>NVIDIA&apos;s CUDA runtime</source>
        <translation>NVIDIA 的 CUDA 运行时</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="53"/>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="54"/>
        <source>the program&apos;s build</source>
        <translation>程序的构建过程</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="59"/>
        <source>the workload itself</source>
        <translation>工作负载本身</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="65"/>
        <source>works, tested on this kind of card</source>
        <translation>可用，已在同类显卡上测试</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="67"/>
        <source>works, reported by users</source>
        <translation>可用，有用户报告</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="68"/>
        <source>experimental, may not work</source>
        <translation>实验性，可能无法运行</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="74"/>
        <source>This stack was run and checked on this kind of graphics card.</source>
        <translation>这个软件栈已在同类显卡上运行并检查过。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="77"/>
        <source>Users with this kind of graphics card report that this stack works; public reports are linked under “Why this stack?”.</source>
        <translation>使用同类显卡的用户报告这个软件栈可以运行；公开的报告链接在“为什么选这个软件栈？”中。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="80"/>
        <source>Nobody has confirmed this stack on this kind of card yet. StackPilot checks it on your PC before the first start.</source>
        <translation>还没有人在同类显卡上确认过这个软件栈。StackPilot 会在第一次启动前先在您的电脑上检查它。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="88"/>
        <source>StackPilot ranks it higher for this PC, but the stack above was chosen instead.</source>
        <translation>StackPilot 认为它更适合这台电脑，但选用的是上面的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="92"/>
        <source>It failed its check on this PC.</source>
        <translation>它在这台电脑上没有通过检查。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="94"/>
        <source>It runs on the processor only, which is much slower.</source>
        <translation>它只用处理器运行，速度慢得多。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="97"/>
        <source>The recommended stack already passed its check on this PC.</source>
        <translation>推荐的软件栈已经在这台电脑上通过了检查。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="100"/>
        <source>On other PCs with a graphics card like yours, the recommended stack passed more often.</source>
        <translation>在显卡与您相近的其他电脑上，推荐的软件栈通过得更多。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="104"/>
        <source>Fewer people have confirmed that it works.</source>
        <translation>确认它可用的人更少。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="107"/>
        <source>The published guides recommend the other route for this card.</source>
        <translation>公开的指南为这块显卡推荐另一种方式。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="110"/>
        <source>One of its downloads cannot be checked against a published address.</source>
        <translation>它的某个下载无法与公开的地址核对。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="113"/>
        <source>Its support for your graphics card is weaker.</source>
        <translation>它对您显卡的支持较弱。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="116"/>
        <source>It is made for a wider range of cards, not for yours in particular.</source>
        <translation>它面向更广泛的显卡，并非专为您的显卡准备。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="119"/>
        <source>It uses older versions.</source>
        <translation>它使用较旧的版本。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="120"/>
        <source>It is as good; the recommended one comes first.</source>
        <translation>它同样合适；推荐的排在前面。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="129"/>
        <source>Passed its check on this PC %1</source>
        <translation>%1在这台电脑上通过了检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="132"/>
        <source>Failed its check on this PC %1</source>
        <translation>%1在这台电脑上没有通过检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="138"/>
        <source>Passed on this PC before the driver changed; it is checked again before the next start</source>
        <translation>驱动更新前曾在这台电脑上通过检查；下次启动前会再检查一次</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="141"/>
        <source>Failed on this PC before the driver changed; it is checked again before the next start</source>
        <translation>驱动更新前曾在这台电脑上未通过检查；下次启动前会再检查一次</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plain_words.cpp" line="149"/>
        <source>No results from other PCs with this stack yet.</source>
        <translation>其他电脑还没有关于这个软件栈的结果。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="152"/>
        <source>Passed on %n PC(s) with a graphics card like yours, %1 failed (last: %2).</source>
        <translation>
            <numerusform>已在 %n 台显卡与您相近的电脑上通过，%1 台失败（最近一次：%2）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="159"/>
        <source>No results from PCs with a graphics card like yours yet; it passed on %n PC(s) with other cards.</source>
        <translation>
            <numerusform>显卡与您相近的电脑还没有结果；它已在 %n 台使用其他显卡的电脑上通过。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plain_words.cpp" line="164"/>
        <source>Passed on %n PC(s) with this stack, %1 failed (last: %2).</source>
        <translation>
            <numerusform>这个软件栈已在 %n 台电脑上通过，%1 台失败（最近一次：%2）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PlanExplain</name>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="38"/>
        <source>How far it is proven: %1. %2</source>
        <translation>验证程度：%1。%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="41"/>
        <source>It has not run on this PC yet: StackPilot checks it before the first start.</source>
        <translation>它还没有在这台电脑上运行过：StackPilot 会在第一次启动前检查它。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="53"/>
        <source>%1 cannot be used here: %2</source>
        <translation>%1 在这里不能使用：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="54"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_explain.cpp" line="57"/>
        <source>%n other stack(s) are made for other graphics cards or systems.</source>
        <translation>
            <numerusform>另有 %n 个软件栈是为其他显卡或系统准备的。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="78"/>
        <source>Installs %1 into StackPilot&apos;s own folder (%2). Removing the stack removes them; nothing else on the PC is replaced.</source>
        <translation>将 %1 安装到 StackPilot 自己的文件夹（%2）。移除软件栈时会一并移除它们；电脑上的其他内容都不会被替换。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="84"/>
        <source>Installs %1 for the whole PC with its maker&apos;s installer; Windows asks for administrator rights once.</source>
        <translation>用厂商的安装程序为整台电脑安装 %1；Windows 会请求一次管理员权限。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="90"/>
        <source>Everything it needs is installed already.</source>
        <translation>它需要的一切都已安装。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_explain.cpp" line="94"/>
        <source>Sets %n setting(s) for %1 only, while it runs; the PC&apos;s own settings stay as they are.</source>
        <translation>
            <numerusform>仅在 %1 运行时为它设置 %n 项设置；电脑本身的设置保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="101"/>
        <source>Gives %1 a Python of its own, so other Python programs are not touched.</source>
        <translation>为 %1 准备一个独立的 Python，不会影响其他 Python 程序。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="106"/>
        <source>Starts %1 with a setting for your card: %2</source>
        <translation>启动 %1 时使用一项适合您显卡的设置：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="121"/>
        <source>No published checksum for %1: StackPilot records what arrives the first time and warns you if it ever changes.</source>
        <translation>%1 没有公开的校验和：StackPilot 会记录第一次下载到的内容，如果以后有变化会提醒您。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="127"/>
        <source>No public guide names the download address of %1, so who made that file cannot be checked.</source>
        <translation>没有公开的指南给出 %1 的下载地址，因此无法核实该文件的制作者。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="135"/>
        <source>Nobody has run StackPilot&apos;s own test of this stack on a card like yours; the check on this PC before the first start is the first proof.</source>
        <translation>还没有人在同类显卡上运行过 StackPilot 对这个软件栈的测试；第一次启动前在这台电脑上的检查就是第一份证明。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="145"/>
        <source>Profile: %1 (%2)</source>
        <translation>软件栈：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="147"/>
        <source>Downloads and folders:</source>
        <translation>下载与文件夹：</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="151"/>
        <source>Environment of the workload:</source>
        <translation>工作负载的环境变量：</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="160"/>
        <source>  %1 is removed</source>
        <translation>  移除 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="163"/>
        <source>Command: %1</source>
        <translation>命令：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="165"/>
        <source>Setup step: %1</source>
        <translation>准备步骤：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="167"/>
        <source>Check before the first start: %1</source>
        <translation>第一次启动前的检查：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_explain.cpp" line="170"/>
        <source>Planner&apos;s note: %1</source>
        <translation>选择时的备注：%1</translation>
    </message>
</context>
<context>
    <name>PlanView</name>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="30"/>
        <source>processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="37"/>
        <source>HIP SDK %1</source>
        <translation>HIP SDK %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="39"/>
        <source>ZLUDA %1</source>
        <translation>ZLUDA %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="43"/>
        <source>rocBLAS for %1</source>
        <translation>适用于 %1 的 rocBLAS</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="46"/>
        <source>ROCm %1</source>
        <translation>ROCm %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="48"/>
        <source>PyTorch %1</source>
        <translation>PyTorch %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="50"/>
        <source>llama.cpp build %1 (%2)</source>
        <translation>llama.cpp 构建 %1（%2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="53"/>
        <source>llamafile %1</source>
        <translation>llamafile %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="55"/>
        <source>Python %1</source>
        <translation>Python %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="57"/>
        <source>Git %1</source>
        <translation>Git %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="67"/>
        <source>%1 %2 (source)</source>
        <translation>%1 %2（源码）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="80"/>
        <source>this machine (no usable GPU)</source>
        <translation>本机（没有可用的显卡）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="82"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="127"/>
        <source>Known problem on your card: %1</source>
        <translation>您的显卡上有已知问题：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="134"/>
        <source>It does not fit this PC&apos;s graphics card or system.</source>
        <translation>它不适合这台电脑的显卡或系统。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="179"/>
        <source> (variant %1)</source>
        <translation>（变体 %1）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="191"/>
        <source>%1 on your %2</source>
        <translation>在您的 %2 上运行 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="193"/>
        <source>%1 on this PC&apos;s processor</source>
        <translation>在这台电脑的处理器上运行 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="202"/>
        <source>The stack that fits %1 best.</source>
        <translation>最适合 %1 的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="218"/>
        <source>None of the stacks StackPilot knows runs %1 on your %2, so this one runs it on the processor: expect minutes where a supported graphics card takes seconds. %3</source>
        <translation>StackPilot 已知的软件栈都不能在您的 %2 上运行 %1，所以这个软件栈用处理器来运行：受支持的显卡几秒钟完成的工作，这里可能要几分钟。%3</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="250"/>
        <source>Administrator rights: Windows will ask for them to install %1.</source>
        <translation>管理员权限：安装 %1 时 Windows 会请求管理员权限。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="255"/>
        <source>%n download(s) have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</source>
        <translation>
            <numerusform>有 %n 个下载没有公开的校验值：StackPilot 会记录第一次收到的文件，以后一旦变化就提醒您。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="272"/>
        <source>Everything is installed.</source>
        <translation>全部已安装。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="274"/>
        <source>To install: %n part(s), about %1 to download.</source>
        <translation>
            <numerusform>待安装：%n 个部分，需下载约 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="280"/>
        <source>To install: %n part(s). The download size of %1 is not known before the download.</source>
        <translation>
            <numerusform>待安装：%n 个部分。%1 的下载大小在下载之前无法得知。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/models/plan_view.cpp" line="285"/>
        <source>To install: %n part(s), about %1 to download, plus %2, whose size is not known before the download.</source>
        <translation>
            <numerusform>待安装：%n 个部分，需下载约 %1，另有 %2，其大小在下载之前无法得知。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="292"/>
        <source>Download: about %1.</source>
        <translation>下载：约 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="294"/>
        <source>Download: the size of %1 is not known before the download.</source>
        <translation>下载：%1 的大小在下载之前无法得知。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="297"/>
        <source>Download: about %1, plus %2, whose size is not known before the download.</source>
        <translation>下载：约 %1，另有 %2，其大小在下载之前无法得知。</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="329"/>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/plan_view.cpp" line="352"/>
        <source>No stack for %1 fits this PC; the other stacks say why.</source>
        <translation>没有适合这台电脑的 %1 软件栈；其他软件栈中列出了原因。</translation>
    </message>
</context>
<context>
    <name>sp::gui::AlternativesView</name>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="17"/>
        <source>Double-click a stack, or right-click it, to use it instead</source>
        <translation>双击或右键单击一个软件栈即可改用它</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="32"/>
        <source>Other stacks, and why each is not first</source>
        <translation>其他软件栈，以及它们没有排在第一的原因</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="49"/>
        <source>%n more stack(s) for other cards or systems</source>
        <translation>
            <numerusform>另有 %n 个软件栈适用于其他显卡或系统</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/alternatives_view.cpp" line="71"/>
        <source>Use this stack instead</source>
        <translation>改用这个软件栈</translation>
    </message>
</context>
<context>
    <name>sp::gui::AppController</name>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="44"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="67"/>
        <source>Detecting…</source>
        <translation>正在检测…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="46"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="68"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="48"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="68"/>
        <source>Cancel install</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="41"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="51"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="67"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="41"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="53"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="67"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="58"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="69"/>
        <source>Resume install</source>
        <translation>继续安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="58"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="68"/>
        <source>Retry install</source>
        <translation>重试安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="61"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="62"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="69"/>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="62"/>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="69"/>
        <source>Install and launch</source>
        <translation>安装并启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="243"/>
        <location filename="../../app/gui/controllers/app_runs.cpp" line="63"/>
        <source>%1 ended.</source>
        <translation>%1 已结束。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="244"/>
        <source>%1 ended with an error.</source>
        <translation>%1 出错结束。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="290"/>
        <source>Switch stack and relaunch</source>
        <translation>切换软件栈并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="360"/>
        <source>%1 uses the recommended stack again.</source>
        <translation>%1 已恢复使用推荐的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="207"/>
        <source>Installed.</source>
        <translation>已安装。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="231"/>
        <source>Could not launch: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="23"/>
        <source>Installing %1 (%2 of %3)…</source>
        <translation>正在安装 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="29"/>
        <source>Downloaded %1</source>
        <translation>已下载 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="34"/>
        <source>%1 was installed already</source>
        <translation>%1 已经安装过</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/controllers/app_notes.cpp" line="35"/>
        <source>%1 installed in %2 (%n file(s))</source>
        <translation>
            <numerusform>%1 已安装到 %2（%n 个文件）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="44"/>
        <source>Checking the stack on this PC before the first start…</source>
        <translation>第一次启动前正在这台电脑上检查软件栈…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="45"/>
        <source>Starting %1; its output follows.</source>
        <translation>正在启动 %1；下面是它的输出。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="56"/>
        <location filename="../../app/gui/controllers/app_session.cpp" line="234"/>
        <source>Setup step %1 of %2: %3</source>
        <translation>准备步骤 %1/%2：%3</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="58"/>
        <source>Setup step %1 of %2 done</source>
        <translation>准备步骤 %1/%2 已完成</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="60"/>
        <source>Setup steps skipped: %1</source>
        <translation>已跳过准备步骤：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_notes.cpp" line="63"/>
        <source>Setup step %1 of %2 ended: %3</source>
        <translation>准备步骤 %1/%2 已结束：%3</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="235"/>
        <source>Setup steps: %1</source>
        <translation>准备步骤：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="22"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="24"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="26"/>
        <source>done before, skipped</source>
        <translation>之前已完成，跳过</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="28"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="30"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="34"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="222"/>
        <source>Before StackPilot installs %1</source>
        <translation>StackPilot 安装 %1 之前</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="89"/>
        <source>This is a recorded PC: StackPilot shows its plan and installs or launches nothing.</source>
        <translation>这是记录下来的电脑：StackPilot 只显示它的计划，不会安装或启动任何东西。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="150"/>
        <source>The unfinished install was discarded.</source>
        <translation>未完成的安装已丢弃。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="181"/>
        <source>%1 cannot be used here (%2); StackPilot tries %3.</source>
        <translation>%1 无法在此使用（%2）；StackPilot 改用 %3。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="215"/>
        <source>Cancelled; nothing half-installed was kept.</source>
        <translation>已取消；没有保留任何安装了一半的内容。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="296"/>
        <source>Switch to %1 and relaunch</source>
        <translation>切换到 %1 并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="299"/>
        <source>Repair and relaunch</source>
        <translation>修复并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="301"/>
        <source>Apply the fix and relaunch</source>
        <translation>应用修复并重新启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_actions.cpp" line="361"/>
        <source>%1 now uses %2.</source>
        <translation>%1 现在使用 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_session.cpp" line="204"/>
        <source>Checking that %1 computes on your %2…</source>
        <translation>正在检查 %1 能否在您的 %2 上完成计算…</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="148"/>
        <source>stackpilot-cli detect exited with code %1</source>
        <translation>stackpilot-cli detect 退出，代码 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_controller.cpp" line="157"/>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="22"/>
        <source>PC</source>
        <translation>电脑</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="32"/>
        <source>its check did not pass</source>
        <translation>它没有通过检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="40"/>
        <source>%1 failed its check on your %2</source>
        <translation>%1 未通过在您的 %2 上的检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="41"/>
        <source>%1. No other stack fits this PC.</source>
        <translation>%1。没有其他软件栈适合这台电脑。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="42"/>
        <source>%1. StackPilot can switch to %2.</source>
        <translation>%1。StackPilot 可以切换到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="43"/>
        <source>Switch and launch</source>
        <translation>切换并启动</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_verify.cpp" line="67"/>
        <source>%1 is back on %2, which passed its check on this PC on %3.</source>
        <translation>%1 已回到 %2，它于 %3 在这台电脑上通过了检查。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="32"/>
        <source>The install did not finish</source>
        <translation>安装没有完成</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="57"/>
        <source>StackPilot stopped on an internal error</source>
        <translation>StackPilot 因内部错误而停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="70"/>
        <source>StackPilot could not detect the graphics card</source>
        <translation>StackPilot 无法检测显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="72"/>
        <source>The check of the graphics hardware failed. Press Retry, or go on with the stacks that run on the processor (slower, but they work without a graphics driver).</source>
        <translation>显卡硬件检查失败。点“重试”，或者继续使用在处理器上运行的软件栈（较慢，但不需要显卡驱动）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="75"/>
        <source>StackPilot&apos;s knowledge files could not be read. Press Retry; if this persists, export diagnostics and report it.</source>
        <translation>无法读取 StackPilot 的知识库文件。点“重试”；如果问题依旧，请导出诊断包并报告。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="81"/>
        <source>No graphics driver installed yet? Get it from your card&apos;s maker: &lt;a href=&quot;https://www.amd.com/en/support/download/drivers.html&quot;&gt;AMD&lt;/a&gt;, &lt;a href=&quot;https://www.nvidia.com/en-us/drivers/&quot;&gt;NVIDIA&lt;/a&gt;, &lt;a href=&quot;https://www.intel.com/content/www/us/en/download-center/home.html&quot;&gt;Intel&lt;/a&gt;. Then choose View ▸ Detect graphics cards again.</source>
        <translation>还没有安装显卡驱动？请从显卡厂商处获取：&lt;a href=&quot;https://www.amd.com/en/support/download/drivers.html&quot;&gt;AMD&lt;/a&gt;、&lt;a href=&quot;https://www.nvidia.com/en-us/drivers/&quot;&gt;NVIDIA&lt;/a&gt;、&lt;a href=&quot;https://www.intel.com/content/www/us/en/download-center/home.html&quot;&gt;Intel&lt;/a&gt;。然后选择“查看 ▸ 重新检测显卡”。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="103"/>
        <source>%1 crashed</source>
        <translation>%1 崩溃了</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="103"/>
        <source>%1 stopped with an error</source>
        <translation>%1 出错停止</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="107"/>
        <source>The workload crashed: %1.</source>
        <translation>工作负载崩溃：%1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="108"/>
        <source>The workload %1. Its last lines are in the console above.</source>
        <translation>工作负载%1。它最后的输出在上方的控制台中。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="138"/>
        <source>Not a known problem yet. The line that decides it comes from %1:
%2</source>
        <translation>这还不是已知问题。决定性的那一行来自%1：
%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="41"/>
        <location filename="../../app/gui/controllers/app_failures.cpp" line="160"/>
        <source>Use %1 instead</source>
        <translation>改用 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="23"/>
        <source>Download: about %1 (checked just now).</source>
        <translation>下载：约 %1（刚刚核实）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="25"/>
        <source>Download: the size of %1 is not known before the download.</source>
        <translation>下载：%1 的大小在下载之前无法得知。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="27"/>
        <source>Download: about %1 (checked just now), plus %2, whose size is not known before the download.</source>
        <translation>下载：约 %1（刚刚核实），另有 %2，其大小在下载之前无法得知。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="39"/>
        <source>Model: %1, %2, checked against its published digest.</source>
        <translation>模型：%1，%2，按其公布的摘要校验。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="43"/>
        <source>Disk: about %1 while installing; %2 free.</source>
        <translation>磁盘：安装时约需 %1；可用 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="45"/>
        <source>Disk: about %1 while installing.</source>
        <translation>磁盘：安装时约需 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="47"/>
        <source>The disk has less free space than the install needs: free some space first, or choose another folder in Settings.</source>
        <translation>磁盘可用空间少于安装所需：请先释放一些空间，或在“设置”中选择其他文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="55"/>
        <source>Administrator rights: Windows will ask for them to install %1.</source>
        <translation>管理员权限：安装 %1 时 Windows 会请求管理员权限。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/controllers/app_checklist.cpp" line="59"/>
        <source>%n download(s) have no published checksum: StackPilot records what arrives the first time and warns you if it ever changes.</source>
        <translation>
            <numerusform>有 %n 个下载没有公开的校验值：StackPilot 会记录第一次收到的文件，以后一旦变化就提醒您。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_runs.cpp" line="64"/>
        <source>%1 ended with an error; its log has the details.</source>
        <translation>%1 出错结束；详情见其日志。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_runs.cpp" line="105"/>
        <source>an amount the catalog does not state</source>
        <translation>目录未注明的显存量</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_runs.cpp" line="108"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_runs.cpp" line="106"/>
        <source>%1 already runs on %2 (%3 of memory). Both share it: %1 needs at least %4, %5 at least %6.</source>
        <translation>%1 已在 %2（显存 %3）上运行。两者将共用这张卡：%1 至少需要 %4，%5 至少需要 %6。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_models.cpp" line="165"/>
        <source>%1 is ready.</source>
        <translation>%1 已就绪。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_models.cpp" line="167"/>
        <source>Paused. What arrived is kept; Download goes on from there.</source>
        <translation>已暂停。已下载的部分会保留；再次下载时从那里继续。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_models.cpp" line="169"/>
        <source>Could not download %1: %2</source>
        <translation>无法下载 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="94"/>
        <source>Help other owners of the %1: share this result?</source>
        <translation>帮助其他 %1 的用户：分享这个结果吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="131"/>
        <source>The result could not be queued: %1</source>
        <translation>无法将结果放入队列：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="134"/>
        <source>The report opened in your browser with the result filled in; send it from there.</source>
        <translation>报告已在浏览器中打开，结果已填好；请在那里提交。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="138"/>
        <source>Thank you: the result was sent.</source>
        <translation>谢谢：结果已发送。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="141"/>
        <source>The result waits in the queue; it is sent on the next try.</source>
        <translation>结果在队列中等待；下次尝试时发送。</translation>
    </message>
    <message>
        <location filename="../../app/gui/controllers/app_share.cpp" line="142"/>
        <source>The result waits in the queue until a ledger address is set.</source>
        <translation>结果在队列中等待，直到设置了结果库地址。</translation>
    </message>
</context>
<context>
    <name>sp::gui::ConsoleView</name>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="150"/>
        <location filename="../../app/gui/widgets/console_view.cpp" line="163"/>
        <source>Search the console</source>
        <translation>在控制台中搜索</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="152"/>
        <source>Find in the output (Ctrl+F); Enter finds the next match</source>
        <translation>在输出中查找（Ctrl+F）；按回车查找下一个</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="158"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="159"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="161"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="162"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="166"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="167"/>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="169"/>
        <source>Keep the newest line in view</source>
        <translation>始终显示最新一行</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="170"/>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="206"/>
        <source>The workload&apos;s output appears here once it runs.
The whole log is also kept on disk.</source>
        <translation>工作负载运行后，它的输出会显示在这里。
完整日志也会保存在磁盘上。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="254"/>
        <source>%1 lines; showing the last %2</source>
        <translation>共 %1 行；显示最后 %2 行</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/console_view.cpp" line="255"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="262"/>
        <source>Full log</source>
        <translation>完整日志</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="263"/>
        <source>The whole output of this run, kept on disk</source>
        <translation>这次运行的完整输出，保存在磁盘上</translation>
    </message>
</context>
<context>
    <name>sp::gui::DetailsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="42"/>
        <source>The public reports behind it</source>
        <translation>依据的公开报告</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="49"/>
        <source>Why this stack?</source>
        <translation>为什么选这个软件栈？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="62"/>
        <source>Why this stack</source>
        <translation>为什么选这个软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="63"/>
        <source>What it is</source>
        <translation>它是什么</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="64"/>
        <source>Why it comes before the other stacks</source>
        <translation>为什么排在其他软件栈之前</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="65"/>
        <source>What it changes on this PC</source>
        <translation>它会改变这台电脑上的什么</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="66"/>
        <source>What cannot be checked before it runs</source>
        <translation>运行前无法核实的内容</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="71"/>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="83"/>
        <source>Details for experts</source>
        <translation>专业人士的详细信息</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="76"/>
        <source>The stack&apos;s ids, the variables it sets and the command it runs</source>
        <translation>软件栈的标识、它设置的变量以及它运行的命令</translation>
    </message>
</context>
<context>
    <name>sp::gui::DiagnosticsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="28"/>
        <source>Export diagnostics</source>
        <translation>导出诊断包</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="31"/>
        <source>One zip file with what someone helping you will ask for: your graphics cards and what StackPilot checked on them, the chosen stack and why, the installed parts checked again, recent launches and their logs, the environment, and StackPilot&apos;s health check of this PC. Tokens, passwords, keys and your user name are replaced before anything is written; review the list below.</source>
        <translation>一个 zip 文件，包含帮助您的人会问到的全部信息：您的显卡以及 StackPilot 对它们的检查结果、选中的软件栈及原因、重新校验的已安装部分、最近的启动及其日志、环境变量，以及 StackPilot 对这台电脑的健康检查。令牌、密码、密钥和您的用户名在写入前都会被替换；请检查下面的列表。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="41"/>
        <source>Collecting…</source>
        <translation>正在收集…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="44"/>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="44"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="44"/>
        <source>Redacted</source>
        <translation>已脱敏</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="53"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="56"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="64"/>
        <source>Save diagnostics</source>
        <translation>保存诊断包</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="65"/>
        <source>Zip files (*.zip)</source>
        <translation>Zip 文件 (*.zip)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="105"/>
        <source>Collecting: %1…</source>
        <translation>正在收集：%1…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="112"/>
        <source>Could not collect: %1</source>
        <translation>无法收集：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="133"/>
        <source>%n entries, %1 before compression.</source>
        <translation>
            <numerusform>%n 个条目，压缩前 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="135"/>
        <source>Redacted in all, by kind (values are never recorded): %1</source>
        <translation>按类型统计的脱敏总数（从不记录原值）：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="151"/>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="160"/>
        <source>Could not save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/diagnostics_dialog.cpp" line="163"/>
        <source>Saved to %1. Attach it where you ask for help: the issue or forum post about the problem, for the people of the program that failed or of StackPilot.</source>
        <translation>已保存到 %1。请在求助的地方附上它：针对这个问题的 issue 或论坛帖子，发给出错程序或 StackPilot 的维护者。</translation>
    </message>
</context>
<context>
    <name>sp::gui::EnvironmentDialog</name>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="109"/>
        <source>Environment of %1</source>
        <translation>%1 的环境变量</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="113"/>
        <source>What the workload sees: %n variable(s) differ from your system&apos;s environment, each with the reason.</source>
        <translation>
            <numerusform>工作负载看到的环境：有 %n 个变量与系统环境不同，每个都附有原因。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="131"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/plan_dialogs.cpp" line="132"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>sp::gui::EnvironmentModel</name>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="67"/>
        <source>Hidden: it is a secret (a token or key)</source>
        <translation>已隐藏：这是机密信息（令牌或密钥）</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="72"/>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="74"/>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="76"/>
        <source>removed</source>
        <translation>已移除</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="77"/>
        <source>as in your environment</source>
        <translation>与系统环境相同</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="98"/>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="100"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="102"/>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <location filename="../../app/gui/models/environment_model.cpp" line="104"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>sp::gui::FailureCard</name>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="37"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="99"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="102"/>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="103"/>
        <source>Remove what this install downloaded so far.</source>
        <translation>删除此次安装到目前为止下载的内容。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="106"/>
        <source>Proxy settings…</source>
        <translation>代理设置…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="112"/>
        <source>Export diagnostics…</source>
        <translation>导出诊断包…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="113"/>
        <source>Saves a report without personal data, to attach to a bug report</source>
        <translation>保存一份不含个人数据的报告，可附在问题报告中</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="117"/>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="120"/>
        <source>Copy search text</source>
        <translation>复制搜索文本</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="121"/>
        <source>Copies the failing line, without your folders, to search the web or the program&apos;s issues for it</source>
        <translation>复制出错的那一行（不含您的文件夹路径），用于在网上或程序的问题列表中搜索</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="125"/>
        <source>Report this failure</source>
        <translation>报告此故障</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="126"/>
        <source>Copies a report with the failing lines, without personal data, to paste into a new issue</source>
        <translation>复制一份包含出错行、不含个人数据的报告，可粘贴到新的问题报告中</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="130"/>
        <source>Continue with CPU stacks</source>
        <translation>继续使用 CPU 软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/failure_card.cpp" line="131"/>
        <source>Stacks that run on the processor: slower, but they need no graphics driver</source>
        <translation>在处理器上运行的软件栈：较慢，但不需要显卡驱动</translation>
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
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="35"/>
        <source>This vendor library answered and reported your card.</source>
        <translation>这个厂商库有响应，并报告了您的显卡。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="37"/>
        <source>Not installed on this PC. That is fine unless a stack needs it.</source>
        <translation>这台电脑上没有安装。除非某个软件栈需要它，否则没有关系。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="39"/>
        <source>It found no card to talk to, as expected on a PC without one.</source>
        <translation>它没有找到可用的显卡；没有显卡的电脑本来就是这样。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="40"/>
        <source>It did not answer as it should. The diagnostics export has its message.</source>
        <translation>它没有正常响应。导出的诊断包中有它的消息。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="88"/>
        <source>Detecting your GPU…</source>
        <translation>正在检测显卡…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="89"/>
        <source>Reading the PCI devices, the driver and the vendor libraries. This takes a few seconds.</source>
        <translation>正在读取 PCI 设备、驱动和厂商库，需要几秒钟。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="106"/>
        <source>Detection failed</source>
        <translation>检测失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="113"/>
        <source>A recorded PC: this is the plan its user sees. Nothing is installed or launched here.</source>
        <translation>记录下来的电脑：这是它的用户看到的计划。这里不会安装或启动任何东西。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="134"/>
        <source>No GPU found</source>
        <translation>未找到显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="135"/>
        <source>CPU-only stacks are still available.</source>
        <translation>仍可使用纯 CPU 的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="145"/>
        <source>%1 VRAM, shared with the system&apos;s memory</source>
        <translation>%1 显存，与系统内存共享</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="146"/>
        <source>%1 VRAM</source>
        <translation>%1 显存</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="147"/>
        <source>%1  ·  %2  ·  %3</source>
        <translation>%1  ·  %2  ·  %3</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="149"/>
        <source>driver unknown</source>
        <translation>驱动版本未知</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="150"/>
        <source>driver %1</source>
        <translation>驱动 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="153"/>
        <source>integrated</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="153"/>
        <source>discrete</source>
        <translation>独立显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="168"/>
        <source>Checked with:</source>
        <translation>检测工具：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/gpu_panel.cpp" line="181"/>
        <source>no card</source>
        <translation>无显卡</translation>
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
        <location filename="../../app/gui/widgets/install_panel.cpp" line="36"/>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="118"/>
        <source>Installing</source>
        <translation>正在安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="42"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="72"/>
        <source>Setting up %1</source>
        <translation>正在准备 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="94"/>
        <source>%1 downloaded; the size is not known before the download</source>
        <translation>已下载 %1；下载前无法得知大小</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/install_panel.cpp" line="98"/>
        <source>%1 of about %2 known so far, plus %n part(s) whose size is not known yet</source>
        <translation>
            <numerusform>已下载 %1，目前已知总量约 %2，另有 %n 个部分的大小尚不清楚</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="107"/>
        <source>time left not known yet</source>
        <translation>剩余时间尚不清楚</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="119"/>
        <source>Installing %1 (%2 of %3)</source>
        <translation>正在安装 %1（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="96"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="105"/>
        <location filename="../../app/gui/widgets/install_panel.cpp" line="155"/>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
</context>
<context>
    <name>sp::gui::IssueBanner</name>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="112"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="134"/>
        <source>Known problem: %1</source>
        <translation>已知问题：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/console_view.cpp" line="136"/>
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
    <name>sp::gui::MainWindow</name>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="66"/>
        <source>Detecting GPUs…</source>
        <translation>正在检测显卡…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="196"/>
        <source>%1 is ready at %2</source>
        <translation>%1 已就绪：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="85"/>
        <source>Cancel the install?</source>
        <translation>取消安装吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="86"/>
        <source>What was downloaded so far is discarded; nothing half-installed is kept.</source>
        <translation>已下载的内容将被丢弃；不会保留任何安装了一半的文件。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="102"/>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;%2&lt;/ul&gt;&lt;p&gt;Install and launch now?&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;%2&lt;/ul&gt;&lt;p&gt;现在安装并启动吗？&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="147"/>
        <source>The failing line is copied: paste it into a search.</source>
        <translation>已复制出错的那一行：请粘贴到搜索框中。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="151"/>
        <source>The report is copied: paste it into a new issue of the program, or of StackPilot.</source>
        <translation>已复制报告：请粘贴到该程序或 StackPilot 的新问题报告中。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="201"/>
        <source>%1 at %2</source>
        <translation>%1（位于 %2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="205"/>
        <source>Automatic (%1)</source>
        <translation>自动（%1）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="205"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="220"/>
        <source>No download: only the models already in its folders</source>
        <translation>不下载：只用它文件夹中已有的模型</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="230"/>
        <source>downloaded</source>
        <translation>已下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="230"/>
        <source>downloaded at launch</source>
        <translation>启动时下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="232"/>
        <source>too large for this card</source>
        <translation>超出此显卡的容量</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="272"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="273"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="275"/>
        <source>&amp;Open folder</source>
        <translation>打开文件夹(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="280"/>
        <source>&amp;Installed stacks</source>
        <translation>已安装的软件栈(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="281"/>
        <source>&amp;Models</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="284"/>
        <source>&amp;Logs</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="286"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="287"/>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="288"/>
        <source>&amp;Environment…</source>
        <translation>环境变量(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="289"/>
        <source>&amp;Models…</source>
        <translation>模型(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="290"/>
        <source>&amp;Console</source>
        <translation>控制台(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="292"/>
        <source>Show the console even before anything runs</source>
        <translation>即使还没有运行任何程序，也显示控制台</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="295"/>
        <source>&amp;Detect graphics cards again</source>
        <translation>重新检测显卡(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="297"/>
        <source>After installing a driver or plugging in a card</source>
        <translation>在安装驱动或插入显卡之后使用</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="298"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="301"/>
        <source>&amp;User guide</source>
        <translation>使用指南(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="310"/>
        <source>Export &amp;diagnostics…</source>
        <translation>导出诊断包(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="315"/>
        <source>&amp;About StackPilot</source>
        <translation>关于 StackPilot(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="316"/>
        <source>About StackPilot</source>
        <translation>关于 StackPilot</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="317"/>
        <source>&lt;b&gt;StackPilot %1&lt;/b&gt;&lt;p&gt;Runs local AI workloads on the stack known to work on your GPU.&lt;/p&gt;</source>
        <translation>&lt;b&gt;StackPilot %1&lt;/b&gt;&lt;p&gt;在已知适用于您显卡的软件栈上运行本地 AI 工作负载。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="341"/>
        <source>&amp;Uninstall this stack…</source>
        <translation>卸载这个软件栈(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="343"/>
        <source>Removes what this stack installed and says how much space that frees; what another installed stack uses stays</source>
        <translation>移除这个软件栈安装的内容并说明能释放多少空间；其他已安装的软件栈用到的部分会保留</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="361"/>
        <source>its own Python environment</source>
        <translation>它自己的 Python 环境</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="363"/>
        <source>Nothing of this stack is installed.</source>
        <translation>这个软件栈还没有安装任何内容。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="366"/>
        <source>Removes %1, which frees about %2.</source>
        <translation>将移除 %1，可释放约 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="369"/>
        <source>%1 stay: another installed stack uses them.</source>
        <translation>%1 会保留：其他已安装的软件栈在使用它们。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="371"/>
        <source>Uninstall %1?</source>
        <translation>卸载 %1 吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="375"/>
        <source>Uninstalled: %1 freed.</source>
        <translation>已卸载：释放了 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="376"/>
        <source>Could not uninstall: %1</source>
        <translation>无法卸载：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="388"/>
        <source>%1&apos;s own site</source>
        <translation>%1 的官方网站</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="228"/>
        <source>Show StackPilot</source>
        <translation>显示 StackPilot</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="234"/>
        <source>Quit StackPilot</source>
        <translation>退出 StackPilot</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="330"/>
        <source>%1 (running)</source>
        <translation>%1（运行中）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="367"/>
        <source>An install for %1 (%2) failed %3. Press “Retry install” to try again.</source>
        <translation>%1（%2）的安装于 %3 失败。按“重试安装”再试一次。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="370"/>
        <source>Discard it</source>
        <translation>丢弃它</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="443"/>
        <source>Stop and quit</source>
        <translation>停止并退出</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="445"/>
        <source>Keep running in the tray</source>
        <translation>在托盘中继续运行</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="446"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="452"/>
        <source>%1 is running. Closing StackPilot stops it.</source>
        <translation>%1 正在运行。关闭 StackPilot 会停止它。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="453"/>
        <source>Close StackPilot?</source>
        <translation>关闭 StackPilot？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="168"/>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="172"/>
        <source>Quit StackPilot?</source>
        <translation>退出 StackPilot 吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="169"/>
        <source>%1 is running. Quitting StackPilot stops it.</source>
        <translation>%1 正在运行。退出 StackPilot 会停止它。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="450"/>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="172"/>
        <source>An install is in progress. If you quit now, you can resume it the next time you start StackPilot.</source>
        <translation>正在安装。如果现在退出，下次启动 StackPilot 时可以继续安装。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="276"/>
        <source>The graphics card could not be detected. The card below says what you can do.</source>
        <translation>无法检测到显卡。下方的卡片说明了您可以怎么做。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="91"/>
        <source>&amp;Workload:</source>
        <translation>工作负载(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="95"/>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="96"/>
        <source>The program StackPilot installs and starts</source>
        <translation>StackPilot 安装并启动的程序</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="238"/>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="284"/>
        <source>No GPU found. CPU-only stacks are still available.</source>
        <translation>未找到显卡。仍可使用纯 CPU 的软件栈。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/main_window.cpp" line="285"/>
        <source>%n GPU(s) found.</source>
        <translation>
            <numerusform>找到 %n 块显卡。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window_actions.cpp" line="331"/>
        <source>%1 (installed)</source>
        <translation>%1（已安装）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="364"/>
        <source>An install for %1 (%2) was interrupted %3. Press “Resume install” to continue where it stopped.</source>
        <translation>%1（%2）的安装在 %3 中断了。点“继续安装”可从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="375"/>
        <source>StackPilot — running %1</source>
        <translation>StackPilot — 正在运行 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="383"/>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="384"/>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Line %2 of the log:&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;日志第 %2 行：&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="392"/>
        <source>&lt;p&gt;Evidence:&lt;/p&gt;</source>
        <translation>&lt;p&gt;依据：&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="399"/>
        <source>Why StackPilot thinks so</source>
        <translation>StackPilot 的判断依据</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="418"/>
        <source>Settings saved.</source>
        <translation>设置已保存。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/main_window.cpp" line="428"/>
        <source>No stack is chosen, so there is no environment to show.</source>
        <translation>尚未选择软件栈，没有可显示的环境。</translation>
    </message>
</context>
<context>
    <name>sp::gui::ModelsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="36"/>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="49"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="43"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="43"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="43"/>
        <source>Used by</source>
        <translation>使用者</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="43"/>
        <source>Your GPU</source>
        <translation>您的显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="43"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="51"/>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="145"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="52"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="53"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="54"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="55"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="86"/>
        <source>Downloading… %1 %</source>
        <translation>正在下载… %1 %</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="88"/>
        <source>Downloaded</source>
        <translation>已下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="88"/>
        <source>Your file, used in place</source>
        <translation>您的文件，原地使用</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="90"/>
        <source>Paused at %1 %</source>
        <translation>已暂停于 %1 %</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="91"/>
        <source>Not downloaded</source>
        <translation>未下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="102"/>
        <source>Fits</source>
        <translation>可容纳</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="103"/>
        <source>Too large for this card</source>
        <translation>超出此显卡的容量</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="121"/>
        <source>%n model(s) in the vault; StackPilot&apos;s downloads take %1 (%2 free on that disk). Imported files stay where they are and take no space here.</source>
        <translation>
            <numerusform>模型库中有 %n 个模型；StackPilot 下载的文件占用 %1（该磁盘剩余 %2）。导入的文件保留在原处，不占用这里的空间。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="125"/>
        <source>%n model(s) in the vault; StackPilot&apos;s downloads take %1.</source>
        <translation>
            <numerusform>模型库中有 %n 个模型；StackPilot 下载的文件占用 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/models_dialog.cpp" line="144"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>sp::gui::ProfileCard</name>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="51"/>
        <source>Why this stac&amp;k?</source>
        <translation>为什么选这个软件栈？(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="52"/>
        <source>E&amp;nvironment…</source>
        <translation>环境变量(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="53"/>
        <source>The variables StackPilot sets for this stack, and why</source>
        <translation>StackPilot 为这个软件栈设置的变量及原因</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="107"/>
        <source>What gets installed</source>
        <translation>将要安装的内容</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="146"/>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="146"/>
        <source>Graphics card for this workload</source>
        <translation>此工作负载使用的显卡</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="155"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="155"/>
        <source>Model this workload runs</source>
        <translation>此工作负载运行的模型</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="228"/>
        <source>Recommended for this PC&apos;s processor: slower than a graphics card</source>
        <translation>推荐在这台电脑的处理器上运行：比显卡慢</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="230"/>
        <source>Recommended for your PC</source>
        <translation>为您的电脑推荐</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="232"/>
        <source>Failed its check on this PC</source>
        <translation>在这台电脑上没有通过检查</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="234"/>
        <source>Your choice</source>
        <translation>您的选择</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="236"/>
        <source>Switched after a known problem</source>
        <translation>因已知问题而切换</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="250"/>
        <source>Choosing a stack…</source>
        <translation>正在选择软件栈…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="251"/>
        <source>StackPilot picks the stack known to work on exactly this GPU.</source>
        <translation>StackPilot 会选择已知能在这块显卡上运行的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="257"/>
        <source>No stack fits this PC yet</source>
        <translation>暂时没有适合这台电脑的软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="258"/>
        <source>The chosen stack cannot be used here</source>
        <translation>所选的软件栈不能在这里使用</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="260"/>
        <source>Choose “Recommended” in the Stacks menu to go back to the stack StackPilot picks.</source>
        <translation>在“软件栈”菜单中选择“自动推荐”，即可回到 StackPilot 选择的软件栈。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="287"/>
        <source>Good to know:</source>
        <translation>须知：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="297"/>
        <source>its own installer</source>
        <translation>由其自带的安装程序安装</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="298"/>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="299"/>
        <source>size not known before the download</source>
        <translation>下载之前无法得知大小</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="331"/>
        <source>Disk: about %1 for the parts whose size is known</source>
        <translation>磁盘：已知大小的部分约需 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="332"/>
        <source>Disk: about %1</source>
        <translation>磁盘：约 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="334"/>
        <source> in %1 (&lt;a href=&quot;settings&quot;&gt;Change…&lt;/a&gt;)</source>
        <translation>，位于 %1（&lt;a href=&quot;settings&quot;&gt;更改…&lt;/a&gt;）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="336"/>
        <source>, %1 free</source>
        <translation>，可用 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="340"/>
        <source>Not enough free space: free some, or choose another folder.</source>
        <translation>可用空间不足：请清理一些空间，或选择其他文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profile_card.cpp" line="296"/>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
</context>
<context>
    <name>sp::gui::ProfilesMenu</name>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="39"/>
        <source>Detecting…</source>
        <translation>正在检测…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="46"/>
        <source>Running: %1</source>
        <translation>正在运行：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="80"/>
        <source>Planning…</source>
        <translation>正在规划…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="85"/>
        <source>Recommended automatically</source>
        <translation>自动推荐</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="93"/>
        <source>%1 — not for this PC</source>
        <translation>%1 — 不适合这台电脑</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="110"/>
        <source>%1 (on the processor, slower)</source>
        <translation>%1（在处理器上运行，较慢）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="115"/>
        <source>%1 — recommended</source>
        <translation>%1 — 推荐</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="156"/>
        <source>Use a stack StackPilot advises against?</source>
        <translation>要使用 StackPilot 不建议的软件栈吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="157"/>
        <source>%1 is not advised on this PC:

%2

Use it anyway?</source>
        <translation>不建议在这台电脑上使用 %1：

%2

仍要使用吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="121"/>
        <source>Back to the last stack that worked here</source>
        <translation>回到上次在这台电脑上可用的软件栈</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="12"/>
        <source>&amp;Stacks</source>
        <translation>软件栈(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="47"/>
        <source>Running: %1 on %2</source>
        <translation>正在运行：%1，位于 %2</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="49"/>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="131"/>
        <source>Stop %1</source>
        <translation>停止 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/profiles_menu.cpp" line="132"/>
        <source>Launch %1</source>
        <translation>启动 %1</translation>
    </message>
</context>
<context>
    <name>sp::gui::SettingsDialog</name>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="51"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="87"/>
        <source>From the environment (http_proxy, https_proxy)</source>
        <translation>使用环境变量（http_proxy、https_proxy）</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="92"/>
        <source>From HF_TOKEN, if set</source>
        <translation>如已设置，则取自 HF_TOKEN</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="93"/>
        <source>Needed only for gated models; sent only to huggingface.co.</source>
        <translation>仅受限模型需要；只发送给 huggingface.co。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="99"/>
        <source>Download from a copy of a site when the site itself is slow or blocked: each line names the site, then the copy&apos;s address.</source>
        <translation>当某个网站很慢或无法访问时，从它的镜像下载：每行先写网站，再写镜像的地址。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="114"/>
        <source>How long detection waits for each vendor library (AMD&apos;s, NVIDIA&apos;s) to answer before it goes on without it.</source>
        <translation>检测时等待每个厂商库（AMD、NVIDIA）响应的时间，超时后将不再等待它。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="54"/>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="55"/>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="56"/>
        <source>Detection and logs</source>
        <translation>检测与日志</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="57"/>
        <source>Look and language</source>
        <translation>外观与语言</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="72"/>
        <source>Install folder</source>
        <translation>安装文件夹</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="75"/>
        <source>Cache folder</source>
        <translation>缓存文件夹</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="76"/>
        <source>&amp;Install folder:</source>
        <translation>安装文件夹(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="77"/>
        <source>&amp;Cache folder:</source>
        <translation>缓存文件夹(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="88"/>
        <source>&amp;Proxy:</source>
        <translation>代理(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="94"/>
        <source>Hugging Face &amp;token:</source>
        <translation>Hugging Face 令牌(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="96"/>
        <source>One per line: the site, a space, then the copy&apos;s address
github.com https://mirror.example/github.com</source>
        <translation>每行一条：网站、一个空格，然后是镜像地址
github.com https://mirror.example/github.com</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="101"/>
        <source>Mirrors</source>
        <translation>镜像</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="102"/>
        <source>&amp;Mirrors:</source>
        <translation>镜像(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="112"/>
        <source> seconds</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="116"/>
        <source>&amp;Wait for each graphics check:</source>
        <translation>每项显卡检测的等待时间(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="120"/>
        <source>&amp;Logs kept per stack:</source>
        <translation>每个软件栈保留的日志数(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="121"/>
        <source>&amp;Open the workload in the browser when it is ready</source>
        <translation>工作负载就绪后在浏览器中打开(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="126"/>
        <source>Ask each time</source>
        <translation>每次询问</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="127"/>
        <source>Always</source>
        <translation>总是</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="128"/>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="130"/>
        <source>Results of the check before a first start help other owners of the same card; nothing names you, your folders or your PC.</source>
        <translation>第一次启动前的检查结果可以帮助使用同款显卡的其他用户；其中不包含您的名字、文件夹或电脑的任何信息。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="132"/>
        <source>&amp;Share check results:</source>
        <translation>分享检查结果(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="138"/>
        <source>Same as the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="139"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="140"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="142"/>
        <source>T&amp;heme:</source>
        <translation>主题(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="148"/>
        <source>L&amp;anguage:</source>
        <translation>语言(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="149"/>
        <source>A new language applies as soon as you save.</source>
        <translation>保存后新语言立即生效。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="144"/>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="159"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="160"/>
        <source>Choose a folder for: %1</source>
        <translation>为以下项目选择文件夹：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="165"/>
        <source>Choose a folder</source>
        <translation>选择目录</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/settings_dialog.cpp" line="209"/>
        <source>Mirrors, line %1: write a host, a space and an http(s) URL prefix</source>
        <translation>镜像第 %1 行：请写主机名、一个空格和 http(s) URL 前缀</translation>
    </message>
</context>
<context>
    <name>sp::gui::ShareDialog</name>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="17"/>
        <source>Share this result?</source>
        <translation>分享这个结果吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="24"/>
        <source>Results from many PCs decide which stacks are marked as proven for each card. This is exactly what would leave this PC: no name, folder, host name, token or model name.</source>
        <translation>来自许多电脑的结果决定哪些软件栈对每款显卡标记为已验证。下面就是将离开这台电脑的全部内容：不含名字、文件夹、主机名、令牌或模型名。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="31"/>
        <source>“Share” opens a report form in your web browser with this text filled in; you send it from there.</source>
        <translation>“分享”会在您的网页浏览器中打开一份报告表单，并填好这段文字；您在那里提交。</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="40"/>
        <source>The result as it would be sent</source>
        <translation>将要发送的结果</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="43"/>
        <source>Share</source>
        <translation>分享</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="44"/>
        <source>Not now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="45"/>
        <source>Always share</source>
        <translation>总是分享</translation>
    </message>
    <message>
        <location filename="../../app/gui/widgets/share_dialog.cpp" line="46"/>
        <source>Never ask</source>
        <translation>不再询问</translation>
    </message>
</context>
</TS>
