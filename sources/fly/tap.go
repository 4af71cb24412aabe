package fly

// A Tap sees every answer the client read, as decoded and redacted: what
// `flywake record` keeps (sources/record). It is called on the caller's
// goroutine after each successful read and must not block. Only reads the
// dashboard makes are tapped: listings, single machines, unfiltered logs
// pages, exec answers, the apps listing and volume listings.
type Tap interface {
	Listed(app string, l Listing)
	Got(app string, m *Machine)
	Logged(app string, entries []LogEntry)
	Executed(app, id, cmd string, res MachineExecResponse)
	AppsListed(org string, apps []App)
	VolumesListed(app string, vs []Volume)
}

// SetTap installs t (nil removes it). Call it before the client is used.
func (c *Client) SetTap(t Tap) { c.tap = t }
