// Package rng holds the simulator's seeded draws: one stream per part of
// the platform, and the ids and names Fly gives things.
package rng

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"
)

// Stream is the seeded generator of one part of the platform. Each part
// draws from its own (an app's lifecycle, an app's traffic, ids, outside
// requests, faults), so a part that draws more — a new log line, an outside
// request, one more machine — never shifts another part's figures, and the
// same seed lives the same day.
func Stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ULID returns a 26-character ULID for platform time t: Fly uses these for
// instance ids, event ids and request ids.
func ULID(rng *rand.Rand, t time.Time) string {
	var b [26]byte
	ms := uint64(t.UnixMilli())
	for i := 9; i >= 0; i-- {
		b[i] = crockford[ms&31]
		ms >>= 5
	}
	for i := 10; i < 26; i++ {
		b[i] = crockford[rng.IntN(32)]
	}
	return string(b[:])
}

// MachineID is 14 lowercase hex digits, the usual shape of Fly machine ids.
func MachineID(rng *rand.Rand) string {
	return fmt.Sprintf("%014x", rng.Uint64()&0xffffffffffffff)
}

var nameWords = [...]string{
	"aged", "bold", "calm", "damp", "eager", "fancy", "gentle", "hidden", "icy", "jolly",
	"misty", "nameless", "odd", "proud", "quiet", "rough", "shy", "tiny", "wild", "young",
	"wind", "dust", "lake", "moon", "pine", "river", "snow", "star", "tree", "wave",
}

// MachineName is the word-word-NNNN shape Fly gives machines.
func MachineName(rng *rand.Rand) string {
	return fmt.Sprintf("%s-%s-%04d", nameWords[rng.IntN(20)], nameWords[20+rng.IntN(10)], rng.IntN(10000))
}

// Hex is n random lowercase hex digits.
func Hex(rng *rand.Rand, n int) string {
	const hex = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = hex[rng.IntN(16)]
	}
	return string(b)
}

// Between draws a duration uniformly from [lo, hi].
func Between(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}
