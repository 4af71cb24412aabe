// Package traffic is the Traffic pane: the edge's responses against the
// app's, per hour over a day and by status class, the requests lost in
// between (the rule in words: they died in front of the app, read the proxy
// not the app logs), the cold boots beside them on the same time axis, the
// proxy's own error codes, and the noise told apart from traffic (a
// scanner's burst named as one).
package traffic
