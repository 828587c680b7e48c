package main

import (
	"slices"
	"time"
)

// quantile is the q-quantile of ds by nearest rank (0 for none); ds is
// left as it was.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// ms is d in milliseconds, for benchmark metrics.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
