package machines

import "github.com/flywake/flywake/ui/components/table"

// Column order puts what answers "what is each machine doing?" leftmost:
// at 80 columns the table hides columns from the right, so state, id, the
// alert badge, region, checks and the newest event stay visible.
const (
	colState = iota
	colID
	colAlert
	colRegion
	colChecks
	colEvent
	colUpdated
	colName
	colGroup
	colRelease
	colImage
	colAutostop
	numCols
)

func columns() []table.Column {
	cols := make([]table.Column, numCols)
	cols[colState] = table.Column{Title: "STATE", Width: 12}
	cols[colID] = table.Column{Title: "ID", Width: 14}
	cols[colAlert] = table.Column{Title: "ALERT", Width: 12}
	cols[colRegion] = table.Column{Title: "REGION", Width: 6}
	cols[colChecks] = table.Column{Title: "CHECKS", Width: 6, Align: table.AlignRight}
	cols[colEvent] = table.Column{Title: "NEWEST EVENT", Width: 22, Flex: 2, Live: true}
	cols[colUpdated] = table.Column{Title: "UPDATED", Width: 10, Align: table.AlignRight, Live: true}
	cols[colName] = table.Column{Title: "NAME", Width: 12, Flex: 1}
	cols[colGroup] = table.Column{Title: "GROUP", Width: 7}
	cols[colRelease] = table.Column{Title: "REL", Width: 8} // "v42→v43" while a deploy replaces it
	cols[colImage] = table.Column{Title: "IMAGE", Width: 12}
	cols[colAutostop] = table.Column{Title: "AUTOSTOP", Width: 8}
	return cols
}
