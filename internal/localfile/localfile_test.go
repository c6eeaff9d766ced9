package localfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "token")
	if err := os.WriteFile(ok, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := Read(ok, Secret)
	if err != nil || string(data) != "s3cret-token\n" {
		t.Fatalf("Read = %q, %v", data, err)
	}

	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("SECRETLINE\n", 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Read(big, 100)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), big) || strings.Contains(err.Error(), "SECRETLINE") {
		t.Fatalf("over the limit: %v", err)
	}

	_, err = Read(dir, Secret)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Fatalf("directory: %v", err)
	}
	_, err = Read(filepath.Join(dir, "missing"), Secret)
	if !errors.Is(err, os.ErrNotExist) || strings.Count(err.Error(), "missing") != 1 {
		t.Fatalf("missing: %v", err)
	}
	if _, err := Read("", Secret); err == nil {
		t.Fatal("an empty path was read")
	}
}

// TestReadDevicesAndFIFOs: /dev/zero never ends and a FIFO without a writer
// blocks; both are refused at once, before a byte is read.
func TestReadDevicesAndFIFOs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero or FIFOs")
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read("/dev/zero", GeoDatabase)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("/dev/zero: %v", err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Fatalf("reading /dev/zero allocated %d bytes", grown)
	}

	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Without a writer, a plain open would block this test until its
	// deadline.
	_, err = Read(fifo, Secret)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("FIFO: %v", err)
	}
}

// TestReadSymlink: a link to a regular file is followed, a link to a device
// is refused.
func TestReadSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(link, Secret); err != nil || string(data) != "x" {
		t.Fatalf("link: %q %v", data, err)
	}
	dev := filepath.Join(dir, "dev")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dev, Secret); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("link to a device: %v", err)
	}
}

func TestKeyPairErrorsNameNoContent(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(cert, []byte("root:$6$hash:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := KeyPair(cert, cert)
	if err == nil || strings.Contains(err.Error(), "root:") {
		t.Fatalf("KeyPair: %v", err)
	}
}
