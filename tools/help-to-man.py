#!/usr/bin/env python3
# tracepipe tools - turns a tool's --help text into a man page, so the two
# never disagree (help2man does the same; this avoids a build dependency).
#
# Usage: help-to-man.py TOOL NAME "one-line summary" VERSION OUTPUT
#
# GOption's --help has a fixed shape: "Usage:" and the synopsis, the
# summary paragraphs, "Help Options:", "Application Options:", then the
# description, in which a short line ending in ":" starts a section
# ("Examples:", "Exit status:") and indented lines are kept as they are.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys


def esc(text):
    text = text.replace("\\", "\\e").replace("-", "\\-").replace("\u2026", "...")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def help_text(tool):
    env = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="80")
    # The tools may be built with AddressSanitizer; --help exits from
    # inside the option parser, which is no leak worth failing a build for.
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return subprocess.run([tool, "--help"], env=env, check=True, capture_output=True, text=True).stdout


def split_blocks(lines):
    """Blocks of lines separated by blank lines."""
    blocks, cur = [], []
    for line in lines:
        if line.strip():
            cur.append(line)
        elif cur:
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    return blocks


def options(block, out):
    """'  -n, --top=N    text' lines (continuations more indented)."""
    for line in block[1:]:
        m = re.match(r"^  (\S.*?)(?:\s{2,}(\S.*))?$", line)
        if m and not line.startswith("      "):
            if "--help-" in m.group(1):
                continue
            out.append(".TP")
            out.append("\\fB" + esc(m.group(1)) + "\\fR")
            if m.group(2):
                out.append(esc(m.group(2)))
        else:
            out.append(esc(line.strip()))


def prose(block, out):
    """Paragraphs; a short 'Title:' line starts a section; indented lines stay verbatim."""
    first = block[0]
    if not first.startswith(" ") and first.endswith(":") and len(first) < 60:
        title = re.sub(r"\s*\(.*\)", "", first[:-1])
        out.append(".SH " + esc(title.upper()))
        if "(" in first:
            out.append(esc(first[:-1]))
        block = block[1:]
    else:
        out.append(".PP")
    verbatim = False
    for line in block:
        indented = line.startswith(" ")
        if indented and not verbatim:
            out.append(".nf")
            verbatim = True
        elif not indented and verbatim:
            out.append(".fi")
            verbatim = False
        out.append(esc(line))
    if verbatim:
        out.append(".fi")


def main():
    tool, name, summary, version, output = sys.argv[1:6]
    blocks = split_blocks(help_text(tool).splitlines())
    out = [
        '.TH %s 1 "" "tracepipe %s" "User Commands"' % (esc(name.upper()), esc(version)),
        ".SH NAME",
        "%s \\- %s" % (esc(name), esc(summary)),
        ".SH SYNOPSIS",
    ]
    usage = blocks.pop(0)
    assert usage[0] == "Usage:", usage
    for line in usage[1:]:
        words = line.split(None, 1)
        out.append("\\fB%s\\fR %s" % (esc(words[0]), esc(words[1]) if len(words) > 1 else ""))
        out.append(".br")
    section = "description"
    out.append(".SH DESCRIPTION")
    for block in blocks:
        if block[0] in ("Help Options:", "Application Options:"):
            if section != "options":
                out.append(".SH OPTIONS")
            section = "options"
            options(block, out)
        else:
            prose(block, out)
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
