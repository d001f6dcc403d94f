import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '../../core/clock.js';

interface Entry {
  /** The process group of the command (its leader's pid). */
  pgid: number;
  cwd: string;
  command: string;
  agentPid: number;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The working directory of a live process (Linux); undefined where it cannot be read. */
const cwdOf = (pid: number): string | undefined => {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
};

/**
 * What the host agent has running, on disk beside its work (`WORKDIR/.orgctl-agent/`): a file per
 * command with its process group, and a lock per directory. An agent killed with SIGKILL cannot
 * end its commands, which live on in their own process groups; the next agent on that workdir
 * reads the ledger and ends them before it takes work, so an install never runs twice in one
 * directory at once (the lock refuses a second one while the first one's agent is alive).
 */
export class ProcessLedger {
  private readonly dir: string;

  constructor(workdir: string) {
    this.dir = path.join(path.resolve(workdir), '.orgctl-agent');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(name: string) {
    return path.join(this.dir, name);
  }

  /** Ends the process groups a previous agent left running; returns what it ended. */
  async endLeftovers(): Promise<Entry[]> {
    const ended: Entry[] = [];
    for (const name of readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      let entry: Entry | undefined;
      try {
        entry = JSON.parse(readFileSync(this.file(name), 'utf8')) as Entry;
      } catch {
        entry = undefined;
      }
      // A live agent's commands are its own business (another agent on this workdir still runs them).
      if (entry && entry.agentPid !== process.pid && alive(entry.agentPid)) continue;
      // The pid may since belong to another program: only a group whose leader still works in the recorded directory is ended.
      if (entry && alive(entry.pgid) && cwdOf(entry.pgid) === entry.cwd) {
        await killGroup(entry.pgid);
        ended.push(entry);
      }
      rmSync(this.file(name), { force: true });
    }
    for (const name of readdirSync(this.dir).filter((f) => f.endsWith('.lock'))) {
      const holder = Number(readFileSync(this.file(name), 'utf8'));
      if (!(holder > 0 && holder !== process.pid && alive(holder))) rmSync(this.file(name), { force: true });
    }
    return ended;
  }

  /**
   * Takes the directory for one command; undefined (and a reason) when another live agent holds it.
   * The returned function gives it back.
   */
  lock(cwd: string): { release: () => void } | { heldBy: number } {
    const file = this.file(`${createHash('sha256').update(path.resolve(cwd)).digest('hex').slice(0, 32)}.lock`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        return { release: () => rmSync(file, { force: true }) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const holder = Number(readFileSync(file, 'utf8'));
        if (holder > 0 && holder !== process.pid && alive(holder)) return { heldBy: holder };
        rmSync(file, { force: true });
      }
    }
    return { heldBy: -1 };
  }

  /** Records a command's process group until it ends. */
  record(pgid: number, cwd: string, command: string): () => void {
    const file = this.file(`${pgid}.json`);
    writeFileSync(file, JSON.stringify({ pgid, cwd: path.resolve(cwd), command, agentPid: process.pid } satisfies Entry));
    return () => rmSync(file, { force: true });
  }
}

async function killGroup(pgid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pgid, sig);
    } catch {
      // gone
    }
  };
  // The whole group, not only its leader: the install's own processes are its leader's children.
  signal('SIGTERM');
  for (let i = 0; i < 30 && alive(-pgid); i++) await systemClock.sleep(100);
  signal('SIGKILL');
  // Gone before the agent says so and takes work: a retried step must not run beside the old one.
  for (let i = 0; i < 20 && alive(-pgid); i++) await systemClock.sleep(100);
}
