package diagnose

// Cause says why a question could not be answered: the words `check` and
// `verdict` print and write in their JSON (a contract for CI). "" means it
// was answered.
type Cause string

const (
	CauseAuth        Cause = "auth"         // no token, or the API refused it
	CauseUnknownApp  Cause = "unknown_app"  // no app named, or the platform has none by that name
	CauseAPIDown     Cause = "api_down"     // 5xx, no answer, a connection refused or reset
	CauseRateLimited Cause = "rate_limited" // still 429 after the retries
	CauseTimeout     Cause = "timeout"      // the command's time ran out
	// CauseBadAnswer: the API answered, but with something that could not
	// be read (not JSON, an entry of another shape, a null machine).
	CauseBadAnswer Cause = "bad_answer"
	// CauseCouldNotRead: a project file could not be read.
	CauseCouldNotRead   Cause = "could_not_read"
	CauseInterrupted    Cause = "interrupted"
	CauseNothingToJudge Cause = "nothing_to_judge"
	CauseError          Cause = "error"
)

// Words is the cause as a sentence fragment: "api down".
func (c Cause) Words() string {
	out := []byte(c)
	for i, b := range out {
		if b == '_' {
			out[i] = ' '
		}
	}
	return string(out)
}

// causeRank orders causes for a report's headline: the first one a user
// has to fix comes first (a refused token hides everything behind it).
var causeRank = map[Cause]int{
	CauseAuth: 1, CauseUnknownApp: 2, CauseAPIDown: 3, CauseRateLimited: 4, CauseTimeout: 5,
	CauseBadAnswer: 6, CauseCouldNotRead: 7, CauseInterrupted: 8, CauseNothingToJudge: 9, CauseError: 10,
}

// FirstCause is the cause a report leads with: "" when both are "".
func FirstCause(a, b Cause) Cause {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	ra, rb := causeRank[a], causeRank[b]
	if ra == 0 {
		ra = len(causeRank) + 1
	}
	if rb == 0 {
		rb = len(causeRank) + 1
	}
	if rb < ra {
		return b
	}
	return a
}
