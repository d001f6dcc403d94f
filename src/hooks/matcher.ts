/**
 * A matcher selects tool-event entries by tool name: `*`, empty or absent
 * matches every tool; anything else is a case-sensitive regular expression that must match
 * the whole name, so `Edit` does not also catch `MultiEdit` (write `.*Edit` for that).
 */
export function compileMatcher(matcher: string | undefined): RegExp | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*') return undefined;
  // Compile the pattern alone first: wrapped in a group, `a)(b` would pass unnoticed.
  new RegExp(matcher);
  return new RegExp(`^(?:${matcher})$`);
}

export function matchesTool(matcher: string | undefined, toolName: string): boolean {
  const re = compileMatcher(matcher);
  return re === undefined || re.test(toolName);
}

/** Why the pattern is not a regular expression, without repeating the pattern itself. */
export function matcherProblem(matcher: string): string | undefined {
  try {
    compileMatcher(matcher);
    return undefined;
  } catch (e) {
    const detail = (e as Error).message.split(': ').pop() ?? 'invalid';
    return `is not a valid regular expression (${detail})`;
  }
}
