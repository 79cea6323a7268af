package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bflint/bflint/rules/all"
)

// completionWords is what a shell offers, computed from the commands and
// flags bflint declares so that completion cannot drift from them.
type completionWords struct {
	commands []string
	// flags are each command's flags as typed (--name, -x); "lint" also
	// stands for no command.
	flags map[string][]string
	// fileFlags take a path; valueFlags take one of a fixed list; other
	// flags in takesValue take free text.
	fileFlags  []string
	valueFlags map[string][]string
	takesValue map[string]bool
	rules      []string
}

func collectCompletion() completionWords {
	w := completionWords{flags: map[string][]string{}, takesValue: map[string]bool{}, valueFlags: map[string][]string{
		"--format":      formats,
		"--fail-on":     {"error", "warning", "never"},
		"--plan-format": {"auto", "bflint", "bqetl"},
		"--grain":       {"hour", "day", "week", "month"},
		"--dialect":     dialectList(),
	}}
	for _, c := range subcommands {
		w.commands = append(w.commands, c.name)
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		switch {
		case c.name == "lint":
			declareLintFlags(fs, &lintOptions{}, &lintFlagValues{})
		case c.flags != nil:
			c.flags(fs)
		}
		fs.VisitAll(func(f *flag.Flag) {
			name := "--" + f.Name
			if len(f.Name) == 1 {
				name = "-" + f.Name
			}
			w.flags[c.name] = append(w.flags[c.name], name)
			switch valueName, _ := flag.UnquoteUsage(f); valueName {
			case "FILE", "DIR":
				w.fileFlags = append(w.fileFlags, name)
			case "":
			default:
				w.takesValue[name] = true
			}
		})
		w.flags[c.name] = append(w.flags[c.name], "--help")
	}
	w.fileFlags = uniqueSorted(w.fileFlags)
	for _, r := range all.Registry().All() {
		w.rules = append(w.rules, r.Code)
	}
	return w
}

func uniqueSorted(list []string) []string {
	sort.Strings(list)
	out := list[:0]
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func completionCommand(args []string, stdout io.Writer) error {
	fs, err := parseCommandFlags(lookupSubcommand("completion"), args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return commandUsageErrorf("completion", "completion takes one shell: bash, zsh or fish")
	}
	w := collectCompletion()
	switch fs.Arg(0) {
	case "bash":
		writeBashCompletion(stdout, w)
	case "zsh":
		// zsh reads bash completion functions through bashcompinit, which
		// every zsh since 4.2 ships.
		fmt.Fprint(stdout, "#compdef bflint\nautoload -U +X bashcompinit && bashcompinit\n")
		writeBashCompletion(stdout, w)
	case "fish":
		writeFishCompletion(stdout, w)
	default:
		return commandUsageErrorf("completion", "completion %q: use bash, zsh or fish", fs.Arg(0))
	}
	return nil
}

func writeBashCompletion(out io.Writer, w completionWords) {
	fmt.Fprintf(out, `# bflint completion for bash; load with: source <(bflint completion bash)
_bflint() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command=lint i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            %s) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    case $prev in
        %s) COMPREPLY=($(compgen -f -- "$cur")); return ;;
`, strings.Join(w.commands, "|"), strings.Join(w.fileFlags, "|"))
	for _, name := range sortedKeys(w.valueFlags) {
		fmt.Fprintf(out, "        %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", name, strings.Join(w.valueFlags[name], " "))
	}
	fmt.Fprintf(out, "        --enable|--disable) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n    esac\n", strings.Join(w.rules, " "))
	fmt.Fprint(out, "    case $command in\n")
	for _, c := range w.commands {
		fmt.Fprintf(out, "        %s) local flags=%q ;;\n", c, strings.Join(w.flags[c], " "))
	}
	fmt.Fprintf(out, `    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ $command == explain ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
    elif [[ $command == completion ]]; then
        COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur"))
    elif [[ $command == help ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
    elif ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W %q -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _bflint bflint
`, strings.Join(w.rules, " "), strings.Join(w.commands, " "), strings.Join(w.commands, " "))
}

func writeFishCompletion(out io.Writer, w completionWords) {
	fmt.Fprintln(out, "# bflint completion for fish; save as ~/.config/fish/completions/bflint.fish")
	fmt.Fprintln(out, "complete -c bflint -f")
	for _, c := range subcommands {
		fmt.Fprintf(out, "complete -c bflint -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	isFile := map[string]bool{}
	for _, f := range w.fileFlags {
		isFile[f] = true
	}
	for _, c := range w.commands {
		condition := "__fish_seen_subcommand_from " + c
		if c == "lint" {
			condition = "not __fish_seen_subcommand_from " + strings.Join(w.commands[1:], " ")
		}
		for _, f := range w.flags[c] {
			spec := "-l " + strings.TrimPrefix(f, "--")
			if !strings.HasPrefix(f, "--") {
				spec = "-s " + strings.TrimPrefix(f, "-")
			}
			switch values, ok := w.valueFlags[f]; {
			case ok:
				spec += " -x -a " + fishQuote(strings.Join(values, " "))
			case f == "--enable" || f == "--disable":
				spec += " -x -a " + fishQuote(strings.Join(w.rules, " "))
			case isFile[f]:
				spec += " -r -F"
			case w.takesValue[f]:
				spec += " -x"
			}
			fmt.Fprintf(out, "complete -c bflint -n %s %s\n", fishQuote(condition), spec)
		}
	}
	fmt.Fprintf(out, "complete -c bflint -n %s -F\n", fishQuote("not __fish_seen_subcommand_from "+strings.Join(w.commands[1:], " ")))
	fmt.Fprintf(out, "complete -c bflint -n %s -x -a %s\n", fishQuote("__fish_seen_subcommand_from explain"), fishQuote(strings.Join(w.rules, " ")))
	fmt.Fprintf(out, "complete -c bflint -n %s -x -a %s\n", fishQuote("__fish_seen_subcommand_from completion"), fishQuote("bash zsh fish"))
	fmt.Fprintf(out, "complete -c bflint -n %s -x -a %s\n", fishQuote("__fish_seen_subcommand_from help"), fishQuote(strings.Join(w.commands, " ")))
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
