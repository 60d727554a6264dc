package main

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// allowedCPUs is /proc's list of the CPUs a process may run on.
func allowedCPUs(t *testing.T, pid int) string {
	t.Helper()
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("process %d: no Cpus_allowed_list", pid)
	return ""
}

// A process standing for the postmaster, with a child standing for a
// backend, goes to the first CPU with its child; this process, and what it
// starts after, to the others. On a machine of one CPU, --pin refuses.
func TestPinApartPutsTheDatabaseOnACPUOfItsOwn(t *testing.T) {
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := setAffinity(os.Getpid(), &before); err != nil {
			t.Error(err)
		}
	})
	pm := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := pm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pm.Process.Kill(); _ = pm.Wait() })
	var kids []int
	for range 200 {
		if kids = childrenOf(pm.Process.Pid); len(kids) > 0 {
			break
		}
		runtime.Gosched()
		unix.Nanosleep(&unix.Timespec{Nsec: 5e6}, nil)
	}
	if len(kids) != 1 {
		t.Fatalf("the stand-in postmaster has children %v, want one", kids)
	}
	t.Cleanup(func() { _ = unix.Kill(kids[0], unix.SIGKILL) })

	said, err := pinApart(pm.Process.Pid)
	if before.Count() < 2 {
		if err == nil || !strings.Contains(err.Error(), "at least 2 CPUs") {
			t.Fatalf("one CPU: pinApart = %q, %v; want the refusal", said, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	first := -1
	for c := range cpuSetSize {
		if before.IsSet(c) {
			first = c
			break
		}
	}
	for _, pid := range []int{pm.Process.Pid, kids[0]} {
		if got := allowedCPUs(t, pid); got != strconv.Itoa(first) {
			t.Errorf("process %d may run on %q, want only CPU %d", pid, got, first)
		}
	}
	later := exec.Command("sleep", "30")
	if err := later.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = later.Process.Kill(); _ = later.Wait() }()
	// Every thread of this process, and what it starts after, is off it.
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	ids := []int{later.Process.Pid}
	for _, task := range tasks {
		if tid, err := strconv.Atoi(task.Name()); err == nil {
			ids = append(ids, tid)
		}
	}
	for _, id := range ids {
		var got unix.CPUSet
		if err := unix.SchedGetaffinity(id, &got); err != nil {
			t.Fatalf("thread %d: %v", id, err)
		}
		if got.IsSet(first) || got.Count() != before.Count()-1 {
			t.Errorf("thread %d may run on %d CPUs (the database's CPU %d among them: %v), want the %d others",
				id, got.Count(), first, got.IsSet(first), before.Count()-1)
		}
	}
	if got := allowedCPUs(t, os.Getpid()); got == strconv.Itoa(first) {
		t.Errorf("this process may run on %q, the database's CPU", got)
	}
	if !strings.Contains(said, "PostgreSQL on CPU "+strconv.Itoa(first)) {
		t.Errorf("pinApart says %q", said)
	}
}
