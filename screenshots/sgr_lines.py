#!/usr/bin/env python3
"""Re-emit the active SGR state at the start of every line.

tmux capture-pane -e writes colour codes per run of cells, carrying state
across line ends; freeze keeps colour state per line. Prefixing each line with
the state in force makes the two agree. Reads stdin, writes stdout.
"""
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def main() -> None:
    state: list[str] = []
    out = []
    for line in sys.stdin.read().split("\n"):
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
