#!/bin/sh
# Shell completion: `catena completion bash` completes, in bash, every command and every option
# that `catena --help` and each `catena CMD --help` list (so it is in step with them), the
# arguments options take (words, directories, *.json), and the operands; `catena completion
# zsh` is a zsh function over the same table; `make install` installs both (with DESTDIR).
. "$top_srcdir/tests/lib.sh"

catena completion bash
expect_status 0 "completion bash exits 0"
cp "$tmp/out" "$tmp/catena.bash"
catena completion zsh
expect_status 0 "completion zsh exits 0"
cp "$tmp/out" "$tmp/_catena"
catena completion fish
expect_status 2 "completion for an unknown shell exits 2"
expect_err "catena: completion: unknown shell 'fish' (valid: bash, zsh)" "completion names the shells"

if ! command -v bash >/dev/null 2>&1; then
    echo "SKIP: bash is not installed"
    finish
fi

# A directory to complete names in.
mkdir "$tmp/files" "$tmp/files/runs"
: >"$tmp/files/chain.json"
: >"$tmp/files/notes.txt"

# complete WORD...: what bash completes the last WORD to, one per line, sorted (the words
# as bash splits the line: "--format=" is "--format" "=" "").
complete_words() {
    (cd "$tmp/files" && bash -c '. "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _catena
        [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$tmp/catena.bash" catena "$@") | sort
}

expect_eq "$(complete_words r | tr '\n' ' ')" "render run " "the commands complete"
expect_eq "$(complete_words --v | tr '\n' ' ')" "--version " "the program's options complete"
expect_eq "$(complete_words run --st | tr '\n' ' ')" "--steps " "a command's options complete"
expect_eq "$(complete_words run --format '' | tr '\n' ' ')" "csv json npy " \
    "an option's words complete"
expect_eq "$(complete_words run --format = '' | tr '\n' ' ')" "csv json npy " \
    "--format=: the words complete after ="
expect_eq "$(complete_words run --format = j | tr '\n' ' ')" "json " "--format=j completes json"
expect_eq "$(complete_words render --color-by s | tr '\n' ' ')" "speed stretch " \
    "render --color-by completes its values"
expect_eq "$(complete_words run '' | tr '\n' ' ')" "chain.json runs " \
    "run's operand completes scenarios (*.json) and directories"
expect_eq "$(complete_words render '' | tr '\n' ' ')" "runs " "render's operand completes directories"
expect_eq "$(complete_words run -o '' | tr '\n' ' ')" "runs " "-o completes directories"
expect_eq "$(complete_words run --steps '' | tr '\n' ' ')" "" "--steps N completes nothing"
expect_eq "$(complete_words run --steps 5 c | tr '\n' ' ')" "chain.json " \
    "after an option's argument, operands again"
expect_eq "$(complete_words sweep c | tr '\n' ' ')" "chain.json collect " \
    "sweep completes collect beside sweep files"
expect_eq "$(complete_words sweep collect - | tr '\n' ' ')" "--help --quiet -h -q " \
    "sweep collect completes its own options"
expect_eq "$(complete_words schema '' | tr '\n' ' ')" "scenario sweep " "schema completes its kinds"
expect_eq "$(complete_words help s | tr '\n' ' ')" "schema sweep " "help completes the commands"
complete_words run - >"$tmp/run-options"
check "run's retired -j is not offered" sh -c "! grep -qx -- -j '$tmp/run-options'"

# In step with the help: every command and every option the help lists completes.
"$CATENA" --help | sed -n '/^Commands:$/,/^$/p' |
    awk '/^  [a-z]+ [a-z]+( |$)/ { print $1 " " $2; next } /^  [a-z]/ { print $1 }' >"$tmp/commands"
complete_words '' >"$tmp/all"
n=0
while read -r command; do
    first=${command%% *}
    check "completion offers the command $first" grep -qx "$first" "$tmp/all"
    # shellcheck disable=SC2086 # two words for "sweep collect"
    "$CATENA" $command --help |
        sed -n 's/^ \{2,6\}\(-\([a-zA-Z]\), \)\{0,1\}--\([a-z-]*\).*/\3 \2/p' >"$tmp/opts"
    # shellcheck disable=SC2086
    complete_words $command - >"$tmp/offered"
    while read -r long short; do
        n=$((n + 1))
        check "completion offers $command --$long" grep -qx -- "--$long" "$tmp/offered"
        [ -z "$short" ] || check "completion offers $command -$short" grep -qx -- "-$short" "$tmp/offered"
    done <"$tmp/opts"
done <"$tmp/commands"
check "the options checked are many" test "$n" -ge 40

# zsh: the function parses and covers the same commands and options.
if command -v zsh >/dev/null 2>&1; then
    check "the zsh completion parses" zsh -n "$tmp/_catena"
    check "the zsh completion is a #compdef function" grep -qx '#compdef catena' "$tmp/_catena"
    check "the zsh completion has run's --until-settled" grep -q "'--until-settled=\[" "$tmp/_catena"
    check "the zsh completion has sweep collect" grep -q '^_catena_sweep_collect() {' "$tmp/_catena"
else
    echo "SKIP: zsh is not installed: the zsh completion is not parsed"
fi

# make install puts both where the shells look (bash-completion's directory, zsh's
# site-functions), under DESTDIR.
if [ -n "${top_builddir:-}" ] && [ -f "$top_builddir/Makefile" ]; then
    status=0
    ${MAKE:-make} -s -C "$top_builddir" install DESTDIR="$tmp/dest" prefix=/usr \
        >"$tmp/install.out" 2>&1 || status=$?
    check "make install with DESTDIR exits 0" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/    /' "$tmp/install.out" | tail -n 5
    check "the bash completion is installed in /usr/share/bash-completion/completions/catena" \
        cmp -s "$tmp/dest/usr/share/bash-completion/completions/catena" "$tmp/catena.bash"
    check "the zsh completion is installed in /usr/share/zsh/site-functions/_catena" \
        cmp -s "$tmp/dest/usr/share/zsh/site-functions/_catena" "$tmp/_catena"
else
    echo "SKIP: no build tree (top_builddir): make install is not tried"
fi

finish
