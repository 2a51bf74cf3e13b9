/* `catena completion bash|zsh`: the shell's completion script, written from the command table
 * (cli/commands.c) and each command's options, so that it completes the commands and options
 * this catena takes and their arguments (files, directories, *.json, or the words an option
 * takes). make install installs both (bash-completion's and zsh's directories). */
#include "cli/cmd.h"

#include <getopt.h> /* optind */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int cmd_completion(int argc, char **argv);

const struct cmd_spec cmd_completion_spec = {
    .name = "completion",
    .run = cmd_completion,
    .operands = "bash|zsh",
    .summary = "print the shell completion script for bash or zsh",
    .about = "Print the completion script of bash or zsh for catena's commands, options and\n"
             "their arguments. make install installs both; to try one without installing:\n"
             "source <(catena completion bash).",
    .example = "catena completion bash >~/.local/share/bash-completion/completions/catena",
    .operand_complete = "bash zsh",
};

/* The command's words with spaces as in its name, and the name with '_' for ' ' (zsh
 * function names). */
static void ident(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s", name);
    for (char *c = buf; *c; c++)
        if (*c == ' ' || *c == '-')
            *c = '_';
}

static int has_short(const struct cmd_option *o)
{
    return o->key > 0 && o->key <= CHAR_MAX;
}

/* ---- bash ---- */

/* The fixed part: what each kind of argument completes to, and the walk over the words. */
static const char bash_logic[] =
    "# _catena_complete KIND: COMPREPLY for the current word: files, directories, *.json\n"
    "# (and directories), the commands, or the words KIND lists.\n"
    "_catena_complete() {\n"
    "    case $1 in\n"
    "    '<file>') compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
    "    '<dir>') compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
    "    '<json>') compopt -o filenames 2>/dev/null\n"
    "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"; compgen -f -X '!*.json' -- "
    "\"$cur\") ;;\n"
    "    '<command>') mapfile -t COMPREPLY < <(compgen -W \"$_catena_commands\" -- \"$cur\") ;;\n"
    "    *) mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\") ;;\n"
    "    esac\n"
    "}\n"
    "\n"
    "_catena() {\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
    "    local cmd=${COMP_WORDS[1]} first=2 kind sub\n"
    "    COMPREPLY=()\n"
    "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
    "        _catena_complete \"$_catena_commands -h --help --version\"\n"
    "        return\n"
    "    fi\n"
    "    for sub in $(_catena_subcommands \"$cmd\"); do\n"
    "        if [ \"${COMP_WORDS[2]}\" = \"$sub\" ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
    "            cmd=\"$cmd $sub\"\n"
    "            first=3\n"
    "        fi\n"
    "    done\n"
    "    # --option=VALUE: bash splits it at '=' (COMP_WORDBREAKS) unless told otherwise.\n"
    "    if [ \"$cur\" = = ]; then\n"
    "        cur=\n"
    "    elif [ \"$prev\" = = ]; then\n"
    "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
    "    elif [[ $cur == --*=* ]]; then\n"
    "        prev=${cur%%=*}\n"
    "        cur=${cur#*=}\n"
    "    fi\n"
    "    if [ \"$COMP_CWORD\" -gt \"$first\" ] && kind=$(_catena_argument \"$cmd\" \"$prev\"); "
    "then\n"
    "        _catena_complete \"$kind\"\n"
    "    elif [[ $cur == -* ]]; then\n"
    "        _catena_complete \"$(_catena_options \"$cmd\") -h --help\"\n"
    "    else\n"
    "        _catena_complete \"$(_catena_operands \"$cmd\")\"\n"
    "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
    "            mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -W "
    "\"$(_catena_subcommands \"$cmd\")\" -- \"$cur\")\n"
    "        fi\n"
    "    fi\n"
    "}\n"
    "complete -F _catena catena\n";

/* What an argument completes to, as bash_logic's _catena_complete takes it ("" nothing). */
static const char *kind_of(const char *complete)
{
    return complete ? complete : "";
}

/* The case of _catena_subcommands for command i's first word, when i is the first command
 * of two words with that first word: every second word it takes ("sweep) echo collect plot"),
 * in one case, since bash runs only the first that matches. */
static void bash_subcommands(FILE *out, size_t i)
{
    const char *name = cmd_table[i]->name, *space = strchr(name, ' ');
    const size_t n = space ? (size_t)(space - name) : 0;
    for (size_t k = 0; space && k < i; k++)
        if (strchr(cmd_table[k]->name, ' ') && strncmp(cmd_table[k]->name, name, n + 1) == 0)
            return; /* its first word has its case already */
    if (!space)
        return;
    fprintf(out, "    %.*s) echo", (int)n, name);
    for (size_t k = i; cmd_table[k]; k++)
        if (strchr(cmd_table[k]->name, ' ') && strncmp(cmd_table[k]->name, name, n + 1) == 0)
            fprintf(out, " %s", cmd_table[k]->name + n + 1);
    fputs(" ;;\n", out);
}

static void bash_data(FILE *out)
{
    fputs("_catena_commands='", out);
    for (size_t i = 0; cmd_table[i]; i++)
        if (!strchr(cmd_table[i]->name, ' '))
            fprintf(out, "%s%s", i ? " " : "", cmd_table[i]->name);
    fputs("'\n\n# _catena_subcommands CMD: the second words of CMD's commands of two words.\n"
          "_catena_subcommands() {\n    case $1 in\n",
          out);
    for (size_t i = 0; cmd_table[i]; i++)
        bash_subcommands(out, i);
    fputs("    esac\n}\n\n# _catena_options CMD: CMD's options.\n_catena_options() {\n"
          "    case $1 in\n",
          out);
    for (size_t i = 0; cmd_table[i]; i++) {
        fprintf(out, "    '%s') echo '", cmd_table[i]->name);
        const char *sep = "";
        for (const struct cmd_option *o = cmd_table[i]->options; o && o->name; o++) {
            if (o->retired)
                continue;
            if (has_short(o))
                fprintf(out, "%s-%c ", sep, o->key);
            fprintf(out, "%s--%s", has_short(o) ? "" : sep, o->name);
            sep = " ";
        }
        fputs("' ;;\n", out);
    }
    fputs(
        "    esac\n}\n\n# _catena_argument CMD OPTION: what OPTION's argument completes to; fails\n"
        "# for an option that takes none (or no option).\n_catena_argument() {\n"
        "    case \"$1 $2\" in\n",
        out);
    for (size_t i = 0; cmd_table[i]; i++)
        for (const struct cmd_option *o = cmd_table[i]->options; o && o->name; o++) {
            if (o->retired || !o->arg)
                continue;
            fprintf(out, "    '%s --%s'", cmd_table[i]->name, o->name);
            if (has_short(o))
                fprintf(out, " | '%s -%c'", cmd_table[i]->name, o->key);
            fprintf(out, ") echo '%s' ;;\n", kind_of(o->complete));
        }
    fputs("    *) return 1 ;;\n    esac\n}\n\n# _catena_operands CMD: what CMD's operands complete "
          "to.\n_catena_operands() {\n    case $1 in\n",
          out);
    for (size_t i = 0; cmd_table[i]; i++)
        fprintf(out, "    '%s') echo '%s' ;;\n", cmd_table[i]->name,
                kind_of(cmd_table[i]->operand_complete));
    fputs("    esac\n}\n\n", out);
}

static void bash_script(FILE *out)
{
    fputs("# bash completion for catena, written by `catena completion bash` from catena's own\n"
          "# table of commands and options. Installed as bash-completion/completions/catena;\n"
          "# or: source <(catena completion bash)\n\n",
          out);
    bash_data(out);
    fputs(bash_logic, out);
}

/* ---- zsh ---- */

/* Text for inside a single-quoted _arguments spec's [...] or a _describe entry: its first
 * line, with what _arguments gives a meaning escaped and ' closing and reopening the quote. */
static void zsh_text(FILE *out, const char *text)
{
    for (const char *c = text; *c && *c != '\n'; c++) {
        if (*c == '\'')
            fputs("'\\''", out);
        else if (strchr("[]:\\", *c))
            fprintf(out, "\\%c", *c);
        else
            fputc(*c, out);
    }
}

/* What an argument completes to, as an _arguments action. */
static void zsh_action(FILE *out, const char *complete)
{
    if (!complete || !*complete)
        fputs(" ", out);
    else if (!strcmp(complete, CMD_FILES))
        fputs("_files", out);
    else if (!strcmp(complete, CMD_DIRS))
        fputs("_files -/", out);
    else if (!strcmp(complete, CMD_JSON))
        fputs("_files -g \"*.json\"", out);
    else if (!strcmp(complete, CMD_COMMANDS))
        fputs("($_catena_commands)", out);
    else
        fprintf(out, "(%s)", complete);
}

/* '(-o --output)'{-o+,--output=}'[help]:DIR:_files -/', or '--steps=[help]:N: '. */
static void zsh_option(FILE *out, const struct cmd_option *o)
{
    fputs("        ", out);
    if (has_short(o))
        fprintf(out, "'(-%c --%s)'{-%c%s,--%s%s}'", o->key, o->name, o->key, o->arg ? "+" : "",
                o->name, o->arg ? "=" : "");
    else
        fprintf(out, "'--%s%s", o->name, o->arg ? "=" : "");
    fputc('[', out);
    zsh_text(out, o->help);
    fputc(']', out);
    if (o->arg) {
        fprintf(out, ":%s:", o->arg);
        zsh_action(out, o->complete);
    }
    fputs("' \\\n", out);
}

static void zsh_command(FILE *out, const struct cmd_spec *c)
{
    char id[64];
    ident(id, sizeof id, c->name);
    fprintf(out, "_catena_%s() {\n    _arguments -s -S \\\n", id);
    for (const struct cmd_option *o = c->options; o && o->name; o++)
        if (!o->retired)
            zsh_option(out, o);
    zsh_option(out, &(struct cmd_option){.name = "help", .key = 'h', .help = "show this help"});
    fputs("        '*:", out);
    zsh_text(out, c->operands ? c->operands : "argument");
    fputc(':', out);
    zsh_action(out, c->operand_complete);
    fputs("'\n}\n\n", out);
}

static void zsh_script(FILE *out)
{
    fputs("#compdef catena\n"
          "# zsh completion for catena, written by `catena completion zsh` from catena's own "
          "table\n# of commands and options. Installed as zsh/site-functions/_catena.\n\n",
          out);
    fputs("_catena_commands=(", out);
    for (size_t i = 0; cmd_table[i]; i++)
        if (!strchr(cmd_table[i]->name, ' '))
            fprintf(out, "%s%s", i ? " " : "", cmd_table[i]->name);
    fputs(")\n\n", out);
    for (size_t i = 0; cmd_table[i]; i++)
        zsh_command(out, cmd_table[i]);
    fputs("_catena() {\n    local -a commands\n    commands=(\n", out);
    for (size_t i = 0; cmd_table[i]; i++)
        if (!strchr(cmd_table[i]->name, ' ')) {
            fprintf(out, "        '%s:", cmd_table[i]->name);
            zsh_text(out, cmd_table[i]->summary);
            fputs("'\n", out);
        }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'catena command' commands\n"
          "        return\n"
          "    fi\n"
          "    local cmd=${words[2]}\n",
          out);
    /* A command of two words: its own function once the second word is there; before it,
     * the second word beside the first command's own arguments. */
    for (size_t i = 0; cmd_table[i]; i++) {
        const char *name = cmd_table[i]->name, *space = strchr(name, ' ');
        char id[64];
        if (!space)
            continue;
        ident(id, sizeof id, name);
        fprintf(out,
                "    if [[ $cmd == %.*s ]]; then\n"
                "        if (( CURRENT > 3 )) && [[ ${words[3]} == %s ]]; then\n"
                "            shift words\n"
                "            (( CURRENT-- ))\n"
                "            _catena_%s\n"
                "            return\n"
                "        fi\n"
                "        (( CURRENT == 3 )) && [[ $PREFIX != -* ]] && compadd %s\n"
                "    fi\n",
                (int)(space - name), name, space + 1, id, space + 1);
    }
    fputs("    (( $+functions[_catena_${cmd//-/_}] )) && _catena_${cmd//-/_}\n}\n\n"
          "_catena \"$@\"\n",
          out);
}

static int cmd_completion(int argc, char **argv)
{
    const int c = cmd_getopt(&cmd_completion_spec, argc, argv);
    if (c != -1)
        return c == CMD_OPT_HELP ? EXIT_SUCCESS : EXIT_USAGE;
    if (cmd_one_operand(argc, argv, "completion", "bash or zsh"))
        return cmd_usage_error();
    if (strcmp(argv[optind], "bash") == 0)
        bash_script(stdout);
    else if (strcmp(argv[optind], "zsh") == 0)
        zsh_script(stdout);
    else {
        fprintf(stderr, "catena: completion: unknown shell '%s' (valid: bash, zsh)\n",
                argv[optind]);
        return cmd_usage_error();
    }
    return EXIT_SUCCESS;
}
