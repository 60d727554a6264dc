package seal

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

func TestKeysAreDerivedFromTheSecretAlone(t *testing.T) {
	secret := bytes.Repeat([]byte{7}, MinSecret)
	a, err := New(secret)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(secret)
	other, _ := New(bytes.Repeat([]byte{8}, MinSecret))
	hash := bytes.Repeat([]byte{1}, 32)
	if !Valid(a.Event(1, 2, hash), b.Event(1, 2, hash)) || !bytes.Equal(a.PublicKey(), b.PublicKey()) {
		t.Fatal("the same secret gives other keys")
	}
	for name, s := range map[string][]byte{
		"another secret": other.Event(1, 2, hash),
		"another table":  a.Event(2, 2, hash),
		"another seq":    a.Event(1, 3, hash),
		"another hash":   a.Event(1, 2, bytes.Repeat([]byte{2}, 32)),
		"a head's seal":  a.Head(1, 2, hash),
		"a checkpoint":   a.Checkpoint(1, 2, hash, 0, hash, nil, nil, nil),
	} {
		if Valid(s, a.Event(1, 2, hash)) {
			t.Errorf("%s passes for event 2 of table 1", name)
		}
	}
	if Valid(nil, a.Event(1, 2, hash)) {
		t.Error("no seal passes")
	}
	if _, err := New(secret[:MinSecret-1]); err == nil {
		t.Error("a short secret is accepted")
	}
}

func TestLockedAnswersOpenOnlyUnderTheirKey(t *testing.T) {
	k, other := Random(), Random()
	body := []byte(`{"hostToken":"tly_h_1.secret"}`)
	locked := k.Lock(body, "1\x00join\x00key")
	if bytes.Contains(locked, []byte("secret")) || !Locked(locked) || Locked(body) {
		t.Fatalf("locked answer %q", locked)
	}
	if got, err := k.Unlock(locked, "1\x00join\x00key"); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("unlock: %q, %v", got, err)
	}
	tampered := bytes.Clone(locked)
	tampered[len(tampered)-1] ^= 1
	for name, try := range map[string]func() ([]byte, error){
		"another key":    func() ([]byte, error) { return k.Unlock(locked, "1\x00join\x00other") },
		"another secret": func() ([]byte, error) { return other.Unlock(locked, "1\x00join\x00key") },
		"a changed byte": func() ([]byte, error) { return k.Unlock(tampered, "1\x00join\x00key") },
		"plain JSON":     func() ([]byte, error) { return k.Unlock(body, "1\x00join\x00key") },
	} {
		if got, err := try(); err != ErrLocked || got != nil {
			t.Errorf("%s: %q, %v; want ErrLocked", name, got, err)
		}
	}
}

func TestLoadMakesTheSecretOnceAndTheEnvironmentWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "secret.key")
	first, err := Load("", path)
	if err != nil || len(first) != MinSecret {
		t.Fatalf("first load: %x, %v", first, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v, %v; want mode 0600", info, err)
	}
	// The directory it made (by default tallyd's data directory) can be
	// entered by the managed PostgreSQL's user; the file alone is private.
	if dir, err := os.Stat(filepath.Dir(path)); err != nil || dir.Mode().Perm()&0o001 == 0 {
		t.Fatalf("the secret's new directory: %v, %v; others may not enter it", dir, err)
	}
	again, err := Load("", path)
	if err != nil || !bytes.Equal(first, again) {
		t.Fatalf("second load: %x, %v; want %x", again, err, first)
	}
	env := bytes.Repeat([]byte{9}, MinSecret)
	if got, err := Load(hex.EncodeToString(env), path); err != nil || !bytes.Equal(got, env) {
		t.Fatalf("from the environment: %x, %v", got, err)
	}
	if _, err := Load("not hex", path); err == nil {
		t.Fatal("a secret that is not hex is accepted")
	}
}

// TestACMEValuesOpenOnlyUnderTheirName: a value of the ACME cache holds
// no plaintext, opens under its own name with the same secret, and
// under nothing else; the key is not the stored answers' key.
func TestACMEValuesOpenOnlyUnderTheirName(t *testing.T) {
	k, other := Random(), Random()
	value := []byte("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE...\n-----END EC PRIVATE KEY-----\n")
	locked := k.LockACME(value, "tally.example.com")
	if bytes.Contains(locked, []byte("PRIVATE KEY")) || bytes.Equal(locked, k.LockACME(value, "tally.example.com")) {
		t.Fatalf("locked value %q (and locked twice, the same)", locked)
	}
	if got, err := k.UnlockACME(locked, "tally.example.com"); err != nil || !bytes.Equal(got, value) {
		t.Fatalf("unlock: %q, %v", got, err)
	}
	tampered := bytes.Clone(locked)
	tampered[len(tampered)-1] ^= 1
	for name, try := range map[string]func() ([]byte, error){
		"another name":          func() ([]byte, error) { return k.UnlockACME(locked, "acme_account+key") },
		"another secret":        func() ([]byte, error) { return other.UnlockACME(locked, "tally.example.com") },
		"a changed byte":        func() ([]byte, error) { return k.UnlockACME(tampered, "tally.example.com") },
		"plaintext":             func() ([]byte, error) { return k.UnlockACME(value, "tally.example.com") },
		"nothing":               func() ([]byte, error) { return k.UnlockACME(nil, "tally.example.com") },
		"the answers' key":      func() ([]byte, error) { return k.Unlock(locked, "tally.example.com") },
		"an answer locked here": func() ([]byte, error) { return k.UnlockACME(k.Lock(value, "x"), "x") },
	} {
		if got, err := try(); err == nil || got != nil {
			t.Errorf("%s: %q, %v; want an error", name, got, err)
		}
	}
}
