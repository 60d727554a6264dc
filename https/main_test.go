package https

import (
	"testing"

	"github.com/tally-dice/tally/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
