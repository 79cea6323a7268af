//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command benchrun times whole processes for scripts/bench.sh and checks
// the medians against a target.
//
//	benchrun [flags] -- LABEL [NAME=VALUE ...] PROGRAM [ARG ...] [-- LABEL ...]
//
// Each command follows a "--": a label, environment assignments, then the
// program and its arguments, started without a shell so that a glob
// reaches the program as written. The commands run interleaved (run 1 of
// each, then run 2 of each, ...) so that a slow spell of a shared machine
// falls on all of them alike. Each run's wall time and peak RSS are
// recorded; stdout goes to /dev/null, so no tool pays for a reader that
// the other does not.
//
// The exit status is 0 when every check passed, 1 when one failed and 2
// when benchrun could not measure (bad usage, or a command that exited
// with a code outside -ok-exit).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

type options struct {
	runs, warmup int
	okExit       map[int]bool
	ratio        float64
	maxMS        float64
	rssOf        string
	maxRSSRatio  float64
	unit         string
	unitSize     float64
	maxGrowth    float64
}

type command struct {
	label string
	// amount is the work the command does, in the quantity -unit-size
	// divides (files, bytes); only read with -unit.
	amount float64
	env    []string
	argv   []string
	wall   []time.Duration
	rssKiB []int64
	// outBytes is what the last warm-up run wrote to stdout, -1 without
	// one: a check that the tool did the work, not an early exit.
	outBytes int64
}

func main() {
	o, cmds, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(2)
	}
	if err := measure(o, cmds); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(2)
	}
	printTable(os.Stdout, o, cmds)
	passed, err := check(os.Stdout, o, cmds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(2)
	}
	if !passed {
		os.Exit(1)
	}
}

var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func parseArgs(args []string) (*options, []*command, error) {
	fs := flag.NewFlagSet("benchrun", flag.ContinueOnError)
	o := &options{}
	okExit := fs.String("ok-exit", "0", "comma-separated exit `codes` that count as a successful run")
	fs.IntVar(&o.runs, "runs", 5, "measured runs of each command")
	fs.IntVar(&o.warmup, "warmup", 1, "unmeasured runs of each command before the measured ones (they also fill caches the measured runs should find warm)")
	fs.Float64Var(&o.ratio, "ratio", 0, "check that the first command's median wall time is at most this `factor` times the second's")
	fs.Float64Var(&o.maxMS, "max-ms", 0, "check that the first command's median wall time is at most this many `milliseconds`")
	fs.StringVar(&o.rssOf, "rss-of", "", "with -max-rss-ratio, the `file` whose size bounds the first command's peak RSS")
	fs.Float64Var(&o.maxRSSRatio, "max-rss-ratio", 0, "check that the first command's highest peak RSS is at most this `factor` times the size of -rss-of")
	fs.StringVar(&o.unit, "unit", "", "add per-unit columns for this unit `name` (\"1k files\"); each label is then LABEL:AMOUNT")
	fs.Float64Var(&o.unitSize, "unit-size", 1, "how much of a command's AMOUNT one -unit is")
	fs.Float64Var(&o.maxGrowth, "max-growth", 0, "with -unit, check that the last command's time and RSS per unit are at most this `factor` times the first's")
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	o.okExit = map[int]bool{}
	for _, s := range strings.Split(*okExit, ",") {
		code, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, nil, fmt.Errorf("-ok-exit %q: %v", *okExit, err)
		}
		o.okExit[code] = true
	}
	if o.runs < 1 || o.warmup < 0 || o.unitSize <= 0 {
		return nil, nil, errors.New("-runs must be at least 1, -warmup at least 0 and -unit-size positive")
	}
	if (o.rssOf == "") != (o.maxRSSRatio == 0) {
		return nil, nil, errors.New("-rss-of and -max-rss-ratio go together")
	}
	if o.maxGrowth > 0 && o.unit == "" {
		return nil, nil, errors.New("-max-growth needs -unit")
	}
	var cmds []*command
	for _, group := range splitGroups(fs.Args()) {
		c := &command{label: group[0], outBytes: -1}
		if o.unit != "" {
			i := strings.LastIndexByte(c.label, ':')
			n, err := strconv.ParseFloat(c.label[i+1:], 64)
			if i < 0 || err != nil || n <= 0 {
				return nil, nil, fmt.Errorf("with -unit, label %q must be LABEL:AMOUNT", c.label)
			}
			c.label, c.amount = c.label[:i], n
		}
		rest := group[1:]
		for len(rest) > 0 && envAssignment.MatchString(rest[0]) {
			c.env = append(c.env, rest[0])
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return nil, nil, fmt.Errorf("command %q names no program", c.label)
		}
		c.argv = rest
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return nil, nil, errors.New("no command; usage: benchrun [flags] -- LABEL [NAME=VALUE ...] PROGRAM [ARG ...] [-- ...]")
	}
	if o.ratio > 0 && len(cmds) < 2 {
		return nil, nil, errors.New("-ratio compares the first two commands; give two")
	}
	return o, cmds, nil
}

// splitGroups splits the arguments left after the flags (the flag package
// has already taken the first "--") at each further "--".
func splitGroups(args []string) [][]string {
	var groups [][]string
	for len(args) > 0 {
		i := slices.Index(args, "--")
		if i < 0 {
			i = len(args)
		}
		if i > 0 {
			groups = append(groups, args[:i])
		}
		args = args[min(i+1, len(args)):]
	}
	return groups
}

func measure(o *options, cmds []*command) error {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer devNull.Close()
	// A file rather than a buffer, so that exec hands the child a
	// descriptor and no copying goroutine competes with it for CPU.
	stderr, err := os.CreateTemp("", "benchrun-stderr-")
	if err != nil {
		return err
	}
	defer os.Remove(stderr.Name())
	defer stderr.Close()
	for range o.warmup {
		for _, c := range cmds {
			out := &countingWriter{}
			if _, _, err := c.runOnce(out, stderr, o.okExit); err != nil {
				return err
			}
			c.outBytes = out.n
		}
	}
	for range o.runs {
		for _, c := range cmds {
			wall, rss, err := c.runOnce(devNull, stderr, o.okExit)
			if err != nil {
				return err
			}
			c.wall = append(c.wall, wall)
			c.rssKiB = append(c.rssKiB, rss)
		}
	}
	return nil
}

func (c *command) runOnce(stdout io.Writer, stderr *os.File, okExit map[int]bool) (time.Duration, int64, error) {
	if err := stderr.Truncate(0); err != nil {
		return 0, 0, err
	}
	if _, err := stderr.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return 0, 0, fmt.Errorf("%s: %v", c.label, err)
	}
	if code := cmd.ProcessState.ExitCode(); !okExit[code] {
		msg, _ := os.ReadFile(stderr.Name())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return 0, 0, fmt.Errorf("%s: %s (%v); stderr ends:\n%s", c.label, strings.Join(c.argv, " "), cmd.ProcessState, msg)
	}
	// Maxrss is in KiB on Linux, the only system this command builds for.
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	return wall, rss, nil
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mib(kib int64) float64 { return float64(kib) / 1024 }

func size(bytes int64) string {
	switch {
	case bytes < 1000:
		return fmt.Sprintf("%d B", bytes)
	case bytes < 1e6:
		return fmt.Sprintf("%.1f kB", float64(bytes)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(bytes)/1e6)
}

func printTable(w io.Writer, o *options, cmds []*command) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "\twall median\tmin\tmax\tpeak RSS median\tmax\tstdout\t"
	if o.unit != "" {
		header += "ms per " + o.unit + "\tMiB per " + o.unit + "\t"
	}
	fmt.Fprintln(tw, header)
	// tabwriter aligns every column right; padding the labels to one width
	// keeps them aligned left.
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.label))
	}
	for _, c := range cmds {
		out := "—"
		if c.outBytes >= 0 {
			out = size(c.outBytes)
		}
		fmt.Fprintf(tw, "%-*s\t%.0f ms\t%.0f\t%.0f\t%.1f MiB\t%.1f\t%s\t", width, c.label,
			ms(median(c.wall)), ms(slices.Min(c.wall)), ms(slices.Max(c.wall)),
			mib(median(c.rssKiB)), mib(slices.Max(c.rssKiB)), out)
		if o.unit != "" {
			units := c.amount / o.unitSize
			fmt.Fprintf(tw, "%.1f\t%.2f\t", ms(median(c.wall))/units, mib(median(c.rssKiB))/units)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// check prints one PASS or FAIL line per requested check.
func check(w io.Writer, o *options, cmds []*command) (bool, error) {
	passed := true
	verdict := func(ok bool, format string, args ...any) {
		word := "PASS"
		if !ok {
			word, passed = "FAIL", false
		}
		fmt.Fprintf(w, "%s  %s\n", word, fmt.Sprintf(format, args...))
	}
	first := cmds[0]
	if o.ratio > 0 {
		r := ms(median(first.wall)) / ms(median(cmds[1].wall))
		verdict(r <= o.ratio, "%s / %s median wall time = %.2fx (target <= %.2fx)", first.label, cmds[1].label, r, o.ratio)
	}
	if o.maxMS > 0 {
		m := ms(median(first.wall))
		verdict(m <= o.maxMS, "%s median wall time = %.0f ms (target <= %.0f ms)", first.label, m, o.maxMS)
	}
	if o.rssOf != "" {
		info, err := os.Stat(o.rssOf)
		if err != nil {
			return false, err
		}
		// The highest run, not the median: the target bounds a peak.
		peak := float64(slices.Max(first.rssKiB)) * 1024
		size := float64(info.Size())
		verdict(peak <= o.maxRSSRatio*size, "%s highest peak RSS = %.1f MiB = %.2fx the %.1f MiB input (target <= %.2fx)",
			first.label, peak/(1<<20), peak/size, size/(1<<20), o.maxRSSRatio)
	}
	if o.maxGrowth > 0 {
		last := cmds[len(cmds)-1]
		if len(cmds) < 2 {
			fmt.Fprintln(w, "SKIP  growth not checked: one size only")
		} else {
			perUnit := func(c *command, v float64) float64 { return v / (c.amount / o.unitSize) }
			t := perUnit(last, ms(median(last.wall))) / perUnit(first, ms(median(first.wall)))
			m := perUnit(last, mib(median(last.rssKiB))) / perUnit(first, mib(median(first.rssKiB)))
			verdict(t <= o.maxGrowth && m <= o.maxGrowth, "per %s, %s costs %.2fx the time and %.2fx the RSS of %s (target <= %.2fx: linear or better)",
				o.unit, last.label, t, m, first.label, o.maxGrowth)
		}
	}
	return passed, nil
}
