package manifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// cacheManifests are the manifests the cache tests store: every real one,
// the hand-made ones and a synthetic one.
func cacheManifests(t *testing.T) []string {
	t.Helper()
	paths := corpusManifests(t)
	for _, name := range []string{"duplicate_edges.json", "no_child_map.json", "versioned.json", "configs.json"} {
		paths = append(paths, handmade+name)
	}
	synthetic := filepath.Join(t.TempDir(), "synthetic.json")
	if _, err := benchgen.WriteManifest(synthetic, 1<<20, 5); err != nil {
		t.Fatal(err)
	}
	return append(paths, synthetic)
}

// cachedEntry returns the path and key of the entry that holds path's
// manifest in dir.
func cachedEntry(t *testing.T, dir, path string) (string, [sha256.Size]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	content, err := contentHash(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	key := entryKey(manifestKind, content)
	return filepath.Join(dir, entryName(manifestKind, key)), key
}

// loadBoth loads path with Load and with LoadCached and checks that they
// agree.
func loadBoth(t *testing.T, path, dir string) *Manifest {
	t.Helper()
	want, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadCached(path, dir)
	if err != nil {
		t.Fatalf("LoadCached(%s): %v", path, err)
	}
	if !sameManifest(got, want) {
		t.Fatalf("%s: LoadCached differs from Load:\ncached %s\nloaded %s", path, describe(got), describe(want))
	}
	return got
}

// TestCacheRoundTrip stores each manifest and reads it back: the entry
// answers every query as the decoded manifest does.
func TestCacheRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	for _, path := range cacheManifests(t) {
		loadBoth(t, path, dir) // decodes the JSON and writes the entry
		entry, key := cachedEntry(t, dir, path)
		if readEntry(entry, key) == nil {
			t.Fatalf("%s: no readable entry after the first load", path)
		}
		m := loadBoth(t, path, dir) // reads the entry
		if m.Path != path {
			t.Errorf("Path = %q, want %q", m.Path, path)
		}
		want, _ := Load(path)
		for _, n := range want.Nodes() {
			got := m.Node(n.UniqueID)
			if !reflect.DeepEqual(got, n) || !slices.Equal(m.Children(n.UniqueID), want.Children(n.UniqueID)) ||
				!slices.Equal(m.Parents(n.UniqueID), want.Parents(n.UniqueID)) || m.RelationName(got) != want.RelationName(n) {
				t.Fatalf("%s: %s differs after the round trip", path, n.UniqueID)
			}
		}
		if m.Fusion() != want.Fusion() || !slices.Equal(m.Unresolved(), want.Unresolved()) || len(m.Snapshots()) != len(want.Snapshots()) {
			t.Fatalf("%s: manifest-wide answers differ after the round trip", path)
		}
	}
	// Entries are files of their own, one per manifest, none left half
	// written; the cache keeps only the most recent few, and as many
	// records of the entry a path was last read from.
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var entries, lasts int
	for _, f := range files {
		switch name := f.Name(); {
		case strings.HasPrefix(name, "manifest-") && strings.HasSuffix(name, ".bin"):
			entries++
		case strings.HasPrefix(name, "last-") && !strings.HasSuffix(name, ".tmp"):
			lasts++
		case name == tagName:
		default:
			t.Errorf("unexpected file %s in the cache", name)
		}
	}
	if entries != keptEntries || lasts != keptEntries {
		t.Errorf("%d entries and %d records in the cache, want the %d most recent of each", entries, lasts, keptEntries)
	}
}

// TestCacheIgnoresBadEntries replaces a good entry with damaged, foreign
// and outdated ones: each is ignored, the manifest decoded again and the
// entry rewritten.
func TestCacheIgnoresBadEntries(t *testing.T) {
	path := "../../testdata/lineage/shop/target/manifest.json"
	other := handmade + "versioned.json"
	dir := filepath.Join(t.TempDir(), "cache")
	loadBoth(t, other, dir)
	otherEntry, _ := cachedEntry(t, dir, other)
	foreign, err := os.ReadFile(otherEntry)
	if err != nil {
		t.Fatal(err)
	}
	loadBoth(t, path, dir)
	entry, key := cachedEntry(t, dir, path)
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x40
		return b
	}
	outdated := bytes.Clone(good)
	binary.LittleEndian.PutUint32(outdated[len(cacheMagic):], cacheFormat+1)
	// A payload whose checksum is right but whose content is not: the
	// decoder must refuse it on its own.
	lying := bytes.Clone(good[:headerSize])
	payload := []byte{1, 5, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0, 3, 9, 9, 9}
	binary.LittleEndian.PutUint64(lying[headerSize-12:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(lying[headerSize-4:], crc32.Checksum(payload, castagnoli))
	lying = append(lying, payload...)
	for name, content := range map[string][]byte{
		"empty":               {},
		"truncated header":    good[:headerSize-1],
		"truncated payload":   good[:len(good)-1],
		"longer":              append(bytes.Clone(good), 0),
		"flipped magic":       flip(0),
		"flipped key":         flip(len(cacheMagic) + 4),
		"flipped payload":     flip(headerSize + 10),
		"flipped last byte":   flip(len(good) - 1),
		"other format":        outdated,
		"other manifest":      foreign,
		"garbage":             bytes.Repeat([]byte("garbage!"), 1000),
		"checksummed garbage": lying,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(entry, content, 0o600); err != nil {
				t.Fatal(err)
			}
			if readEntry(entry, key) != nil {
				t.Fatal("the entry was read")
			}
			loadBoth(t, path, dir)
			if readEntry(entry, key) == nil {
				t.Error("the entry was not rewritten")
			}
		})
	}
}

// TestCacheIgnoresBadLastRecords points the record of the entry a manifest
// was last read from elsewhere: the manifest is still the one hashed.
func TestCacheIgnoresBadLastRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path := handmade + "configs.json"
	other := handmade + "versioned.json"
	loadBoth(t, other, dir)
	otherEntry, _ := cachedEntry(t, dir, other)
	last := filepath.Join(dir, lastName(path))
	for _, record := range []string{filepath.Base(otherEntry), "../" + filepath.Base(otherEntry), "manifest-nothing.bin", "garbage"} {
		if err := os.WriteFile(last, []byte(record), 0o600); err != nil {
			t.Fatal(err)
		}
		loadBoth(t, path, dir)
	}
}

// TestCacheKeyedByContent edits a manifest between loads: the edit is seen,
// and each version keeps its own entry.
func TestCacheKeyedByContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path := filepath.Join(t.TempDir(), "manifest.json")
	original, err := os.ReadFile(handmade + "versioned.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, original, 0o644); err != nil {
		t.Fatal(err)
	}
	loadBoth(t, path, dir)
	loadBoth(t, path, dir)
	// Same size, other content: only the content tells them apart.
	edited := bytes.Replace(original, []byte(`"crm@example.com"`), []byte(`"ops@example.com"`), 1)
	if bytes.Equal(edited, original) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	m := loadBoth(t, path, dir)
	if got := m.Node("exposure.shop.customer_360").Owner.Email; got != "ops@example.com" {
		t.Errorf("owner email %q after the edit", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 2 {
		t.Errorf("%d entries, want one per version of the manifest", len(files))
	}
}

// TestCacheConcurrentLoads loads one manifest from many goroutines at once
// into an empty cache: every load gets the manifest, and what is left is
// one good entry and no temporary file.
func TestCacheConcurrentLoads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path := filepath.Join(t.TempDir(), "manifest.json")
	if _, err := benchgen.WriteManifest(path, 256<<10, 7); err != nil {
		t.Fatal(err)
	}
	want, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 8 {
		wg.Go(func() {
			for range 2 {
				m, err := LoadCached(path, dir)
				switch {
				case err != nil:
					errs <- err
				case !sameManifest(m, want):
					errs <- os.ErrInvalid
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent load: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(files) != 0 {
		t.Errorf("temporary files left: %q", files)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.bin")); len(files) != 1 {
		t.Errorf("cache holds %q, want one entry", files)
	}
	entry, key := cachedEntry(t, dir, path)
	if readEntry(entry, key) == nil {
		t.Error("the entry left is not readable")
	}
}

// TestCacheUnusable points the cache at places that cannot be folders:
// loads work as without a cache.
func TestCacheUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "below")} {
		loadBoth(t, handmade+"configs.json", dir)
	}
	// Errors are Load's, named after the manifest.
	for _, path := range []string{handmade + "truncated.json", filepath.Join(t.TempDir(), "missing.json")} {
		_, want := Load(path)
		_, got := LoadCached(path, filepath.Join(t.TempDir(), "cache"))
		if got == nil || got.Error() != want.Error() {
			t.Errorf("LoadCached(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/cache-home")
	if user, err := os.UserCacheDir(); err == nil {
		if got, want := CacheDir(), filepath.Join(user, "bflint", "cache"); got != want {
			t.Errorf("default cache folder %q, want %q", got, want)
		}
	}
	t.Setenv(CacheDirEnv, "elsewhere")
	if got := CacheDir(); got != filepath.Join("elsewhere", "cache") {
		t.Errorf("CacheDir = %q with %s=elsewhere", got, CacheDirEnv)
	}
	t.Setenv(CacheDirEnv, "off")
	if got := CacheDir(); got != "" {
		t.Errorf("CacheDir = %q with %s=off", got, CacheDirEnv)
	}
}

// TestNodeStringsCoverNode keeps the cache complete: every string field of
// Node must be in nodeStrings, and its only lists are the two a record
// holds (unique_key and depends_on.nodes).
func TestNodeStringsCoverNode(t *testing.T) {
	var strs []string
	var lists []string
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			switch f.Type.Kind() {
			case reflect.String:
				strs = append(strs, path+f.Name)
			case reflect.Slice:
				lists = append(lists, path+f.Name)
			case reflect.Struct:
				walk(f.Type, path+f.Name+".")
			default:
				t.Errorf("field %s of kind %s: teach the cache to store it", f.Name, f.Type.Kind())
			}
		}
	}
	walk(reflect.TypeFor[Node](), "")
	var n Node
	seen := map[*string]bool{}
	for _, p := range nodeStrings(&n) {
		seen[p] = true
	}
	if len(seen) != len(strs) || len(strs) != recordStrings {
		t.Errorf("nodeStrings has %d fields, Node has the strings %q", len(seen), strs)
	}
	if want := []string{"Config.UniqueKey", "DependsOn.Nodes"}; !slices.Equal(lists, want) {
		t.Errorf("Node has the lists %q; the cache stores %q", lists, want)
	}
}

// FuzzCacheEntry feeds arbitrary payloads to the decoder: it refuses or
// decodes, never panics, and what it decodes is a consistent manifest.
func FuzzCacheEntry(f *testing.F) {
	for _, name := range []string{"versioned.json", "duplicate_edges.json"} {
		m, err := Load(handmade + name)
		if err != nil {
			f.Fatal(err)
		}
		p, ok := marshalManifest(m)
		if !ok {
			f.Fatalf("%s cannot be cached", name)
		}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		p.writeTo(w)
		w.Flush()
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := unmarshalManifest(payload)
		if err != nil {
			return
		}
		for _, n := range m.Nodes() {
			if m.Node(n.UniqueID) != n {
				t.Fatalf("Node(%q) is not the node Nodes lists", n.UniqueID)
			}
		}
	})
}
