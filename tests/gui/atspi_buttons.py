#!/usr/bin/env python3
"""Issue 33: what Orca reads. Starts the window (a recorded PC, nothing installed) with
Qt's AT-SPI bridge on, finds it on the accessibility bus with pyatspi, lists its push
buttons, combo boxes, check boxes and text fields, and fails on one without a name.

Run: python3 THIS STACKPILOT HARDWARE.json (needs Xvfb and dbus-run-session). The script
starts its own Xvfb with -displayfd: the server picks a free display itself and says which
once it accepts connections. (Under xvfb-run -a the window once found no server on the
display xvfb-run had chosen, in CI.) Prints one line per control; exit 0 when every one
is named.
"""
import os
import subprocess
import sys
import tempfile
import time

import pyatspi

INTERACTIVE = {
    pyatspi.ROLE_PUSH_BUTTON: "push button",
    pyatspi.ROLE_COMBO_BOX: "combo box",
    pyatspi.ROLE_CHECK_BOX: "check box",
    pyatspi.ROLE_TEXT: "text",
    pyatspi.ROLE_TOGGLE_BUTTON: "toggle button",
}


def find_app(name, proc, deadline):
    while time.time() < deadline and proc.poll() is None:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name.lower() == name:
                return app
        time.sleep(0.5)
    return None


def label_of(node):
    """What Orca announces the control as. A combo box's name is its current text in Qt
    on Linux, so it needs the label its labelled-by relation points at; any other control
    its name, else that label."""
    is_combo = node.getRole() == pyatspi.ROLE_COMBO_BOX
    if node.name and not is_combo:
        return node.name
    for rel in node.getRelationSet():
        if rel.getRelationType() == pyatspi.RELATION_LABELLED_BY:
            for t in range(rel.getNTargets()):
                target = rel.getTarget(t)
                if target is not None and target.name:
                    return target.name
    return ""


def walk(node, depth, out):
    if node is None or depth > 60:
        return
    states = node.getState()
    if not states.contains(pyatspi.STATE_SHOWING):
        return
    role = node.getRole()
    if role in INTERACTIVE:
        out.append((INTERACTIVE[role], label_of(node), node.name))
    for i in range(node.childCount):
        walk(node.getChildAtIndex(i), depth + 1, out)


def start_xvfb(log):
    """An Xvfb on a display it chose; returns (process, ":N") once it accepts clients."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_end,), stdout=log, stderr=log)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()  # written when the server is ready; "" if it died
    if not number.isdigit():
        server.kill()
        server.wait(10)
        return None, ""
    return server, ":" + number


def main():
    """Outside: a private runtime folder and Xvfb, then this script again in a new session
    bus that sees both. at-spi's bus launcher names its socket after the runtime folder and
    the display, so two runs sharing either meet on one accessibility bus."""
    binary, hardware = sys.argv[1], sys.argv[2]
    if os.environ.get("ATSPI_CHECK_INNER") == "1":
        return check_window(binary, hardware)
    with tempfile.TemporaryDirectory() as runtime, tempfile.TemporaryFile("w+") as log:
        server, display = start_xvfb(log)
        if server is None:
            log.seek(0)
            print("FAIL: Xvfb did not start:", log.read().strip())
            return 1
        env = dict(os.environ, DISPLAY=display, XDG_RUNTIME_DIR=runtime, ATSPI_CHECK_INNER="1")
        env.pop("XAUTHORITY", None)
        try:
            return subprocess.call(["dbus-run-session", "--", sys.executable, __file__,
                                    binary, hardware], env=env)
        finally:
            server.terminate()
            server.wait(10)


def check_window(binary, hardware):
    env = dict(os.environ, QT_QPA_PLATFORM="xcb",
               QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
    proc = subprocess.Popen([binary, "--hardware", hardware, "--no-probes"], env=env)
    try:
        app = find_app("stackpilot", proc, time.time() + 60)
        if app is None:
            names = [a.name for a in pyatspi.Registry.getDesktop(0) if a is not None]
            ended = "" if proc.poll() is None else f" (the window exited with {proc.returncode})"
            print(f"FAIL: the window never appeared on the accessibility bus{ended}; it holds:",
                  names)
            return 1
        controls = []
        deadline = time.time() + 60
        while time.time() < deadline:  # the window builds its card once detection reports
            controls = []
            for i in range(app.childCount):
                walk(app.getChildAtIndex(i), 0, controls)
            if sum(1 for c in controls if c[0] == "push button") >= 3:
                break
            time.sleep(0.5)
        unnamed = [c for c in controls if not c[1].strip()]
        for role, label, _ in controls:
            print(f"{role}: {label or '<no name>'}")
        buttons = sum(1 for c in controls if c[0] == "push button")
        print(f"{len(controls)} control(s), {buttons} push button(s), {len(unnamed)} unnamed")
        return 0 if buttons >= 3 and not unnamed else 1
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    sys.exit(main())
