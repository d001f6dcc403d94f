import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { parseFlags, required, UsageError } from '../../core/cli/args.js';
import { ApiError } from '../../client/api-client.js';
import { HostAgent } from './host-agent.js';
import { loadHostId } from './host-id.js';

/**
 * orgctl agent --url URL --key KEY --computer NAME [--workdir DIR]: runs the host agent of a byom
 * computer on this machine until SIGTERM/SIGINT. The host id is kept in DIR/.orgctl-host-id.
 */
export async function agentCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseFlags(argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    computer: { type: 'string' },
    workdir: { type: 'string' },
  });
  const url = required(values.url ?? env.ORGCTL_URL, 'url');
  if (!/^https?:\/\/[^\s]+$/.test(url)) throw new UsageError(`--url must be an http(s) URL, got ${url}.`);
  const key = required(values.key ?? env.ORGCTL_API_KEY, 'key');
  const workdir = path.resolve(values.workdir ?? path.join(os.homedir(), 'orgctl-computers'));
  const agent = new HostAgent({
    url,
    key,
    computer: required(values.computer, 'computer'),
    workdir,
    hostId: loadHostId(path.join(workdir, '.orgctl-host-id')),
    hostname: os.hostname(),
    remoteUser: os.userInfo().username,
    log: pino({ base: { pid: process.pid, hostname: os.hostname(), computer: values.computer } }),
    env,
  });
  process.once('SIGTERM', () => agent.stop('SIGTERM'));
  process.once('SIGINT', () => agent.stop('SIGINT'));
  try {
    await agent.run();
    return 0;
  } catch (e) {
    if (e instanceof ApiError) {
      process.stderr.write(`orgctl agent: the service answered ${e.status}: ${e.detail}\n`);
      return 1;
    }
    throw e;
  }
}
