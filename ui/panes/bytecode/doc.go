// Package bytecode is the Bytecode pane: one probe per image digest (not per
// machine) of the Python bytecode cache — interpreter and cache tag, .py
// against usable .pyc in site-packages and the app, .pyc built for another
// interpreter, PYTHONDONTWRITEBYTECODE — with a verdict and, when it fails,
// the Dockerfile line that fixes it. An image without Python is n/a, calmly.
package bytecode
