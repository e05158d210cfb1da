# fish completion for contend: bash's (contend.bash), asked of bash for the
# line typed so far, so the completions of the three shells never differ.
# bash finds contend.bash through $CONTEND_BASH_COMPLETION, beside this
# file, or where bash-completion keeps it.
function __contend_bash_completion
    for f in $CONTEND_BASH_COMPLETION (status dirname)/contend.bash \
            /usr/share/bash-completion/completions/contend \
            /usr/local/share/bash-completion/completions/contend
        if test -r $f
            echo $f
            return
        end
    end
end

function __contend_complete
    set -l script (__contend_bash_completion)
    test -n "$script"; or return
    # whole words, as fish replaces the whole token
    bash --norc --noprofile $script --complete (commandline -cp) 2>/dev/null
end

complete -c contend -f -a '(__contend_complete)'
