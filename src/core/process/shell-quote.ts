/**
 * One word for a POSIX shell, whatever it holds: single-quoted, each `'` written as `'\''`.
 * Only for a command line that must go to a shell as text (a remote sandbox takes nothing
 * else); a local process gets its arguments as a list (`runProcess(file, args)`), unquoted.
 */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
