package checklist

import "encoding/json"

// Report is the JSON document `flywake check --format json` prints.
type Report struct {
	App     string  `json:"app"`
	Items   []Item  `json:"items"`
	Summary Summary `json:"summary"`
}

// Summary counts items by status.
type Summary struct {
	Pass    int `json:"pass"`
	Warn    int `json:"warn"`
	Fail    int `json:"fail"`
	Unknown int `json:"unknown"`
	NA      int `json:"n/a"`
}

// Summarize counts items by status.
func Summarize(items []Item) Summary {
	var s Summary
	for _, it := range items {
		switch it.Status {
		case Pass:
			s.Pass++
		case Warn:
			s.Warn++
		case Fail:
			s.Fail++
		case Unknown:
			s.Unknown++
		default:
			s.NA++
		}
	}
	return s
}

// NewReport wraps items for JSON output.
func NewReport(app string, items []Item) Report {
	if items == nil {
		items = []Item{}
	}
	return Report{App: app, Items: items, Summary: Summarize(items)}
}

// JSON renders the report, indented, with a trailing newline.
func JSON(app string, items []Item) ([]byte, error) {
	out, err := json.MarshalIndent(NewReport(app, items), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
