package seal

import (
	"bytes"
	"encoding/hex"
	"sync"
	"testing"
)

// The seals and stored keys of a fixed secret, as tallyd has always
// computed them: histories sealed by an older tallyd must still verify,
// and an Idempotency-Key stored by one must still be found, so any change
// to how they are computed fails here.
func TestSealsAndStoredKeysAreAsTheyWere(t *testing.T) {
	k, err := New(bytes.Repeat([]byte{7}, MinSecret))
	if err != nil {
		t.Fatal(err)
	}
	hash := bytes.Repeat([]byte{1}, 32)
	want := map[string]string{
		"event":      "c3b3d4cba16da89b6d144ef12596e803c50019b611713a972e42f1ffb34e40a6",
		"head":       "1bdcaf3dcb73ef2fd5facc87908818e1d6065cba19961016c7e9a98f7738f6e9",
		"checkpoint": "919b1fb96c686153c6eba9f57f825d29e965b6302a5f48c72f84a4fb2d2f1482",
		"stored key": "490b4f1e95e60211067a33bddd8818f460354465589777c557ad0587e59076f7",
	}
	got := func() map[string]string {
		return map[string]string{
			"event":      hex.EncodeToString(k.Event(12, 345, hash)),
			"head":       hex.EncodeToString(k.Head(12, 345, hash)),
			"checkpoint": hex.EncodeToString(k.Checkpoint(12, 345, hash, 6, hash, []byte("state"), nil, []byte("{}"))),
			"stored key": k.StoredKey("3f2c1d9e-key"),
		}
	}
	// Twice over, and from several goroutines: the keyed states are reused.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				for name, g := range got() {
					if g != want[name] {
						t.Errorf("%s = %s, want %s", name, g, want[name])
					}
				}
			}
		}()
	}
	wg.Wait()
}
