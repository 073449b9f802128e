import type { Command } from 'commander';

/** Every command path (`tenant create`) with the words that may follow it: its subcommands, or its arguments' choices and its flags. */
function paths(command: Command, path: string[] = []): Array<[string, string[]]> {
  return command.commands.flatMap((sub) => {
    const own = [...path, sub.name()];
    const next = sub.commands.length
      ? sub.commands.map((c) => c.name())
      : [...sub.registeredArguments.flatMap((a) => a.argChoices ?? []), ...sub.options.flatMap((o) => (o.long ? [o.long] : []))];
    return [[own.join(' '), [...next, '--help']] as [string, string[]], ...paths(sub, own)];
  });
}

/**
 * The completion script of `backoffice` (an alias of `npm run --silent backoffice --`), generated
 * from the commands as declared, so every operation's flags are in it. zsh runs the same function
 * through its bash compatibility (bashcompinit, which calls it with bash's array indexing).
 */
export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const cases = [['', program.commands.map((c) => c.name())] as [string, string[]], ...paths(program)]
    .map(([path, words]) => `    '${path}') echo '${words.join(' ')}' ;;`)
    .join('\n');
  return `# backoffice ${shell} completion: source <(npm run --silent backoffice -- completion ${shell})
${shell === 'zsh' ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}_backoffice_next() {
  case "$1" in
${cases}
    *) return 1 ;;
  esac
}
_backoffice() {
  local cmd='' i
  # The words naming a command (neither flags nor their values) make its path: 'tenant create'.
  for ((i = 1; i < COMP_CWORD; i++)); do
    _backoffice_next "\${cmd:+$cmd }\${COMP_WORDS[i]}" >/dev/null && cmd="\${cmd:+$cmd }\${COMP_WORDS[i]}"
  done
  COMPREPLY=($(compgen -W "$(_backoffice_next "$cmd")" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -F _backoffice backoffice
`;
}
