// Package seal holds Tally's secrets, which live outside the database: with
// the database alone nobody can rewrite a table's history and make it look
// whole again, read a token out of a stored answer, or sign a receipt.
//
// Everything is derived from one master secret of at least 32 bytes (from
// TALLY_SECRET, or a file in tallyd's data directory made on the first
// run):
//   - seals: HMAC-SHA-256 over an event's table, sequence number and hash
//     (Event), over the chain's head (Head) and over an audit checkpoint
//     (Checkpoint). Each kind of seal is domain-separated, so one can never
//     stand in for another;
//   - the AES-256-GCM key that encrypts stored Idempotency-Key answers
//     (Lock, Unlock), whose bodies may hold tokens;
//   - the AES-256-GCM key that encrypts what ACME keeps in the database
//     for tallyd's HTTPS (LockACME, UnlockACME): private keys among it;
//   - the Ed25519 key that signs night receipts (Sign, PublicKey).
//
// Losing the secret loses nothing written: the chain's hashes still verify
// and receipts still verify with the public key they carry. Seals and
// stored answers made under the old secret no longer check (the audit says
// so), and retried requests from before the change are applied afresh.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// MinSecret is the least master secret accepted, in bytes.
const MinSecret = 32

// ErrSecret is wrapped by every problem with the master secret.
var ErrSecret = errors.New("master secret")

// Keys are the keys derived from one master secret.
type Keys struct {
	seal  *macs
	ikey  *macs
	reply cipher.AEAD
	acme  cipher.AEAD
	sign  ed25519.PrivateKey
}

// New derives the keys from a master secret.
func New(secret []byte) (*Keys, error) {
	if len(secret) < MinSecret {
		return nil, fmt.Errorf("%w: %d bytes, at least %d needed", ErrSecret, len(secret), MinSecret)
	}
	reply, err := newAEAD(derive(secret, "reply-encryption"))
	if err != nil {
		return nil, err
	}
	acme, err := newAEAD(derive(secret, "acme-cache"))
	if err != nil {
		return nil, err
	}
	return &Keys{
		seal:  newMacs(derive(secret, "audit-seal")),
		ikey:  newMacs(derive(secret, "idempotency-key")),
		reply: reply,
		acme:  acme,
		sign:  ed25519.NewKeyFromSeed(derive(secret, "receipt-signing")),
	}, nil
}

// newAEAD is AES-256-GCM under a 32-byte derived key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Random makes keys from a fresh random secret, for tests and tools that
// keep nothing.
func Random() *Keys {
	secret := make([]byte, MinSecret)
	_, _ = rand.Read(secret)
	k, err := New(secret)
	if err != nil {
		panic(err) // a fresh secret is always long enough
	}
	return k
}

// derive is HMAC-SHA-256(secret, "tally/v1/"+purpose): one 32-byte key per
// purpose, none of which says anything about the others.
func derive(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("tally/v1/" + purpose))
	return m.Sum(nil)
}

// Event is the seal of a table's event seq, whose hash is hash.
func (k *Keys) Event(tableID, seq int64, hash []byte) []byte {
	return k.mac("event", tableID, seq, hash)
}

// Head is the seal of a table's chain head.
func (k *Keys) Head(tableID, seq int64, hash []byte) []byte {
	return k.mac("head", tableID, seq, hash)
}

// Checkpoint is the seal of an audit checkpoint: the history up to event
// seq (hash) verified, rounds up to round replayed from stored rows whose
// digest is rows, leaving the game in state; every row of the table as
// read digesting to digest, and the audit's report.
func (k *Keys) Checkpoint(tableID, seq int64, hash []byte, round int, rows, state, digest, report []byte) []byte {
	return k.mac("checkpoint", tableID, seq, hash, binary.BigEndian.AppendUint32(nil, uint32(round)), rows, state,
		digest, report)
}

// Valid reports whether seal is the one want computes, in constant time.
func Valid(seal, want []byte) bool { return len(seal) > 0 && hmac.Equal(seal, want) }

func (k *Keys) mac(kind string, tableID, seq int64, parts ...[]byte) []byte {
	m := k.seal.get()
	defer k.seal.put(m)
	var buf [64]byte
	b := append(append(buf[:0], kind...), 0)
	b = binary.BigEndian.AppendUint64(b, uint64(tableID))
	m.Write(binary.BigEndian.AppendUint64(b, uint64(seq)))
	for _, p := range parts {
		m.Write(binary.BigEndian.AppendUint32(buf[:0], uint32(len(p))))
		m.Write(p)
	}
	return m.Sum(make([]byte, 0, sha256.Size))
}

// macs keeps HMAC-SHA-256 states keyed with one key for reuse: keying one
// costs two SHA-256 blocks and its allocations, and every write seals its
// events and head and names its Idempotency-Key.
type macs struct {
	pool sync.Pool
}

func newMacs(key []byte) *macs {
	m := &macs{}
	m.pool.New = func() any { return hmac.New(sha256.New, key) }
	return m
}

// get is a keyed state with nothing written yet; put gives it back.
func (m *macs) get() hash.Hash {
	h := m.pool.Get().(hash.Hash)
	h.Reset()
	return h
}

func (m *macs) put(h hash.Hash) { m.pool.Put(h) }

// lockedV1 starts every locked answer (a JSON answer never starts with it).
const lockedV1 = 0x01

// StoredKey is what the database keeps of an Idempotency-Key: its
// HMAC-SHA-256 (hex), so that someone who reads the database cannot present
// the key again, with a body rebuilt from what they read, and be answered
// with the tokens its answer holds.
func (k *Keys) StoredKey(key string) string {
	m := k.ikey.get()
	defer k.ikey.put(m)
	m.Write([]byte(key))
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0]))
}

// Lock encrypts a stored answer; context (who stored it, under which key)
// is authenticated with it, so an answer cannot be moved to another key.
// The result is a version byte, the nonce and the ciphertext.
func (k *Keys) Lock(body []byte, context string) []byte { return lock(k.reply, body, context) }

// lock encrypts body under aead with a fresh random nonce, authenticating
// context with it: the version byte, the nonce, the ciphertext.
func lock(aead cipher.AEAD, body []byte, context string) []byte {
	n := aead.NonceSize()
	out := make([]byte, 1+n, 1+n+len(body)+aead.Overhead())
	out[0] = lockedV1
	_, _ = rand.Read(out[1:])
	return aead.Seal(out, out[1:], body, []byte(context))
}

// unlock opens what lock made with the same aead and context; ok is false
// when it does not open.
func unlock(aead cipher.AEAD, locked []byte, context string) (body []byte, ok bool) {
	n := aead.NonceSize()
	if !Locked(locked) || len(locked) < 1+n+aead.Overhead() {
		return nil, false
	}
	body, err := aead.Open(nil, locked[1:1+n], locked[1+n:], []byte(context))
	return body, err == nil
}

// Locked reports whether stored is an answer Lock made (answers stored
// before Tally locked them are plain JSON).
func Locked(stored []byte) bool { return len(stored) > 0 && stored[0] == lockedV1 }

// ErrLocked means a stored answer does not open with these keys (another
// secret locked it, or it was changed).
var ErrLocked = errors.New("stored answer does not open with this server's secret")

// Unlock opens what Lock made under the same context.
func (k *Keys) Unlock(locked []byte, context string) ([]byte, error) {
	body, ok := unlock(k.reply, locked, context)
	if !ok {
		return nil, ErrLocked
	}
	return body, nil
}

// Sign signs a receipt's bytes.
func (k *Keys) Sign(msg []byte) []byte { return ed25519.Sign(k.sign, msg) }

// PublicKey is the key receipts are checked with.
func (k *Keys) PublicKey() ed25519.PublicKey { return k.sign.Public().(ed25519.PublicKey) }

// Load reads the master secret: from the environment value env (hex) when
// it is set, otherwise from the file at path, which is made (32 random
// bytes, hex, readable by its owner only) when it does not exist yet.
func Load(env, path string) ([]byte, error) {
	if env = strings.TrimSpace(env); env != "" {
		secret, err := hex.DecodeString(env)
		if err != nil {
			return nil, fmt.Errorf("%w: TALLY_SECRET is not hex: %w", ErrSecret, err)
		}
		return secret, nil
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return create(path)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSecret, err)
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not hex: %w", ErrSecret, path, err)
	}
	return secret, nil
}

// create writes a new secret to path, never over an existing file.
func create(path string) ([]byte, error) {
	secret := make([]byte, MinSecret)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	// The secret is kept by its own mode (0600). Its directory is by
	// default tallyd's data directory, which the managed PostgreSQL's user
	// must be able to enter: made 0700, a first run with DATABASE_URL left
	// it so that a later run without one could not start its database.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSecret, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return Load("", path) // made meanwhile by another process
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSecret, err)
	}
	if _, err := fmt.Fprintln(f, hex.EncodeToString(secret)); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %w", ErrSecret, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSecret, err)
	}
	return secret, nil
}
