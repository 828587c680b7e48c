package store

import (
	"context"
	"fmt"
	"time"

	"lab/internal/conv"
)

// KeepPartial keeps lab's copy of words the CLI never recorded in
// transcript, after seq p.AfterSeq (replacing one kept there before).
func (db *DB) KeepPartial(ctx context.Context, transcript string, p conv.Partial) error {
	_, err := db.sql.ExecContext(ctx, `INSERT OR REPLACE INTO partial_texts (transcript, after_seq, text, created_at) VALUES (?, ?, ?, ?)`,
		transcript, p.AfterSeq, p.Text, p.Time.UnixMilli())
	if err != nil {
		return fmt.Errorf("keep partial text: %w", err)
	}
	return nil
}

// Partials returns the copies kept for transcript, by seq.
func (db *DB) Partials(ctx context.Context, transcript string) ([]conv.Partial, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT after_seq, text, created_at FROM partial_texts WHERE transcript = ? ORDER BY after_seq`, transcript)
	if err != nil {
		return nil, fmt.Errorf("read partial texts: %w", err)
	}
	defer rows.Close()
	var out []conv.Partial
	for rows.Next() {
		var p conv.Partial
		var at int64
		if err := rows.Scan(&p.AfterSeq, &p.Text, &at); err != nil {
			return nil, fmt.Errorf("read partial texts: %w", err)
		}
		p.Time = time.UnixMilli(at).UTC()
		out = append(out, p)
	}
	return out, rows.Err()
}
