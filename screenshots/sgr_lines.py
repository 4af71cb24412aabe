#!/usr/bin/env python3
"""Re-emit the active SGR state at the start of every line.

tmux capture-pane -e writes colour codes per run of cells, carrying state
across line ends; freeze keeps colour state per line. Prefixing each line with
the state in force makes the two agree. Reads stdin, writes stdout.
"""
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def widen_backgrounds(params: str) -> str:
    """freeze draws only 48;5;N backgrounds: rewrite 40-47 and 100-107."""
    out, parts, i = [], params.split(";"), 0
    while i < len(parts):
        p = parts[i]
        if p in ("38", "48") and i + 1 < len(parts):
            n = 3 if parts[i + 1] == "5" else 5  # 38;5;N or 38;2;R;G;B
            out.extend(parts[i:i + n])
            i += n
            continue
        if p.isdigit() and 40 <= int(p) <= 47:
            out.extend(["48", "5", str(int(p) - 40)])
        elif p.isdigit() and 100 <= int(p) <= 107:
            out.extend(["48", "5", str(int(p) - 92)])
        else:
            out.append(p)
        i += 1
    return ";".join(out)


def main() -> None:
    state: list[str] = []
    out = []
    # freeze counts lines by newlines; an SGR after the last one overflows it.
    text = SGR.sub(lambda m: "\x1b[" + widen_backgrounds(m.group(1)) + "m", sys.stdin.read())
    for line in text.rstrip("\n").split("\n"):
        prefix = "\x1b[0m" + ("\x1b[" + ";".join(state) + "m" if state else "")
        out.append(prefix + line + "\x1b[0m")
        for m in SGR.finditer(line):
            params = m.group(1)
            if params in ("", "0"):
                state = []
            elif params.startswith("0;"):
                state = [params[2:]]
            else:
                state.append(params)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
