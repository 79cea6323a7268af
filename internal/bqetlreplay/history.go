package bqetlreplay

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// repo is a bigquery-etl git directory and the scratch tree the replay
// checks its commits out into, with an index of its own, so that the
// clone's own work tree and index are never touched.
type repo struct {
	dir, work, index string
}

// proposal is an entry as its pull request proposed it: the first commit
// of the branch whose backfill.yaml holds it.
type proposal struct {
	path, date, commit string
	when               time.Time
}

func (g repo) git(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", g.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+g.index)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// proposals lists every entry of every backfill.yaml on ref with the
// first commit that held it, in the order of those commits.
func (g repo) proposals(ref string) ([]proposal, error) {
	names, err := g.git(nil, "ls-tree", "-r", "--name-only", ref, "--", "sql")
	if err != nil {
		return nil, err
	}
	type version struct {
		path, commit string
		when         time.Time
	}
	var versions []version
	for _, path := range strings.Split(strings.TrimSpace(string(names)), "\n") {
		if !strings.HasSuffix(path, "/backfill.yaml") {
			continue
		}
		log, err := g.git(nil, "log", "--reverse", "--format=%H %ct", ref, "--", path)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
			commit, secs, ok := strings.Cut(line, " ")
			if !ok {
				continue
			}
			n, _ := strconv.ParseInt(secs, 10, 64)
			versions = append(versions, version{path, commit, time.Unix(n, 0).UTC()})
		}
	}
	// One git cat-file reads every version of every file.
	var request bytes.Buffer
	for _, v := range versions {
		fmt.Fprintf(&request, "%s:%s\n", v.commit, v.path)
	}
	cmd := exec.Command("git", "--git-dir", g.dir, "cat-file", "--batch")
	cmd.Stdin = &request
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	rd := bufio.NewReader(stdout)
	seen := map[string]bool{}
	var out []proposal
	for _, v := range versions {
		header, err := rd.ReadString('\n')
		if err != nil {
			return nil, err
		}
		fields := strings.Fields(header)
		if len(fields) != 3 {
			continue // deleted in this commit: "missing"
		}
		size, _ := strconv.Atoi(fields[2])
		body := make([]byte, size+1)
		if _, err := io.ReadFull(rd, body); err != nil {
			return nil, err
		}
		for _, e := range Entries(string(body[:size])) {
			if key := v.path + " " + e.Date; !seen[key] {
				seen[key] = true
				out = append(out, proposal{v.path, e.Date, v.commit, v.when})
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b proposal) int { return a.when.Compare(b.when) })
	return out, nil
}

// checkout makes the scratch tree commit's: whole the first time, then
// the files that differ. The tree's .git file points at the git
// directory, so bflint reads the tables' history from it.
func (g repo) checkout(commit string, first bool) error {
	if first {
		if err := os.RemoveAll(g.work); err != nil {
			return err
		}
		if err := os.MkdirAll(g.work, 0o755); err != nil {
			return err
		}
		abs, err := filepath.Abs(g.dir)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(g.work, ".git"), []byte("gitdir: "+abs+"\n"), 0o644); err != nil {
			return err
		}
		os.Remove(g.index)
		_, err = g.git(nil, "--work-tree", g.work, "read-tree", "--reset", "-u", commit)
		return err
	}
	// --reset, as the replay rewrote files since: their contents are
	// back, their times are not.
	_, err := g.git(nil, "--work-tree", g.work, "read-tree", "--reset", "-u", commit)
	return err
}
