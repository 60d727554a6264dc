package table

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tally-dice/tally/db"
)

// This file moves the host role to another phone: the host phone offers a
// one-time recovery code (shown as text and as a QR code of a link carrying
// it), another phone redeems it and gets a new host token, and the old
// host token stops working at once. It is the way back when the host's
// phone is lost, flat or handed to someone else, since the host role
// otherwise lives only in that phone's storage.

// RecoveryLifetime is how long a host recovery code works: long enough to
// walk a phone across the bar and scan it, short enough that a code seen
// over a shoulder is soon worthless.
const RecoveryLifetime = 15 * time.Minute

// ErrRecoverySpent refuses a host recovery code that was used already or
// has expired: each works once, for RecoveryLifetime.
var ErrRecoverySpent = errors.New("the host recovery code was used or has expired")

// scopeRecover is the Idempotency-Key scope of redeeming host recovery
// codes at a table. Keys must be random, as for joins.
const scopeRecover = "recover"

// RecoveryOffer is a host recovery code the host phone shows once.
type RecoveryOffer struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Recovered is the table as its new host phone sees it, with the new host
// token.
type Recovered struct {
	Table     TableView `json:"table"`
	HostToken string    `json:"hostToken"`
}

// The payloads of the host recovery events: neither carries the code nor
// any hash of it.
type (
	recoveryOffered struct {
		ExpiresAt time.Time `json:"expiresAt"`
	}
	hostMoved struct {
		Via string `json:"via"`
	}
)

// OfferRecovery makes a new host recovery code for the caller's table,
// replacing any offered before; only the host may. The table may be
// closed: its host still records cash-outs and payments.
func (s *Service) OfferRecovery(ctx context.Context, a Auth, k Key) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("make a host recovery code"); err != nil {
			return nil, err
		}
		id := w.st.row.ID
		code := strconv.FormatInt(id, 10) + "-" + newJoinCode()
		expires := w.now.Add(RecoveryLifetime).Truncate(time.Second)
		w.out.HostRecoveryOffer(id, hashToken(code), w.now, expires)
		if _, err := w.emit("host.recovery-offered", recoveryOffered{ExpiresAt: expires}); err != nil {
			return nil, err
		}
		return RecoveryOffer{Code: code, ExpiresAt: expires}, nil
	})
}

// recoveryCode reads a host recovery code as typed, "12-ABCD-EFGH-JKMN-PQ"
// in any case and with any spaces or dashes in the secret: the table's id
// and the code as made (table id, a dash, the secret without separators).
var recoveryCode = regexp.MustCompile(`^\s*([1-9][0-9]{0,17})\s*[-–.\s]\s*([A-Za-z0-9][A-Za-z0-9\s-]*)$`)

func parseRecoveryCode(typed string) (tableID int64, code string, ok bool) {
	m := recoveryCode.FindStringSubmatch(typed)
	if m == nil {
		return 0, "", false
	}
	id, err := strconv.ParseInt(m[1], 10, 64)
	secret := strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "\t", "", "\n", "").Replace(m[2]))
	if err != nil || len(secret) != joinCodeLength || strings.Trim(secret, joinAlphabet) != "" {
		return 0, "", false
	}
	return id, m[1] + "-" + secret, true
}

// errNoRecovery is the refusal of a code no table has: counted against the
// sender's address by the API's limits on guessing, as a join code's is.
func errNoRecovery() error {
	return fmt.Errorf("%w: no table has that host recovery code (a newer code replaces the last; ask the host phone to show it again)", ErrNotFound)
}

// RecoverInput is a phone redeeming a host recovery code.
type RecoverInput struct {
	Code string `json:"code"`
}

// Recover redeems a host recovery code: the caller becomes the table's
// host with a new token, the old host token stops working (and is told
// why: ErrHostMoved), and the code is spent. The move is an audit event,
// host.moved, which names no secret.
func (s *Service) Recover(ctx context.Context, k Key, in RecoverInput) (Reply, error) {
	if strings.TrimSpace(in.Code) == "" {
		return Reply{}, fmt.Errorf("%w: code: type the host recovery code the host phone shows", ErrInvalid)
	}
	tableID, code, ok := parseRecoveryCode(in.Code)
	if !ok {
		return Reply{}, errNoRecovery()
	}
	hash := hashToken(code)
	var rec db.HostRecovery
	t := target{tableID: tableID, open: true, missing: errNoRecovery(), also: func(b *db.Batch) {
		rec = db.HostRecovery{}
		b.HostRecoveryGet(tableID, hash, &rec)
	}}
	k.scope = scopeRecover
	return s.write(ctx, t, k, func(w *writer) (any, error) {
		switch {
		case rec.CodeHash == nil:
			return nil, errNoRecovery()
		case rec.RedeemedAt != nil:
			return nil, fmt.Errorf("%w: this host recovery code was used already; each works once, so ask the host phone for a new one", ErrRecoverySpent)
		case !w.now.Before(rec.ExpiresAt):
			return nil, fmt.Errorf("%w: this host recovery code expired at %s (codes work for %d minutes); ask the host phone for a new one",
				ErrRecoverySpent, rec.ExpiresAt.UTC().Format("15:04 UTC"), int(RecoveryLifetime.Minutes()))
		}
		st := w.st
		token, newHash := newToken(prefixHost, st.row.ID)
		w.out.HostRecoverySpend(st.row.ID, hash, newHash, w.now)
		w.out.RetiredTokenInsert(st.row.ID, st.row.HostTokenHash, db.RetiredHostMoved, 0, w.now)
		if _, err := w.emit("host.moved", hostMoved{Via: "recovery-code"}); err != nil {
			return nil, err
		}
		st.row.HostTokenHash = newHash
		return Recovered{Table: st.view(Principal{Role: RoleHost, TableID: st.row.ID}), HostToken: token}, nil
	})
}
