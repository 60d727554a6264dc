package table

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/tally-dice/tally/db"
)

// Ready reports whether the service can take writes: nil; ErrUnavailable
// when the database does not answer, or answers but cannot run the
// functions every write calls (db.Ready); ErrDiskFull when PostgreSQL has
// refused a write for lack of disk space since the last write it took, or
// when the disk of the data directory given to WatchDisk is nearly full.
// It costs the database one round trip.
func (s *Service) Ready(ctx context.Context) error {
	if err := db.Ready(ctx, s.pool); err != nil {
		return serviceError(err)
	}
	return s.disk.check()
}

// WatchDisk makes Ready report the database not ready while the file
// system holding dir, the data directory of a PostgreSQL that tallyd
// runs itself, has less than minFree bytes free: a full disk stops every
// write, and a load balancer should hear of it before the phones do. Call
// it before the service serves requests.
func (s *Service) WatchDisk(dir string, minFree uint64) {
	s.disk.dir, s.disk.minFree = dir, minFree
}

// diskWatch is what readiness knows of the database's disk.
type diskWatch struct {
	dir     string // a data directory whose free space is checked; "" for none
	minFree uint64
	mu      sync.Mutex
	// fullAt is when PostgreSQL last refused a write for lack of space,
	// zero once a write has gone through since.
	fullAt time.Time
}

// noteWrite remembers a write PostgreSQL refused for lack of disk space
// and forgets it once a write goes through. A write that failed because
// PostgreSQL could not load a library (db.CannotLoad: its server package
// was upgraded under it) replaces every connection of the pool: the older
// ones loaded the library before and still work, so the readiness probe,
// which may run on one of them, would otherwise not see what every new
// connection sees. Other refusals say nothing about the database.
func (s *Service) noteWrite(reply Reply, err error) {
	d := &s.disk
	switch {
	case db.CannotLoad(err):
		s.log.Error("PostgreSQL cannot load a library that writes need: replacing every connection", "err", err)
		s.pool.Reset()
	case err == nil && !reply.Replayed:
		d.mu.Lock()
		d.fullAt = time.Time{}
		d.mu.Unlock()
	case db.DiskFull(err):
		d.mu.Lock()
		d.fullAt = time.Now()
		d.mu.Unlock()
	}
}

// check is ErrDiskFull, saying why, or nil.
func (d *diskWatch) check() error {
	d.mu.Lock()
	at := d.fullAt
	d.mu.Unlock()
	if !at.IsZero() {
		return fmt.Errorf("%w: PostgreSQL refused a write for lack of disk space at %s, and no write has gone through since",
			ErrDiskFull, at.UTC().Format(time.RFC3339))
	}
	if d.dir == "" {
		return nil
	}
	free, err := freeSpace(d.dir)
	if err != nil {
		return fmt.Errorf("%w: the free space of the disk holding %s cannot be read: %w", ErrDiskFull, d.dir, err)
	}
	if free < d.minFree {
		return fmt.Errorf("%w: the disk holding %s has %s free, less than the %s readiness asks for", ErrDiskFull,
			d.dir, mebibytes(free), mebibytes(d.minFree))
	}
	return nil
}

// freeSpace is the space left to an unprivileged user (as PostgreSQL runs)
// on the file system holding dir.
func freeSpace(dir string) (uint64, error) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		return 0, err
	}
	return fs.Bavail * uint64(fs.Bsize), nil
}

// mebibytes writes a size for people.
func mebibytes(n uint64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
