// Package machines is the Machines pane: every machine of the app in a
// virtualised table (state as glyph, word and colour; crash badge; newest
// event), a `/` filter, and an `enter` drill-down into one machine's events,
// config, probe results and recent logs.
//
// s/S/Z (start/stop/suspend, off under --readonly) on the selected machine
// return an ActionRequest; the root confirms, refuses or sends it.
//
// The pane does no I/O: the root hands it the app's model through SetData.
package machines
