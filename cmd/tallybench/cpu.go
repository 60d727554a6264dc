package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuSample is the CPU time used so far by tallyd, by PostgreSQL (the
// postmaster, its live children and those it has reaped) and by this
// process; zero where unknown.
type cpuSample struct {
	tallyd, postgres, bench time.Duration
}

// sampleCPU reads the CPU time of the processes being measured.
func (e *env) sampleCPU() cpuSample {
	var s cpuSample
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.bench = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if e.tallyd != nil && e.tallyd.Process != nil {
		s.tallyd = procCPU(e.tallyd.Process.Pid, false)
	}
	if e.server != nil {
		pm := e.server.PID()
		s.postgres = procCPU(pm, true)
		for _, child := range childrenOf(pm) {
			s.postgres += procCPU(child, false)
		}
	}
	return s
}

// sub is the CPU used between two samples.
func (s cpuSample) sub(before cpuSample) cpuSample {
	return cpuSample{s.tallyd - before.tallyd, s.postgres - before.postgres, s.bench - before.bench}
}

// procCPU is a process's user and system time from /proc; with reaped, the
// times of its children that have exited too.
func procCPU(pid int, reaped bool) time.Duration {
	f := statFields(pid)
	if len(f) < 17 {
		return 0
	}
	ticks := atoi(f[13]) + atoi(f[14])
	if reaped {
		ticks += atoi(f[15]) + atoi(f[16])
	}
	return time.Duration(ticks) * clockTick
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		child, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if f := statFields(child); len(f) > 3 && atoi(f[3]) == int64(pid) {
			out = append(out, child)
		}
	}
	return out
}

// statFields are the fields of /proc/<pid>/stat, the command name (which
// may hold spaces) as one.
func statFields(pid int) []string {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(raw)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return nil
	}
	return append([]string{s[:strings.IndexByte(s, ' ')], s[:end+1]}, strings.Fields(s[end+1:])...)
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
