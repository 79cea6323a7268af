package manifest

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/parser/source"
)

// A decoded manifest (and catalog.json) is kept on disk, so that a run over
// a manifest seen before reads a few MB in a compact binary form instead
// of decoding the JSON again. An entry is named after a digest of what it
// holds, of the content it was decoded from and of the running bflint
// build, so an edited manifest or another build (whose decoder, or whose
// idea of this format, may differ) never reads it. Entries are written to
// a temporary file and renamed into place, so concurrent runs see a whole
// entry or none; each entry carries a magic string, the format version,
// its own key, its length and a checksum, and one that does not match in
// every respect is ignored and replaced. A small record per manifest path
// names the entry last read for it, only to start reading that entry
// early. Any failure of the cache (no folder, no room, a bad entry) only
// means the JSON is decoded.

// CacheDirEnv names the environment variable that sets the cache folder;
// the value "off" disables the cache.
const CacheDirEnv = "BFLINT_CACHE_DIR"

// CacheDir returns the folder the command line keeps decoded manifests in:
// a cache folder inside $BFLINT_CACHE_DIR, else inside bflint in the
// user's cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux). It is "", no cache, when BFLINT_CACHE_DIR is "off" or there is
// no user cache folder. A folder of bflint's own, rather than the one
// named, because eviction removes files: it must never be a user's.
func CacheDir() string {
	base := os.Getenv(CacheDirEnv)
	switch base {
	case "off":
		return ""
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(dir, "bflint")
	}
	return filepath.Join(base, cacheFolder)
}

// cacheFolder is the folder bflint creates for its entries, and tagName
// the file that marks it as a cache bflint made (the Cache Directory
// Tagging convention, which backup tools also honour). A folder without
// the tag is not bflint's: nothing is written to it or removed from it.
const (
	cacheFolder = "cache"
	tagName     = "CACHEDIR.TAG"
	tagContent  = "Signature: 8a477f597d28d172789f06886806bc55\n# This folder holds bflint's cache of decoded dbt manifests; it may be deleted.\n"
)

// ownCacheDir reports whether dir is a cache folder bflint made, making it
// when it does not exist.
func ownCacheDir(dir string) bool {
	err := os.Mkdir(dir, 0o700)
	if errors.Is(err, fs.ErrNotExist) {
		if os.MkdirAll(filepath.Dir(dir), 0o700) != nil {
			return false
		}
		err = os.Mkdir(dir, 0o700)
	}
	if err == nil {
		return os.WriteFile(filepath.Join(dir, tagName), []byte(tagContent), 0o600) == nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return false
	}
	tag, err := source.ReadRegular(filepath.Join(dir, tagName), 4096)
	signature, _, _ := strings.Cut(tagContent, "\n")
	return err == nil && strings.HasPrefix(string(tag), signature)
}

// ownedName matches the names of the files bflint writes in its cache
// folder, and nothing else: eviction removes only those.
var ownedName = regexp.MustCompile(`^((manifest|catalog|assembled)-[0-9a-f]{32}\.bin|last-[0-9a-f]{16}|(entry|last)-[0-9]+\.tmp)$`)

// LoadCached is Load through the cache of decoded manifests in dir; "" is
// Load itself. It returns what Load returns for the same file.
//
// Hashing the manifest takes both cores for a while, and reading the
// entry after it one. So the entry this path was last read from is read
// meanwhile, on the chance that the manifest has not changed since; its
// key, checked once the hash is known, decides whether it is used.
func LoadCached(path, dir string) (*Manifest, error) {
	f, before, ok := openForCache(path, dir)
	if !ok {
		return Load(path)
	}
	defer f.Close()
	last := filepath.Join(dir, lastName(path))
	lastEntry := readLast(last)
	type guess struct {
		m   *Manifest
		key [sha256.Size]byte
	}
	guessed := make(chan guess, 1)
	go func() {
		var g guess
		if lastEntry != "" {
			g.m, g.key = loadEntry(filepath.Join(dir, lastEntry))
		}
		guessed <- g
	}()
	content, err := contentHash(f, before.Size())
	g := <-guessed
	if err != nil {
		return Load(path)
	}
	key := entryKey(manifestKind, content)
	name := entryName(manifestKind, key)
	entry := filepath.Join(dir, name)
	m := g.m
	if m == nil || g.key != key {
		m = readEntry(entry, key)
	}
	if m != nil {
		m.Path = path
		touch(entry)
		if name != lastEntry {
			writeLast(dir, last, name)
		}
		return m, nil
	}
	m, err = decodeFile(f, MaxSize)
	if err != nil {
		return nil, locate(err, path)
	}
	m.Path = path
	if !unchanged(f, before) {
		return m, nil
	}
	if p, ok := marshalManifest(m); ok && writeEntry(dir, entry, key, p.writeTo) {
		writeLast(dir, last, name)
		evict(dir)
	}
	return m, nil
}

// openForCache opens path to be hashed for the cache in dir. ok is false
// when there is no cache, or the file cannot be opened, is not a regular
// file or is larger than MaxSize: the uncached loader then reads it, or
// words the error as it would without a cache.
func openForCache(path, dir string) (f *os.File, info os.FileInfo, ok bool) {
	if dir == "" {
		return nil, nil, false
	}
	f, info, err := source.OpenRegular(path, MaxSize)
	if err != nil {
		return nil, nil, false
	}
	return f, info, true
}

// unchanged reports whether f is as it was: a file changed while it was
// read may not be what was hashed, and its entry is left for the next run
// to write.
func unchanged(f *os.File, before os.FileInfo) bool {
	after, err := f.Stat()
	return err == nil && after.Size() == before.Size() && after.ModTime().Equal(before.ModTime())
}

// touch marks an entry as just used: the modification time orders entries
// for eviction.
func touch(entry string) {
	now := time.Now()
	_ = os.Chtimes(entry, now, now)
}

// cacheFormat is the version of the entry layout, part of every entry's
// key and header; a change to the layout, or to what an entry holds, must
// increase it.
const cacheFormat = 3

const (
	cacheMagic = "BFLINTMC"
	// hashChunk is the unit of contentHash, fixed so that the digest does
	// not depend on how many cores computed it.
	hashChunk = 4 << 20
	// hashRead is each hashing worker's read size: a small buffer costs
	// few page faults.
	hashRead = 256 << 10
	// keptEntries bounds the cache: one entry per recent manifest (dbt
	// writes a new one on every compile) and bflint build.
	keptEntries = 8
	// staleTemp is the age at which a temporary file is taken to be left
	// over by a run that died while writing it.
	staleTemp = time.Hour
)

// headerSize is the size of an entry's fixed part: magic, format, key,
// payload length and the payload's CRC-32C.
const headerSize = len(cacheMagic) + 4 + sha256.Size + 8 + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// contentHash digests the file: SHA-256 over its size and the SHA-256 of
// each hashChunk, so that the chunks are hashed on every core.
func contentHash(f *os.File, size int64) ([sha256.Size]byte, error) {
	chunks := int((size + hashChunk - 1) / hashChunk)
	digests := make([][sha256.Size]byte, chunks)
	workers := max(1, min(runtime.GOMAXPROCS(0), chunks))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			buf := make([]byte, hashRead)
			h := sha256.New()
			for {
				i := next.Add(1) - 1
				if i >= int64(chunks) || failed.Load() {
					return
				}
				h.Reset()
				start := i * hashChunk
				r := io.NewSectionReader(f, start, min(hashChunk, size-start))
				if _, err := io.CopyBuffer(h, r, buf); err != nil {
					failed.Store(true)
					return
				}
				h.Sum(digests[i][:0])
			}
		})
	}
	wg.Wait()
	var out [sha256.Size]byte
	if failed.Load() {
		return out, errors.New("the file could not be read to hash it")
	}
	h := sha256.New()
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(size)))
	for _, d := range digests {
		h.Write(d[:])
	}
	h.Sum(out[:0])
	return out, nil
}

// Kinds of entry: what an entry holds is part of its key and its name.
const (
	manifestKind  = "manifest"
	catalogKind   = "catalog"
	assembledKind = "assembled"
)

// entryKey is the digest an entry is found by and checked against: what it
// holds, the content it was decoded from, the format and the build.
func entryKey(kind string, content [sha256.Size]byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "bflint %s cache %d\n%s\n", kind, cacheFormat, buildIdentity())
	h.Write(content[:])
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

func entryName(kind string, key [sha256.Size]byte) string {
	return kind + "-" + hex.EncodeToString(key[:16]) + ".bin"
}

// buildIdentity describes the running build: its module versions and build
// settings, and for a build without a release version (go run, go test, a
// local go build, whose decoder may have changed since the last one) the
// size and modification time of the executable as well.
var buildIdentity = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return executableIdentity()
	}
	id := info.String()
	v := info.Main.Version
	if v == "" || v == "(devel)" || strings.Contains(v, "+dirty") || strings.Contains(id, "vcs.modified=true") {
		id += executableIdentity()
	}
	return id
})

func executableIdentity() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown executable"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "unknown executable"
	}
	return fmt.Sprintf("executable %d %d", info.Size(), info.ModTime().UnixNano())
}

// readEntry returns the manifest an entry holds, or nil when there is no
// entry or it is not one this build wrote for the key.
func readEntry(path string, key [sha256.Size]byte) *Manifest {
	m, entryKey := loadEntry(path)
	if m == nil || entryKey != key {
		return nil
	}
	return m
}

// loadEntry returns the manifest an entry holds and the key it was written
// for, or nil when there is no entry or it is not one in this build's
// format.
func loadEntry(path string) (*Manifest, [sha256.Size]byte) {
	payload, key := readPayload(path)
	if payload == nil {
		return nil, key
	}
	m, err := unmarshalManifest(payload)
	if err != nil {
		return nil, key
	}
	return m, key
}

// readPayload returns the payload of an entry and the key it was written
// for, or nil when there is no entry or its header does not hold in every
// respect.
func readPayload(path string) ([]byte, [sha256.Size]byte) {
	var key [sha256.Size]byte
	// A cache folder may hold what bflint did not write there: only a
	// regular file is read, and no more of it than an entry can be.
	data, err := source.ReadRegular(path, MaxSize+int64(headerSize))
	if err != nil || len(data) < headerSize {
		return nil, key
	}
	h := data[:headerSize]
	magic, h := h[:len(cacheMagic)], h[len(cacheMagic):]
	format, h := binary.LittleEndian.Uint32(h), h[4:]
	h = h[copy(key[:], h):]
	size, h := binary.LittleEndian.Uint64(h), h[8:]
	sum := binary.LittleEndian.Uint32(h)
	payload := data[headerSize:]
	if string(magic) != cacheMagic || format != cacheFormat ||
		size != uint64(len(payload)) || crc32.Checksum(payload, castagnoli) != sum {
		return nil, key
	}
	return payload, key
}

// lastName is the name of the file that records which entry the manifest at
// path was last read from.
func lastName(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256([]byte(path))
	return "last-" + hex.EncodeToString(sum[:8])
}

// readLast returns the entry name a last file records, "" when there is
// none or it is not an entry's name.
func readLast(path string) string {
	name, err := source.ReadRegular(path, 64)
	if err != nil || !strings.HasPrefix(string(name), manifestKind+"-") || !strings.HasSuffix(string(name), ".bin") ||
		strings.ContainsAny(string(name), `/\`) || len(name) > 64 {
		return ""
	}
	return string(name)
}

// writeLast records, in the last file at path, the entry name. Failures
// are silent: the record only saves time.
func writeLast(dir, path, name string) {
	if !ownCacheDir(dir) {
		return
	}
	tmp, err := outfile.CreateTemp(dir, "last-*.tmp")
	if err != nil {
		return
	}
	defer outfile.Done(tmp.Name())
	_, err = tmp.WriteString(name)
	if err = cmp.Or(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// writeEntry stores under key the payload that encode writes and reports
// whether it could. Failures are silent: the cache is an optimisation.
func writeEntry(dir, path string, key [sha256.Size]byte, encode func(*bufio.Writer)) bool {
	if !ownCacheDir(dir) {
		return false
	}
	tmp, err := outfile.CreateTemp(dir, "entry-*.tmp")
	if err != nil {
		return false
	}
	defer outfile.Done(tmp.Name())
	// The header, which holds the payload's length and checksum, is
	// written last, over room left for it.
	sum := &crcWriter{w: tmp}
	w := bufio.NewWriterSize(sum, 256<<10)
	w.Write(make([]byte, headerSize))
	encode(w)
	err = w.Flush()
	if err == nil {
		header := make([]byte, 0, headerSize)
		header = append(header, cacheMagic...)
		header = binary.LittleEndian.AppendUint32(header, cacheFormat)
		header = append(header, key[:]...)
		header = binary.LittleEndian.AppendUint64(header, uint64(sum.n-int64(headerSize)))
		header = binary.LittleEndian.AppendUint32(header, sum.payloadCRC)
		_, err = tmp.WriteAt(header, 0)
	}
	if err = cmp.Or(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return false
	}
	return true
}

// crcWriter counts what it writes and checksums all of it but the header.
type crcWriter struct {
	w          io.Writer
	n          int64
	payloadCRC uint32
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	written := p[:n]
	if skip := int64(headerSize) - c.n; skip > 0 {
		written = written[min(int64(len(written)), skip):]
	}
	c.payloadCRC = crc32.Update(c.payloadCRC, castagnoli, written)
	c.n += int64(n)
	return n, err
}

// evict keeps the keptEntries most recently used entries of each kind and
// records of the last entry read, and removes temporary files that a dead
// run left behind.
func evict(dir string) {
	if !ownCacheDir(dir) {
		return
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		used time.Time
	}
	kept := map[string][]file{} // by the part of the name before the first "-"
	for _, f := range files {
		name := f.Name()
		if !f.Type().IsRegular() || !ownedName.MatchString(name) {
			continue
		}
		kind, _, _ := strings.Cut(name, "-")
		info, err := f.Info()
		if err != nil {
			continue
		}
		switch {
		case strings.HasSuffix(name, ".tmp"):
			if (kind == "entry" || kind == "last") && time.Since(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(dir, name))
			}
		case (kind == manifestKind || kind == catalogKind || kind == assembledKind) && strings.HasSuffix(name, ".bin"), kind == "last":
			kept[kind] = append(kept[kind], file{name, info.ModTime()})
		}
	}
	for _, files := range kept {
		slices.SortFunc(files, func(a, b file) int { return b.used.Compare(a.used) })
		for _, f := range files[min(len(files), keptEntries):] {
			os.Remove(filepath.Join(dir, f.name))
		}
	}
}
