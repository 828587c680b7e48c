package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lab/internal/store"
)

// productionArgon2 is the hash cost lab ships with, taken before this
// package's init lowers DefaultArgon2Params for the other tests (package
// variables are initialised before init functions run).
var productionArgon2 = store.DefaultArgon2Params

// TestLoginFloodMemory starts lab as its own process with a password
// hashed at the production cost (64 MiB per hash), sends 50 wrong logins
// at once from 50 loopback addresses while the operator's known device
// logs in, and reads the process's peak resident memory (VmHWM) from
// /proc: the password-hash gate must keep it bounded, where each attempt
// hashing at once would take 64 MiB more.
// LAB_FLOOD_BIN measures another lab binary instead (an older build, for
// a before/after figure; it is expected to fail then).
func TestLoginFloodMemory(t *testing.T) {
	if productionArgon2.MemoryKiB < 64*1024 {
		t.Fatalf("production argon2 memory %d KiB; the test wants the shipped cost", productionArgon2.MemoryKiB)
	}
	const attempts, limitMiB = 50, 400
	const password = "the operator's password"
	state := t.TempDir()
	db, err := OpenStore(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := store.HashPassword(password, productionArgon2)
	if err == nil {
		err = db.SetPasswordHash(context.Background(), hash)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	argv := append(selfArgv(t), "serve")
	if bin := os.Getenv("LAB_FLOOD_BIN"); bin != "" {
		argv = []string{bin, "serve"}
	}
	argv = append(argv, "--addr", "127.0.0.1:0", "--state-dir", state)
	base, cmd := startProcess(t, argv, []string{"HOME=" + t.TempDir(), "LAB_CLAUDE_BIN=/nonexistent", "LAB_CODEX_BIN=/nonexistent"}, io.Discard)

	hwm := func() int {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("no VmHWM in /proc/%d/status", cmd.Process.Pid)
		}
		kb, _ := strconv.Atoi(string(m[1]))
		return kb / 1024
	}
	// The operator's browser logs in once before the flood: a known device.
	jar, _ := cookiejar.New(nil)
	operator := &http.Client{Jar: jar, Timeout: 2 * time.Minute}
	login := func() int {
		res, err := operator.Post(base+"/api/v1/auth/login", "application/json", strings.NewReader(`{"password":"`+password+`"}`))
		if err != nil {
			t.Error(err)
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	if code := login(); code != http.StatusOK {
		t.Fatalf("the operator's first login: %d; want 200", code)
	}
	before := hwm()

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	startGun := make(chan struct{})
	for i := range attempts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(10+i))}}
			c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 2 * time.Minute}
			<-startGun
			res, err := c.Post(base+"/api/v1/auth/login", "application/json", strings.NewReader(`{"password":"a wrong password"}`))
			code := 0
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				code = res.StatusCode
			}
			mu.Lock()
			statuses[code]++
			mu.Unlock()
		}()
	}
	// ...and again in the middle of it.
	operatorCode := make(chan int, 1)
	go func() { <-startGun; operatorCode <- login() }()
	close(startGun)
	wg.Wait()
	peak := hwm()
	code := <-operatorCode
	t.Logf("%d parallel wrong logins: statuses %v; the known device's login: %d; peak RSS %d MiB (%d MiB after one login, before the flood)",
		attempts, statuses, code, peak, before)
	if code != http.StatusOK {
		t.Errorf("the known device's login during the flood: %d; want 200", code)
	}
	if statuses[0] > 0 || statuses[http.StatusOK] > 0 {
		t.Errorf("statuses %v; want only answers, none a login", statuses)
	}
	if peak >= limitMiB {
		t.Fatalf("peak RSS %d MiB during %d parallel wrong logins; want under %d MiB", peak, attempts, limitMiB)
	}
}

// listenURL reads lab's log until it says where it listens, then keeps
// draining it so lab never blocks on a full pipe.
// startProcess runs lab as argv with env added to this process's, copies
// its log to log, and returns its URL once it listens; it is stopped with
// SIGTERM when the test ends.
func startProcess(t *testing.T, argv, env []string, log io.Writer) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	return listenURL(t, io.TeeReader(stderr, log)), cmd
}

func listenURL(t *testing.T, log io.Reader) string {
	t.Helper()
	lines := bufio.NewScanner(log)
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`msg="lab is listening" url=(\S+)`)
		for lines.Scan() {
			if m := re.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatal("lab exited before listening")
		}
		return u
	case <-time.After(60 * time.Second):
		t.Fatal("lab did not listen within 60 s")
	}
	return ""
}
