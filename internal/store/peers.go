package store

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strings"
	"time"

	"lab/internal/conv"
)

// Peer is another lab this one relays for: its name here, its address
// and the bearer token it issued. Token is a secret: it is read only to be
// sent to that peer, and never served.
type Peer struct {
	Name      string
	URL       string
	Token     string
	AllowHTTP bool // plain http to a host that is not loopback, allowed by the operator
	CreatedAt time.Time
}

// MaxPeerName bounds a peer's name: it prefixes every id of its runs.
const MaxPeerName = 32

var peerNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// CheckPeerName refuses a name that could not prefix an id: 1-32
// lowercase letters, digits or '-', starting with a letter or digit (so
// it holds no conv.MachineSep). conv.EInvalid.
func CheckPeerName(name string) error {
	if !peerNameRE.MatchString(name) {
		return conv.Errorf(conv.EInvalid, "peer name %q must be 1-%d lowercase letters, digits or '-', starting with a letter or digit", name, MaxPeerName)
	}
	return nil
}

const peerColumns = `name, url, token, allow_http, created_at`

func scanPeer(row interface{ Scan(...any) error }) (Peer, error) {
	var p Peer
	var created int64
	if err := row.Scan(&p.Name, &p.URL, &p.Token, &p.AllowHTTP, &created); err != nil {
		return Peer{}, err
	}
	p.CreatedAt = unixTime(created)
	return p, nil
}

// AddPeer records a peer. The caller checks the URL (it knows which hosts
// the operator allows). Returns conv.EInvalid for a bad name or an empty
// URL or token, conv.EConflict when the name is taken.
func (db *DB) AddPeer(ctx context.Context, p Peer) (Peer, error) {
	if err := CheckPeerName(p.Name); err != nil {
		return Peer{}, err
	}
	if strings.TrimSpace(p.URL) == "" {
		return Peer{}, conv.Errorf(conv.EInvalid, "the peer's URL is required")
	}
	if strings.TrimSpace(p.Token) == "" {
		return Peer{}, conv.Errorf(conv.EInvalid, "the peer's token is required: create one on the peer with `lab token create --relay NAME`")
	}
	p.CreatedAt = unixTime(db.Now().Unix())
	res, err := db.sql.ExecContext(ctx, `INSERT INTO peers (`+peerColumns+`) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		p.Name, p.URL, p.Token, p.AllowHTTP, p.CreatedAt.Unix())
	if err != nil {
		return Peer{}, conv.Wrap(conv.EInternal, err, "add peer")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return Peer{}, conv.Errorf(conv.EConflict, "a peer named %q exists already: remove it first to change it", p.Name)
	}
	return p, nil
}

// Peers lists the peers by name.
func (db *DB) Peers(ctx context.Context) ([]Peer, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+peerColumns+` FROM peers ORDER BY name`)
	if err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list peers")
	}
	defer rows.Close()
	var out []Peer
	for rows.Next() {
		p, err := scanPeer(rows)
		if err != nil {
			return nil, conv.Wrap(conv.EInternal, err, "list peers")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "list peers")
	}
	return out, nil
}

// RemovePeer forgets a peer and its token. conv.ENotFound when there is
// none of that name.
func (db *DB) RemovePeer(ctx context.Context, name string) (Peer, error) {
	p, err := scanPeer(db.sql.QueryRowContext(ctx, `SELECT `+peerColumns+` FROM peers WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Peer{}, conv.Errorf(conv.ENotFound, "no peer named %q", name)
	}
	if err != nil {
		return Peer{}, conv.Wrap(conv.EInternal, err, "remove peer")
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM peers WHERE name = ?`, name); err != nil {
		return Peer{}, conv.Wrap(conv.EInternal, err, "remove peer")
	}
	return p, nil
}
