package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-30T09:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	cases := []struct {
		name    string
		stamped versionInfo
		info    *debug.BuildInfo
		want    versionInfo
	}{
		{"release build: the linker flags win", versionInfo{"v1.2.3", "abc1234", "2026-12-01T10:00:00Z"}, checkout,
			versionInfo{"v1.2.3", "abc1234", "2026-12-01T10:00:00Z"}},
		{"build in a checkout", versionInfo{}, checkout,
			versionInfo{"dev", "0123456789abcdef0123456789abcdef01234567-dirty", "2026-11-30T09:00:00Z"}},
		{"go install of a tag", versionInfo{}, &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}},
			versionInfo{"v1.2.3", "unknown", "unknown"}},
		{"go install of a commit", versionInfo{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261130090000-0123456789ab"}},
			versionInfo{"v0.0.0-20261130090000-0123456789ab", "0123456789ab", "2026-11-30T09:00:00Z"}},
		{"no build info", versionInfo{}, nil, versionInfo{"dev", "unknown", "unknown"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionFrom(tc.stamped, tc.info); got != tc.want {
				t.Errorf("versionFrom = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestVersionCommand checks that "version" and "--version" print the same
// line, naming the version, commit, build date and platform.
func TestVersionCommand(t *testing.T) {
	var lines []string
	for _, arg := range []string{"version", "--version"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{arg}, &stdout, &stderr); code != 0 {
			t.Fatalf("bflint %s: exit %d, stderr %q", arg, code, stderr.String())
		}
		lines = append(lines, stdout.String())
	}
	if lines[0] != lines[1] {
		t.Errorf("version printed %q, --version %q", lines[0], lines[1])
	}
	want := "bflint " + version() + " (commit "
	platform := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], ", built ") || !strings.HasSuffix(lines[0], platform) {
		t.Errorf("version printed %q, want %q... built ... %q", lines[0], want, platform)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version", "extra"}, &stdout, &stderr); code != exitUsage {
		t.Errorf("bflint version extra: exit %d, want %d", code, exitUsage)
	}
}
