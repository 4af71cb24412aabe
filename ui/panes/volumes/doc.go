// Package volumes is the Volumes pane: each machine's volumes (the name
// it mounts, the size, the volume's state and region), from the volumes
// feed beside the machines listing; unattached volumes last.
package volumes
