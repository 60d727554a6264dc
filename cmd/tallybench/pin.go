package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinApart gives PostgreSQL (the postmaster pm, and so every backend it
// forks, and its helpers running now) the first CPU this process may use,
// and this process the others, so that tallyd and pgbench, which it
// starts after, inherit them: the database on a core of its own, as on a
// machine where it has cores of its own or runs on a host of its own.
// pgbench's clients and Tally's load generator stay on the same CPUs as
// tallyd, so both are measured alike. It says where each went.
func pinApart(pm int) (string, error) {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return "", fmt.Errorf("--pin: read this process's CPUs: %w", err)
	}
	cpus := cpuList(&allowed)
	if len(cpus) < 2 {
		return "", errors.New("--pin needs at least 2 CPUs, and this process may use 1")
	}
	var db, rest unix.CPUSet
	db.Set(cpus[0])
	for _, c := range cpus[1:] {
		rest.Set(c)
	}
	for _, pid := range append([]int{pm}, childrenOf(pm)...) {
		if err := setAffinity(pid, &db); err != nil {
			return "", fmt.Errorf("--pin: PostgreSQL's process %d: %w", pid, err)
		}
	}
	if err := setAffinity(os.Getpid(), &rest); err != nil {
		return "", fmt.Errorf("--pin: this process: %w", err)
	}
	return fmt.Sprintf("PostgreSQL on CPU %d; tallyd, the load generator and pgbench on CPUs %v", cpus[0], cpus[1:]), nil
}

// cpuSetSize is how many CPUs a unix.CPUSet holds (glibc's CPU_SETSIZE).
const cpuSetSize = 1024

// cpuList is the CPUs in s, in order.
func cpuList(s *unix.CPUSet) []int {
	var cpus []int
	for c := range cpuSetSize {
		if s.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

// setAffinity puts every thread of process pid on cpus (Linux keeps a mask
// for each thread; threads made later copy their maker's). A process that
// has exited meanwhile (a backend whose client left) is skipped.
func setAffinity(pid int, cpus *unix.CPUSet) error {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, cpus); err != nil && !errors.Is(err, unix.ESRCH) {
			return err
		}
	}
	return nil
}
