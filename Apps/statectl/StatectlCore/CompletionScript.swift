/// The shell completion scripts `statectl completions SHELL` prints. Each asks
/// `statectl __complete WORDS…` for the candidates of the word under the cursor, so they stay
/// as current as the daemon (see `Completion`).
///
/// ```sh
/// source <(statectl completions bash)
/// statectl completions zsh > "${fpath[1]}/_statectl"
/// statectl completions fish > ~/.config/fish/completions/statectl.fish
/// ```
public enum CompletionScript {
  public static func text(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  // Words are split from the line itself (not COMP_WORDS, which bash also splits at '=' and
  // ':'), so `value:=` is one word; candidates ending in '=' get no space after them. Bash
  // replaces only what follows the last '=' or ':' of the word (COMP_WORDBREAKS), so a
  // candidate such as `key=searchLimit` loses the part of the word before it.
  static let bash = #"""
    # bash completion for statectl (statectl completions bash)
    _statectl() {
      local line=${COMP_LINE:0:COMP_POINT} words candidate current prefix=""
      local IFS=$' \t\n'
      read -r -a words <<<"$line"
      [[ $line =~ [[:space:]]$ || ${#words[@]} -eq 0 ]] && words+=("")
      current=${words[${#words[@]}-1]}
      local breaks=${COMP_WORDBREAKS//[^=:]/}
      if [[ -n $breaks && $current == *["$breaks"]* ]]; then
        prefix=${current%"${current##*["$breaks"]}"}
      fi
      COMPREPLY=()
      local IFS=$'\n'
      for candidate in $("${words[0]:-statectl}" __complete "${words[@]:1}" 2>/dev/null); do
        COMPREPLY+=("${candidate#"$prefix"}")
      done
      if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
        compopt -o nospace 2>/dev/null
      fi
      # File names: the values of --socket, --record and --output, and replay's and
      # export-test's FILE.
      if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
        local previous=${words[${#words[@]}-2]}
        if [[ $previous == @(--socket|-s|--record|-o|--output) \
          || " ${words[*]:1} " == *@( replay | export-test )* ]]; then
          compopt -o default 2>/dev/null
        fi
      fi
      return 0
    }
    complete -F _statectl statectl

    """#

  static let zsh = #"""
    #compdef statectl
    # zsh completion for statectl (statectl completions zsh)
    _statectl() {
      local -a candidates plain fields
      candidates=("${(@f)$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
      local candidate
      for candidate in $candidates; do
        [[ -z $candidate ]] && continue
        if [[ $candidate == *= ]]; then fields+=("$candidate"); else plain+=("$candidate"); fi
      done
      if [[ ${words[CURRENT-1]} == (--socket|-s|--record|-o|--output) ]]; then
        _files
        return
      fi
      # replay's and export-test's FILE.
      if (( ! ${#plain} && ! ${#fields} && ${words[(I)(replay|export-test)]} )); then
        _files
        return
      fi
      (( ${#plain} )) && compadd -a plain
      (( ${#fields} )) && compadd -S '' -a fields
      return 0
    }
    if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
      _statectl "$@"
    else
      compdef _statectl statectl
    fi

    """#

  static let fish = #"""
    # fish completion for statectl (statectl completions fish)
    function __statectl_complete
        set -l words (commandline -opc) (commandline -ct)
        $words[1] __complete $words[2..-1] 2>/dev/null
    end
    complete -c statectl -f -a '(__statectl_complete)'
    complete -c statectl -l socket -s s -r -F -d 'the daemon socket'
    complete -c statectl -l record -r -F -d 'write the session to this file'
    complete -c statectl -l output -s o -r -F -d 'write the test to this file'
    complete -c statectl -n '__fish_seen_subcommand_from replay export-test' -F

    """#
}
