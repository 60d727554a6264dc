package table

import (
	"context"

	"github.com/tally-dice/tally/chain"

	"github.com/tally-dice/tally/db"
)

// Notice tells a watcher that its table changed: its audit log now ends at
// Seq, an event of kind Kind. The watcher then reads what it shows again,
// which keeps sealed rolls sealed (each caller reads its own view).
type Notice = db.Notice

// Watch authenticates the caller and watches their table until stop is
// called. ready is closed once changes are being listened for: anything
// committed after that is noticed. head is where the table's log ends now.
func (s *Service) Watch(ctx context.Context, a Auth) (notices <-chan Notice, ready <-chan struct{}, stop func(), head chain.Head, err error) {
	r, _, err := s.read(ctx, a, readPlan{})
	if err != nil {
		return nil, nil, nil, chain.Head{}, err
	}
	notices, ready, stop = s.listener.Subscribe(a.TableID)
	return notices, ready, stop, r.row.Head, nil
}

// Head is where a table's log ends now, for a watcher's periodic sync. It
// authenticates the caller again, so a token revoked meanwhile (its seat
// released or left) is refused: ErrUnauthorized.
func (s *Service) Head(ctx context.Context, a Auth) (chain.Head, error) {
	r, _, err := s.read(ctx, a, readPlan{})
	if err != nil {
		return chain.Head{}, err
	}
	return r.row.Head, nil
}
