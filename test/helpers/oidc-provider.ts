import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  email: string;
  /** The email_verified claim as sent (true when not given); null leaves the claim out, as Entra ID does. */
  emailVerified?: boolean | string | null;
  name?: string;
  groups?: string[];
}

/**
 * A real OpenID provider for the tests: `oidc-provider` (the certified Node implementation) on a
 * local port, with one confidential client. Sign-ins go through its authorization endpoint, its
 * interaction, its token endpoint and its keys like any provider's. Two things are the test's:
 * `interactive: false` finishes the login and consent interaction at once as `nextLogin` (HTTP
 * tests); `interactive: true` leaves them to the provider's own login and consent pages (the
 * browser test). `tamperIdToken` re-signs the ID token of the token response with a key the
 * provider never published, as a forger would.
 */
export class TestOidcProvider {
  readonly accounts = new Map<string, ProviderAccount>();
  nextLogin: string | undefined;
  interactive = false;
  tamperIdToken = false;

  private constructor(
    private readonly server: Server,
    readonly provider: Provider,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  static async start(redirectUri: string): Promise<TestOidcProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    const clientId = 'orgctl-test';
    const clientSecret = 'test-client-secret-0123456789abcdef';
    const ref: { self?: TestOidcProvider } = {};
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['test-cookie-signing-key'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      // The claims of the granted scopes go in the ID token, as Okta and Keycloak put groups there.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, sub) => {
        const account = ref.self?.accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            email: account.email,
            ...(account.emailVerified === null ? {} : { email_verified: account.emailVerified ?? true }),
            ...(account.name ? { name: account.name } : {}),
            groups: account.groups ?? [],
          }),
        };
      },
    });
    const test = new TestOidcProvider(server, provider, issuer, clientId, clientSecret);
    ref.self = test;
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!test.interactive && req.method === 'GET' && req.url?.startsWith('/interaction/'))
        return void test.finishInteraction(req, res).catch((e: Error) => res.writeHead(500).end(e.message));
      if (test.tamperIdToken && req.method === 'POST' && req.url === '/token' && !req.headers['x-test-pass']) return void test.forgeToken(req, res);
      return void callback(req, res);
    });
    return test;
  }

  /** An account the provider knows; its login (the subject) is its email. */
  addAccount(account: ProviderAccount): void {
    this.accounts.set(account.email, account);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Logs `nextLogin` in and grants what the client asked for, as a person clicking through would. */
  private async finishInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!this.nextLogin) throw new Error('the test set no nextLogin');
      await this.provider.interactionFinished(req, res, { login: { accountId: this.nextLogin } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new this.provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
    grant.addOIDCScope(String(details.params.scope));
    await this.provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  /** The provider's real token response, with its ID token re-signed by a key of the forger's own (same kid). */
  private async forgeToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const real = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type']!, authorization: req.headers.authorization ?? '', 'x-test-pass': '1' },
      body: Buffer.concat(chunks),
    });
    const body = (await real.json()) as Record<string, unknown>;
    if (typeof body.id_token === 'string') {
      const { privateKey } = await generateKeyPair('RS256');
      const header = decodeProtectedHeader(body.id_token);
      body.id_token = await new SignJWT(decodeJwt(body.id_token)).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(privateKey);
    }
    res.writeHead(real.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  }
}

/** A cookie jar per origin and a walk along redirects, as a browser would, until `stopAt`'s origin is reached. */
export class RedirectWalker {
  private readonly jars = new Map<string, Map<string, string>>();

  async walk(start: string, stopAt: string): Promise<URL> {
    let url = new URL(start);
    for (let hops = 0; hops < 20; hops++) {
      if (url.origin === new URL(stopAt).origin) return url;
      const jar = this.jars.get(url.origin) ?? new Map<string, string>();
      this.jars.set(url.origin, jar);
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        jar.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      const location = res.headers.get('location');
      await res.arrayBuffer();
      if (!location) throw new Error(`${url.href} answered ${res.status} without a redirect`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }
}
