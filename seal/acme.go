package seal

import "errors"

// ErrACMELocked means a value of the ACME cache does not open with these
// keys: another secret locked it, it was stored under another name, or it
// was changed.
var ErrACMELocked = errors.New("ACME cache value does not open with this server's secret")

// LockACME encrypts a value tallyd's ACME client keeps in the database
// (its account key, a certificate with its private key, a challenge's
// answer) under a key of its own, derived from the master secret, which
// the database never sees. The value's name in the cache is authenticated
// with it, so that a value cannot be moved to another name (an account
// key served as a domain's certificate key). The result is a version
// byte, the nonce and the ciphertext.
func (k *Keys) LockACME(value []byte, name string) []byte { return lock(k.acme, value, name) }

// UnlockACME opens what LockACME made under the same name.
func (k *Keys) UnlockACME(locked []byte, name string) ([]byte, error) {
	value, ok := unlock(k.acme, locked, name)
	if !ok {
		return nil, ErrACMELocked
	}
	return value, nil
}
