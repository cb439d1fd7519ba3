<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>sp::gui::MainWindow</name>
    <message><source>&lt;h2&gt;StackPilot&lt;/h2&gt;</source><translation>&lt;h2&gt;StackPilot&lt;/h2&gt;</translation></message>
    <message><source>Detecting GPUs…</source><translation>正在检测显卡…</translation></message>
    <message><source>GPU</source><translation>显卡</translation></message>
    <message><source>Target</source><translation>架构</translation></message>
    <message><source>VRAM</source><translation>显存</translation></message>
    <message><source>Integrated</source><translation>集成显卡</translation></message>
    <message><source>Driver</source><translation>驱动</translation></message>
    <message><source>Sources</source><translation>来源</translation></message>
    <message><source>Detection failed: %1</source><translation>检测失败：%1</translation></message>
    <message><source>Could not start stackpilot-cli: %1</source><translation>无法启动 stackpilot-cli：%1</translation></message>
    <message><source>%1 GiB</source><translation>%1 GiB</translation></message>
    <message><source>yes</source><translation>是</translation></message>
    <message><source>no</source><translation>否</translation></message>
    <message><source>No GPU found. CPU-only stacks are still available.</source><translation>未找到显卡。仍可使用纯 CPU 软件栈。</translation></message>
    <message numerus="yes"><source>%n GPU(s) found.</source><translation><numerusform>找到 %n 块显卡。</numerusform></translation></message>
</context>
</TS>
