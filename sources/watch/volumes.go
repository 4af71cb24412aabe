package watch

import (
	"context"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
)

// Volumes pacing: a volume's size and attachment change with a command
// someone runs (`fly volumes extend`, a deploy), so once a minute is plenty.
const (
	VolumesEvery   = time.Minute
	volumesTimeout = 20 * time.Second
)

// VolumesFeed lists the app's volumes for the Volumes tile.
func VolumesFeed() Feed {
	return Feed{
		Name:    "volumes",
		Timeout: volumesTimeout,
		Fetch: func(ctx context.Context, s *Source, q Query) Result {
			vs, err := s.Client.ListVolumes(ctx, q.App)
			list, now := snapshot.ConvertVolumes(vs), s.Now()
			return Result{Err: err, Apply: func(a *snapshot.App) { a.ApplyVolumes(list, err, now) }}
		},
		Next: func(*snapshot.App, Result) time.Duration { return VolumesEvery },
	}
}
