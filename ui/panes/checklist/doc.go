// Package checklist is the pre-deploy checklist pane: it walks the eight
// items of sources/checklist in order (n/p or up/down), expands the current
// item's evidence and fix (enter), and keeps a progress line on top and the
// summary `flywake check` would print at the bottom.
//
// The items are exactly what the headless `flywake check` evaluates:
// checklist.Evaluate over (*snapshot.App).Evidence. They are re-evaluated on
// every SetData, so an item that waits for a running machine updates by
// itself when a probe's answer arrives; the cursor stays on the same item
// and expanded items stay expanded.
//
// "Checked" means answered: an item counts once its status is anything but
// unknown (n/a is an answer too). That follows the evidence, not where the
// user has looked, so the line reads the same for every user of the same app.
package checklist
