package cli

import (
	"context"
	"flag"
	"sort"
	"strings"
	"text/template"
)

func init() {
	Register(&Command{
		Name:    "completion",
		Summary: "print a shell completion script (bash, zsh or fish)",
		Usage:   "bash|zsh|fish",
		Help: `Prints a script that completes dynamo's commands, their flags, the values
of --output and, for commands that take an existing table, the table names
that 'dynamo list-tables' prints (with the --endpoint, --region and --profile
already typed, giving up after 2 seconds). Load it in the shell's startup file.`,
		Example: "source <(dynamo completion bash)    # in ~/.bashrc\n" +
			"source <(dynamo completion zsh)     # in ~/.zshrc, after compinit\n" +
			"dynamo completion fish > ~/.config/fish/completions/dynamo.fish",
		Run: runCompletion,
	})
}

func runCompletion(ctx context.Context, env *Env, args []string) error {
	pos, err := parseArgs(newFlagSet("completion"), args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one shell: bash, zsh or fish")
	}
	t := completionScripts[pos[0]]
	if t == nil {
		return usagef("unknown shell %q: want bash, zsh or fish", pos[0])
	}
	return t.Execute(env.Stdout, completionData())
}

type completionCommand struct {
	Name, Summary string
	Flags         []completionFlag
	TableArg      bool
}

type completionGroup struct {
	Name string
	Subs []string
}

type completionFlag struct {
	Name, Usage string
	Value       bool // takes a value (not a boolean flag)
	TextJSON    bool // --output text|json
}

type completion struct {
	Commands   []completionCommand // every command, groups' subcommands as "group sub"
	Top        []completionCommand // the first words: commands and groups
	Groups     []completionGroup
	Topics     []string
	ValueFlags []string // every flag that takes a value, "--name"
	TableCmds  []string // commands whose argument is a table name
	OutputCmds []string // commands whose --output is text or json (not a file)
}

// completionData describes the command table for the scripts.
func completionData() completion {
	var d completion
	value := map[string]bool{}
	for _, name := range sortedCommands() {
		c := commands[name]
		cc := completionCommand{Name: c.Name, Summary: c.Summary, TableArg: c.TableArg}
		if c.Flags != nil {
			c.Flags().VisitAll(func(f *flag.Flag) {
				b, ok := f.Value.(interface{ IsBoolFlag() bool })
				isValue := !ok || !b.IsBoolFlag()
				_, textJSON := f.Value.(*outputFlag)
				cc.Flags = append(cc.Flags, completionFlag{Name: f.Name, Usage: f.Usage, Value: isValue, TextJSON: textJSON})
				if isValue {
					value["--"+f.Name] = true
				}
				if textJSON {
					d.OutputCmds = append(d.OutputCmds, c.Name)
				}
			})
		}
		if c.TableArg {
			d.TableCmds = append(d.TableCmds, c.Name)
		}
		d.Commands = append(d.Commands, cc)
		top, _, sub := strings.Cut(c.Name, " ")
		if !sub {
			d.Top = append(d.Top, cc)
		} else if n := len(d.Groups); n == 0 || d.Groups[n-1].Name != top {
			d.Groups = append(d.Groups, completionGroup{Name: top, Subs: group(top)})
			d.Top = append(d.Top, completionCommand{Name: top, Summary: "subcommands " + strings.Join(group(top), ", ")})
		}
	}
	for t := range topics {
		d.Topics = append(d.Topics, t)
	}
	sort.Strings(d.Topics)
	for f := range value {
		d.ValueFlags = append(d.ValueFlags, f)
	}
	sort.Strings(d.ValueFlags)
	return d
}

func sortedCommands() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var completionFuncs = template.FuncMap{
	"join": strings.Join,
	"names": func(cs []completionCommand) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.Name)
		}
		return strings.Join(s, " ")
	},
	"flags": func(fs []completionFlag) string {
		var s []string
		for _, f := range fs {
			s = append(s, "--"+f.Name)
		}
		return strings.Join(s, " ")
	},
	// shq quotes a word for sh and zsh.
	"shq": shq,
	// alts is a case pattern matching any of the words.
	"alts": func(words []string) string {
		q := make([]string, len(words))
		for i, w := range words {
			q[i] = shq(w)
		}
		return strings.Join(q, "|")
	},
	// seen is fish's condition that the command's words were typed.
	"seen": func(name string) string {
		return "__fish_seen_subcommand_from " + strings.ReplaceAll(name, " ", "; and __fish_seen_subcommand_from ")
	},
	// fishq quotes a description for fish (single quotes, \ and ' escaped).
	"fishq": func(s string) string {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	},
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var completionScripts = map[string]*template.Template{
	"bash": template.Must(template.New("bash").Funcs(completionFuncs).Parse(bashCompletion)),
	"zsh":  template.Must(template.New("zsh").Funcs(completionFuncs).Parse(zshCompletion)),
	"fish": template.Must(template.New("fish").Funcs(completionFuncs).Parse(fishCompletion)),
}

// The table-name helpers pass on the connection flags already typed and
// give up after 2 seconds, so that a slow or unreachable endpoint never
// hangs the shell.

const bashCompletion = `# bash completion for dynamo; load with: source <(dynamo completion bash)
_dynamo_tables() {
    local args=() i
    for ((i = 2; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        --endpoint|--region|--profile|-endpoint|-region|-profile) args+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}") ;;
        esac
    done
    dynamo list-tables "${args[@]}" --timeout 2s 2>/dev/null
}

_dynamo() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "{{names .Top}} help --help --version" -- "$cur"))
        return
    fi
    case "$cmd" in
    help) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "{{names .Top}} {{join .Topics " "}}" -- "$cur")); return ;;
    completion) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
{{- range .Groups}}
    {{.Name}})
        if ((COMP_CWORD == 2)); then COMPREPLY=($(compgen -W "{{join .Subs " "}}" -- "$cur")); return; fi
        cmd="$cmd ${COMP_WORDS[2]}" ;;
{{- end}}
    esac
    case "$prev" in
    {{join .ValueFlags "|"}})
        if [[ $prev == --output && " {{join .OutputCmds " "}} " == *" $cmd "* ]]; then
            COMPREPLY=($(compgen -W "text json" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return ;;
    esac
    if [[ $cur == -* ]]; then
        case "$cmd" in
{{- range .Commands}}{{if .Flags}}
        {{shq .Name}}) COMPREPLY=($(compgen -W "{{flags .Flags}}" -- "$cur")) ;;
{{- end}}{{end}}
        esac
        return
    fi
    case "$cmd" in
    {{alts .TableCmds}}) COMPREPLY=($(compgen -W "$(_dynamo_tables)" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -F _dynamo dynamo
`

const zshCompletion = `#compdef dynamo
# zsh completion for dynamo; load with: source <(dynamo completion zsh)
# (after compinit), or save it as _dynamo in a directory of $fpath.
_dynamo_tables() {
    local -a args
    local i
    for ((i = 3; i < CURRENT; i++)); do
        case $words[i] in
        --endpoint|--region|--profile|-endpoint|-region|-profile) args+=($words[i] $words[i+1]) ;;
        esac
    done
    dynamo list-tables $args --timeout 2s 2>/dev/null
}

_dynamo() {
    local cmd=$words[2]
    if ((CURRENT == 2)); then
        local -a cmds
        cmds=(
{{- range .Top}}
            {{shq (printf "%s:%s" .Name .Summary)}}
{{- end}}
            'help:show the help of a command or topic'
        )
        _describe command cmds
        return
    fi
    case $cmd in
    help) ((CURRENT == 3)) && compadd -- {{names .Top}} {{join .Topics " "}}; return ;;
    completion) ((CURRENT == 3)) && compadd -- bash zsh fish; return ;;
{{- range .Groups}}
    {{.Name}})
        if ((CURRENT == 3)); then compadd -- {{join .Subs " "}}; return; fi
        cmd="$cmd $words[3]" ;;
{{- end}}
    esac
    case $words[CURRENT-1] in
    {{join .ValueFlags "|"}})
        if [[ $words[CURRENT-1] == --output && " {{join .OutputCmds " "}} " == *" $cmd "* ]]; then
            compadd -- text json
        else
            _files
        fi
        return ;;
    esac
    if [[ $words[CURRENT] == -* ]]; then
        case $cmd in
{{- range .Commands}}{{if .Flags}}
        {{shq .Name}}) compadd -- {{flags .Flags}} ;;
{{- end}}{{end}}
        esac
        return
    fi
    case $cmd in
    {{alts .TableCmds}}) compadd -- ${(f)"$(_dynamo_tables)"} ;;
    *) _files ;;
    esac
}

if [[ $funcstack[1] == _dynamo ]]; then
    _dynamo "$@"
else
    compdef _dynamo dynamo
fi
`

const fishCompletion = `# fish completion for dynamo; save as ~/.config/fish/completions/dynamo.fish
function __dynamo_tables
    set -l tokens (commandline -opc)
    set -l args
    for i in (seq 3 (count $tokens))
        switch $tokens[$i]
            case --endpoint --region --profile -endpoint -region -profile
                set -a args $tokens[$i] $tokens[(math $i + 1)]
        end
    end
    dynamo list-tables $args --timeout 2s 2>/dev/null
end

complete -c dynamo -f
complete -c dynamo -n __fish_use_subcommand -l version -d 'print the version'
complete -c dynamo -n __fish_use_subcommand -a help -d 'show the help of a command or topic'
{{- range .Top}}
complete -c dynamo -n __fish_use_subcommand -a {{.Name}} -d {{fishq .Summary}}
{{- end}}
complete -c dynamo -n '__fish_seen_subcommand_from help' -a '{{names .Top}} {{join .Topics " "}}'
complete -c dynamo -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'
{{- range .Groups}}
complete -c dynamo -n '__fish_seen_subcommand_from {{.Name}}; and not __fish_seen_subcommand_from {{join .Subs " "}}' -a '{{join .Subs " "}}'
{{- end}}
{{- range $c := .Commands}}{{range .Flags}}
complete -c dynamo -n '{{seen $c.Name}}' -l {{.Name}}{{if .Value}} -r{{end}}{{if .TextJSON}} -f -a 'text json'{{else if .Value}} -F{{end}} -d {{fishq .Usage}}
{{- end}}{{end}}
{{- range .TableCmds}}
complete -c dynamo -n '{{seen .}}' -a '(__dynamo_tables)'
{{- end}}
`
