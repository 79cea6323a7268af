package runcmd

import (
	"strings"
	"time"
)

// Option is a flag and the value given to it: --flag value, --flag=value,
// or -fVALUE for a short flag.
type Option struct {
	Flag Word
	// Value is nil when nothing follows the flag but another flag or the
	// end of the command.
	Value *Word
}

// Time is an option whose value is a date or a timestamp.
type Time struct {
	Option
	// T is the value in UTC: the instant it names when it carries a zone
	// (Zoned), else its wall-clock reading, which each tool places in a
	// zone of its own.
	T     time.Time
	Zoned bool
	// Err says why a value that is written out is not a date; nil when
	// the value is missing or dynamic.
	Err error
}

// Known reports whether T holds the option's value.
func (t *Time) Known() bool { return t != nil && t.Value != nil && !t.Value.Dynamic && t.Err == nil }

func newTime(o Option) *Time {
	t := &Time{Option: o}
	if o.Value != nil && !o.Value.Dynamic {
		t.T, t.Zoned, t.Err = ParseTime(o.Value.Value)
	}
	return t
}

type kind int

const (
	switchFlag kind = iota
	valueFlag
	// listFlag takes every word up to the next flag, as dbt's --select.
	listFlag
)

type flagDef struct {
	key  string
	kind kind
}

// flagSet describes a command's flags by the names they are written with.
type flagSet struct {
	defs map[string]flagDef
	// abbrev accepts a unique prefix of a long flag, as Python's argparse
	// does.
	abbrev bool
}

// arg is one flag with its values; with key "" it is a positional word,
// with key "?" a flag the set does not know.
type arg struct {
	key    string
	kind   kind
	flag   Word
	values []Word
	// valued is set when a value or list flag got at least one value.
	valued bool
}

func (a arg) option() Option {
	o := Option{Flag: a.flag}
	if a.valued {
		o.Value = &a.values[0]
	}
	return o
}

// FlagName is a flag as a user writes it on its own: a flag read out of a
// cluster such as -yB is the letter alone, and gets its dash back.
func FlagName(w Word) string {
	if strings.HasPrefix(w.Value, "-") {
		return w.Value
	}
	return "-" + w.Value
}

func isFlag(w Word) bool { return len(w.Value) > 1 && w.Value[0] == '-' }

// scan reads args against the flag set and hands each flag, with its
// values, and each positional word to visit in order. An unknown flag is
// taken as a switch; a value it may have had becomes a positional word.
// After "--" every word is positional.
func (fs flagSet) scan(args []Word, visit func(arg)) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Value == "--":
			for _, p := range args[i+1:] {
				visit(arg{flag: p})
			}
			return
		case !isFlag(w):
			visit(arg{flag: w})
			continue
		}
		pre, a, attached, ok := fs.split(w)
		if !ok {
			visit(arg{key: "?", flag: w})
			continue
		}
		for _, p := range pre {
			visit(p)
		}
		switch a.kind {
		case valueFlag:
			if attached != nil {
				a.values, a.valued = []Word{*attached}, true
			} else if i+1 < len(args) && !isFlag(args[i+1]) {
				i++
				a.values, a.valued = []Word{args[i]}, true
			}
		case listFlag:
			if attached != nil {
				a.values = append(a.values, *attached)
			}
			for i+1 < len(args) && !isFlag(args[i+1]) && args[i+1].Value != "--" {
				i++
				a.values = append(a.values, args[i])
			}
			a.valued = len(a.values) > 0
		}
		visit(a)
	}
}

// split reads one flag word: --name, --name=value, -n, -nVALUE, or a
// cluster of short flags such as -yB or -ys2026-01-14, whose switches
// before the last flag come back in pre.
func (fs flagSet) split(w Word) (pre []arg, a arg, attached *Word, ok bool) {
	if strings.HasPrefix(w.Value, "--") {
		name := w
		if eq := strings.IndexByte(w.Value, '='); eq >= 0 {
			name = w.upTo(eq)
			v := w.from(eq + 1)
			attached = &v
		}
		def, ok := fs.long(name.Value)
		if !ok {
			return nil, arg{}, nil, false
		}
		return nil, arg{key: def.key, kind: def.kind, flag: name}, attached, true
	}
	for k := 1; k < len(w.Value); k++ {
		def, ok := fs.defs["-"+w.Value[k:k+1]]
		if !ok {
			return nil, arg{}, nil, false
		}
		flag := w.upTo(k + 1)
		if k > 1 {
			flag = w.from(k).upTo(1)
		}
		a = arg{key: def.key, kind: def.kind, flag: flag}
		switch {
		case def.kind != switchFlag:
			if k+1 < len(w.Value) {
				v := w.from(k + 1)
				attached = &v
			}
			return pre, a, attached, true
		case k+1 < len(w.Value):
			pre = append(pre, a)
		}
	}
	return pre, a, nil, true
}

// long finds a long flag by name or, where abbreviations are allowed, by
// the one flag the name is a prefix of.
func (fs flagSet) long(name string) (flagDef, bool) {
	if d, ok := fs.defs[name]; ok {
		return d, true
	}
	if !fs.abbrev || len(name) < 3 {
		return flagDef{}, false
	}
	found, n := flagDef{}, 0
	for full, d := range fs.defs {
		if strings.HasPrefix(full, name) && strings.HasPrefix(full, "--") {
			found = d
			n++
		}
	}
	return found, n == 1
}
