import { REPO_RANK, repoHint, type RepoHint } from '../events/repository.js';
import { textOf } from './mappings/native.js';
import type { Attrs } from './records.js';

/** Where a record's events happen: the session it names and the repository its vcs.* attributes tell (contract §19). */
export interface RecordPlace {
  sessionId: string | undefined;
  repo: RepoHint | undefined;
}

const URL = 'vcs.repository.url.full';
const BRANCH = 'vcs.ref.head.name';
const COMMIT = 'vcs.ref.head.revision';

// An export's records mostly share one resource object: its repository is read once.
const ofResource = new WeakMap<Attrs, RepoHint | null>();

function resourceRepo(resource: Attrs): RepoHint | undefined {
  let hint = ofResource.get(resource);
  if (hint === undefined) {
    const url = textOf(resource[URL]);
    hint = (url && repoHint(url, textOf(resource[BRANCH]), textOf(resource[COMMIT]), REPO_RANK.otelResource)) || null;
    ofResource.set(resource, hint);
  }
  return hint ?? undefined;
}

/**
 * The semantic conventions' vcs.repository.url.full, vcs.ref.head.name and vcs.ref.head.revision,
 * on the record (the better source) or else on its resource; and the record's session.id.
 */
export function placeOf(attrs: Attrs, resource: Attrs): RecordPlace {
  const url = textOf(attrs[URL]);
  const own =
    url === undefined
      ? undefined
      : repoHint(url, textOf(attrs[BRANCH]) ?? textOf(resource[BRANCH]), textOf(attrs[COMMIT]) ?? textOf(resource[COMMIT]), REPO_RANK.otelRecord);
  return { sessionId: textOf(attrs['session.id']) ?? textOf(resource['session.id']), repo: own ?? resourceRepo(resource) };
}
