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

// cpusOf is the CPUs a process (its main thread) or a thread may run on.
func cpusOf(t *testing.T, id int) unix.CPUSet {
	t.Helper()
	var got unix.CPUSet
	if err := unix.SchedGetaffinity(id, &got); err != nil {
		t.Fatalf("process or thread %d: %v", id, err)
	}
	return got
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
	first := cpuList(&before)[0]
	for _, pid := range []int{pm.Process.Pid, kids[0]} {
		if got := cpusOf(t, pid); got.Count() != 1 || !got.IsSet(first) {
			t.Errorf("process %d may run on CPUs %v, want only CPU %d", pid, cpuList(&got), first)
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
		if got := cpusOf(t, id); got.IsSet(first) || got.Count() != before.Count()-1 {
			t.Errorf("thread %d may run on CPUs %v, want the %d others than the database's CPU %d",
				id, cpuList(&got), before.Count()-1, first)
		}
	}
	if !strings.Contains(said, "PostgreSQL on CPU "+strconv.Itoa(first)) {
		t.Errorf("pinApart says %q", said)
	}
}
