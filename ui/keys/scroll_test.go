package keys

import (
	"testing"

	"github.com/flywake/flywake/ui/uitest"
)

func TestScroll(t *testing.T) {
	k := Default()
	tests := []struct {
		key            string
		pos, page, end int
		want           int
		ok             bool
	}{
		{"down", 0, 10, 20, 1, true},
		{"j", 0, 10, 20, 1, true},
		{"up", 0, 10, 20, 0, true}, // clamped at the top
		{"pgdown", 5, 10, 20, 15, true},
		{"pgdown", 15, 10, 20, 20, true}, // clamped at the bottom
		{"pgup", 5, 10, 20, 0, true},
		{"end", 3, 10, 20, 20, true},
		{"home", 7, 10, 20, 0, true},
		{"down", 0, 10, -1, 0, true}, // nothing to scroll
		{"x", 7, 10, 20, 7, false},   // not a navigation key
	}
	for _, tt := range tests {
		got, ok := k.Scroll(uitest.Key(tt.key), tt.pos, tt.page, tt.end)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s from %d (page %d, last %d) = %d, %v; want %d, %v", tt.key, tt.pos, tt.page, tt.end, got, ok, tt.want, tt.ok)
		}
	}
}
