package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// subcommand is one of bflint's commands, as help and completion list it.
type subcommand struct {
	name     string
	synopsis string // after "bflint NAME"
	summary  string // one line for the command list
	// about is the paragraph under the usage line of `bflint NAME --help`.
	about string
	// flags declares the command's flags on a set, for its help and for
	// shell completion; nil for a command without flags.
	flags func(fs *flag.FlagSet)
}

var subcommands = []subcommand{
	{name: "lint", synopsis: "[flags] [path ...]", summary: "lint plans and SQL under the paths (default .); the command when none is named"},
	{name: "rules", synopsis: "[--format text|json]", summary: "list every rule",
		about: "Lists every rule: code, default severity, name and title.",
		flags: func(fs *flag.FlagSet) { fs.String("format", "text", "output `FORMAT`: text or json") }},
	{name: "explain", synopsis: "CODE|NAME", summary: "show a rule's documentation with examples and its page",
		about: "Prints what a rule checks, why, an example it reports and one it does not,\nand the address of its page. The text is wrapped to the terminal (COLUMNS)."},
	{name: "lineage", synopsis: "TARGET [DIR | --manifest FILE | --tree DIR] [--format text|json]", summary: "what is derived from a dbt node or bigquery-etl table: rebuild order, snapshots, exposures",
		about: lineageAbout, flags: lineageFlags},
	{name: "models", synopsis: "[--where FIELD=VALUE] [--format text|markdown|json] [path ...]", summary: "list the dbt models and bigquery-etl tables: how each is built, what a re-run does, whether it can be backfilled by range",
		about: modelsAbout, flags: modelsFlags},
	{name: "init", synopsis: "--target T --start D --end D [--manifest FILE] [-o FILE] [--id ID] [--grain G]", summary: "write a plan skeleton for T, filled from the dbt project (its manifest or its files), or a bigquery-etl backfill entry",
		about: initAbout, flags: initFlags},
	{name: "brief", synopsis: "[--format markdown|json] [--output FILE] [path ...]", summary: "write each plan's brief for consumers and reviewers: what moves, when, how it is undone",
		about: briefAbout, flags: briefFlags},
	{name: "schema", synopsis: "[--config]", summary: "print the JSON Schema of the plan format, or with --config of .bflint.yaml",
		about: "Prints a JSON Schema for editors (yaml-language-server, JetBrains):\nof the plan format, or with --config of the configuration file .bflint.yaml.",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("config", false, "print the schema of the configuration file .bflint.yaml instead")
		}},
	{name: "completion", synopsis: "bash|zsh|fish", summary: "print a shell completion script",
		about: "Prints a completion script for the shell: commands, flags, formats and rule\ncodes. Load it with\n  bash: source <(bflint completion bash)\n  zsh:  bflint completion zsh > \"${fpath[1]}/_bflint\"\n  fish: bflint completion fish > ~/.config/fish/completions/bflint.fish"},
	{name: "version", summary: "print the version, commit and build date (also --version)",
		about: "Prints bflint's version, the commit it was built from, the build date and\nthe Go release."},
	{name: "help", synopsis: "[COMMAND]", summary: "show this help, or a command's",
		about: "Prints bflint's help, or with a command that command's, as COMMAND --help does."},
}

func lookupSubcommand(name string) *subcommand {
	for i := range subcommands {
		if subcommands[i].name == name {
			return &subcommands[i]
		}
	}
	return nil
}

const helpHeader = "bflint checks data backfill plans before the first partition runs.\n"

const exitCodesHelp = `
Exit codes:
  0  no finding at or above --fail-on (and help, version)
  1  findings at or above --fail-on
  2  the command line, the configuration or a named file is wrong: nothing
     was linted, or the run could not do what was asked
  3  bflint itself failed (a rule crashed, out of memory, a fault):
     please report it
  130, 143  stopped by SIGINT or SIGTERM; temporary files are removed
`

const examplesHelp = `
Examples:
  bflint backfills/                        lint every plan under backfills/
  bflint -q examples/good/                 one line: the verdict
  bflint --format sarif=bflint.sarif .     text on stdout, SARIF to a file
  bflint --now 2026-11-30 plan.backfill.yaml
                                           lint as on that day (noon UTC)
  bflint --new-from-rev origin/main        only what this branch changed
  bflint explain BF201                     what a rule checks, and why
  bflint brief backfills/ > brief.md       each plan in plain words, for the
                                           pull request and the consumers
  bflint init --target fct_orders --start 2026-01-01 --end 2026-03-31 -o backfills/fct_orders.backfill.yaml
`

// writeMainHelp prints `bflint --help`: the commands, the lint flags, exit
// codes, the environment and examples.
func writeMainHelp(w io.Writer, lintFlags *flag.FlagSet) {
	fmt.Fprintf(w, "%s\nUsage:\n  bflint [lint] [flags] [path ...]\n  bflint COMMAND [flags] [arguments]\n\nCommands:\n", helpHeader)
	width := 0
	for _, c := range subcommands {
		width = max(width, len(c.name))
	}
	for _, c := range subcommands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\nLint flags:\n")
	writeFlags(w, lintFlags)
	fmt.Fprint(w, exitCodesHelp, environmentHelp, examplesHelp)
	fmt.Fprint(w, "\nRun 'bflint COMMAND --help' for a command's flags; docs: "+projectDocs+"\n")
}

const projectDocs = "https://github.com/bflint/bflint/tree/main/docs"

// writeCommandHelp prints `bflint NAME --help` for a command declared in
// subcommands.
func writeCommandHelp(w io.Writer, c *subcommand) {
	fmt.Fprintf(w, "Usage: bflint %s", c.name)
	if c.synopsis != "" {
		fmt.Fprintf(w, " %s", c.synopsis)
	}
	fmt.Fprintf(w, "\n\n%s\n", c.about)
	if c.flags != nil {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		fmt.Fprint(w, "\nFlags:\n")
		writeFlags(w, fs)
	}
}

// writeFlags lists flags as a user types them: --name for long names, -x
// for one letter, and a one-letter alias beside the long name it stands
// for. flag.PrintDefaults shows every flag with one dash, which the README
// and the docs do not.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	aliases := map[string]string{} // long name -> one-letter alias
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) == 1 {
			fs.VisitAll(func(long *flag.Flag) {
				if len(long.Name) > 1 && long.Usage == f.Usage {
					aliases[long.Name] = f.Name
				}
			})
		}
	})
	isAlias := map[string]bool{}
	for _, short := range aliases {
		isAlias[short] = true
	}
	fs.VisitAll(func(f *flag.Flag) {
		if isAlias[f.Name] {
			return
		}
		valueName, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if len(f.Name) == 1 {
			name = "-" + f.Name
		}
		if short, ok := aliases[f.Name]; ok {
			name = "-" + short + ", " + name
		}
		if valueName != "" {
			name += " " + valueName
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "  %s\n%s", name, indentWrapped(usage, 6, 80))
	})
}

// indentWrapped wraps text at width columns, each line indented.
func indentWrapped(text string, indent, width int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	for _, para := range strings.Split(text, "\n") {
		b.WriteString(wrap(para, pad, width))
	}
	return b.String()
}

// wrap breaks one paragraph at spaces so that no line passes width columns
// (a word longer than the line stands alone), each line starting with pad.
func wrap(para, pad string, width int) string {
	var b strings.Builder
	line := pad
	for _, word := range strings.Fields(para) {
		if len(line) > len(pad) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = pad
		}
		if len(line) > len(pad) {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}

// parseCommandFlags parses a command's flags, printing its help for -h and
// --help; errHelpShown then ends the command with exit 0.
func parseCommandFlags(c *subcommand, args []string, stdout io.Writer) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet("bflint "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c.flags != nil {
		c.flags(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeCommandHelp(stdout, c)
			return nil, &exitError{code: exitClean}
		}
		return nil, commandUsageErrorf(c.name, "%v", err)
	}
	return fs, nil
}

func helpCommand(args []string, stdout, stderr io.Writer) error {
	switch len(args) {
	case 0:
		return lintCommand([]string{"--help"}, stdout, stderr)
	case 1:
		if isHelpFlag(args[0]) {
			writeCommandHelp(stdout, lookupSubcommand("help"))
			return nil
		}
		if lookupSubcommand(args[0]) == nil {
			return commandUsageErrorf("help", "help %s: no such command; the commands are %s", args[0], commandNames())
		}
		return dispatch([]string{args[0], "--help"}, stdout, stderr)
	}
	return commandUsageErrorf("help", "help takes at most one command")
}

func commandNames() string {
	names := make([]string, len(subcommands))
	for i, c := range subcommands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// parseInterleaved parses flags between which positional arguments may
// stand ("bflint lineage fct_orders --format json", "bflint examples/
// --format json") and returns the positional ones in order; "--" ends the
// flags, so what follows it is positional even when it looks like a flag.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if consumed := len(rest) - fs.NArg(); consumed > 0 && rest[consumed-1] == "--" {
			return append(positional, fs.Args()...), nil
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		rest = fs.Args()[1:]
	}
}

// flagValue is the parsed value of a flag fs declares, for commands whose
// flags are declared once in subcommands.
func flagValue(fs *flag.FlagSet, name string) string {
	return fs.Lookup(name).Value.String()
}
