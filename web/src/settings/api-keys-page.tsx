import { useQuery } from '@tanstack/react-query';
import { Page, QueryState } from '../ui/parts.js';
import { CreateKeyForm, KeyTable } from './api-key-parts.js';
import { apiKeysQuery } from './queries.js';

export function ApiKeysPage() {
  const keys = useQuery(apiKeysQuery());
  return (
    <Page title="API keys">
      <div className="card" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <p className="muted">A key acts as you, with your role, for the API and the `orgctl` command line.</p>
        <CreateKeyForm />
      </div>
      <QueryState query={keys} />
      {keys.data ? <KeyTable keys={keys.data.apiKeys} caption="Keys (owners and managers see the organization's)" holder /> : null}
    </Page>
  );
}
