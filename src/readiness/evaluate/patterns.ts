interface Around {
  before?: RegExp;
  after?: RegExp;
  flags?: string;
}

/**
 * One expression matching any of the alternatives, so a long alternation reads one alternative a
 * line, each still a checked regular expression literal. `before` and `after` wrap the group (for
 * instance `/(^|\/)/` and `/$/` for a file name anywhere in the tree); the group stays capturing.
 */
export function anyOf(alternatives: RegExp[], { before, after, flags = '' }: Around = {}): RegExp {
  return new RegExp(`${before?.source ?? ''}(${alternatives.map((a) => a.source).join('|')})${after?.source ?? ''}`, flags);
}
