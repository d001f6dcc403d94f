import { UsageError } from '../core/cli/args.js';

export interface CompletionEntry {
  /** One or two words. */
  name: string;
  flags: string[];
}

const quote = (words: string[]) => words.join(' ');

/** Candidates after `orgctl`: first words, then per first word its second words, then per command its flags. */
function tables(entries: CompletionEntry[]) {
  const first = [...new Set(entries.map((e) => e.name.split(' ')[0] as string))];
  const second = new Map<string, string[]>();
  for (const e of entries) {
    const [a, b] = e.name.split(' ');
    if (b) second.set(a as string, [...(second.get(a as string) ?? []), b]);
  }
  return { first, second };
}

function bash(entries: CompletionEntry[]): string {
  const { first, second } = tables(entries);
  const subs = [...second].map(([a, bs]) => `    ${a}) subs="${quote(bs)}" ;;`).join('\n');
  const flags = entries.map((e) => `    "${e.name}") flags="${quote(e.flags.map((f) => `--${f}`))}" ;;`).join('\n');
  return `# orgctl completion for bash: source <(orgctl completion bash)
_orgctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" first="\${COMP_WORDS[1]}" second="\${COMP_WORDS[2]}" subs="" flags=""
  case "$first" in
${subs}
  esac
  if [[ $COMP_CWORD -eq 1 ]]; then COMPREPLY=($(compgen -W "${quote(first)}" -- "$cur")); return; fi
  if [[ $COMP_CWORD -eq 2 && -n "$subs" && "$cur" != -* ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return; fi
  local name="$first"
  [[ -n "$subs" ]] && name="$first $second"
  case "$name" in
${flags}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _orgctl orgctl
`;
}

function zsh(entries: CompletionEntry[]): string {
  const { first, second } = tables(entries);
  const subs = [...second].map(([a, bs]) => `    ${a}) subs=(${quote(bs)}) ;;`).join('\n');
  const flags = entries.map((e) => `    "${e.name}") flags=(${quote(e.flags.map((f) => `--${f}`))}) ;;`).join('\n');
  return `#compdef orgctl
# orgctl completion for zsh: source <(orgctl completion zsh)
_orgctl() {
  local -a subs flags
  local first="\${words[2]}" second="\${words[3]}"
  case "$first" in
${subs}
  esac
  if (( CURRENT == 2 )); then compadd -- ${quote(first)}; return; fi
  if (( CURRENT == 3 )) && (( \${#subs} )) && [[ "\${words[CURRENT]}" != -* ]]; then compadd -- $subs; return; fi
  local name="$first"
  (( \${#subs} )) && name="$first $second"
  case "$name" in
${flags}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then compadd -- $flags; else _files; fi
}
compdef _orgctl orgctl
`;
}

export function completionScript(shell: string | undefined, entries: CompletionEntry[]): string {
  if (shell === 'bash') return bash(entries);
  if (shell === 'zsh') return zsh(entries);
  throw new UsageError('Usage: orgctl completion bash|zsh (then: source <(orgctl completion bash))');
}
