package fly

import (
	"bytes"
	"encoding/json"
	"testing"
)

// splitArray splits valid JSON as json.Unmarshal into []json.RawMessage
// does, and turns down what is not an array.
func TestSplitArrayAgreesWithUnmarshal(t *testing.T) {
	for _, in := range []string{
		`[]`, ` [ ] `, `[1]`, `[1,2,3]`, "[\n {\"a\":[1,{\"b\":\"]\"}]} ,\t\"x\\\"]\" , null ]\n",
		`[{"s":"\\"},[[]],{}]`, `[[1,2],[3]]`, `{"a":1}`, `"[1]"`, `null`, `3`,
	} {
		got, ok := splitArray([]byte(in))
		var want []json.RawMessage
		isArray := json.Unmarshal([]byte(in), &want) == nil && bytes.HasPrefix(bytes.TrimSpace([]byte(in)), []byte("["))
		if ok != isArray {
			t.Errorf("%q: ok %v, want %v", in, ok, isArray)
			continue
		}
		if !ok {
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d elements, want %d", in, len(got), len(want))
			continue
		}
		for i := range got {
			if !bytes.Equal(bytes.TrimSpace(got[i]), bytes.TrimSpace(want[i])) {
				t.Errorf("%q: element %d %q, want %q", in, i, got[i], want[i])
			}
		}
	}
}
