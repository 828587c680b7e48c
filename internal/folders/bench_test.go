package folders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkList lists a folder of 5,000 directories (every tenth a git
// repository) with 12 recent folders: the cost of one keystroke in the
// picker on a crowded home.
func BenchmarkList(b *testing.B) {
	home := b.TempDir()
	var recent []string
	for i := range 5000 {
		d := filepath.Join(home, fmt.Sprintf("project-%04d", i))
		os.Mkdir(d, 0o755)
		if i%10 == 0 {
			os.Mkdir(filepath.Join(d, ".git"), 0o755)
		}
		if i%400 == 0 {
			recent = append(recent, d)
		}
	}
	l, err := New(nil, home, func(context.Context) []string { return recent })
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{"~/", "~/project-12", "42"} {
		b.Run(fmt.Sprintf("q=%s", q), func(b *testing.B) {
			for b.Loop() {
				if _, err := l.List(ctx, q, DefaultLimit); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
