import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api.js';
import { ErrorNote, Loading, Page } from '../ui/parts.js';
import { CreateKeyForm, KEYS_QUERY, KeyTable } from './api-key-parts.js';

export function ApiKeysPage() {
  const keys = useQuery({ queryKey: [KEYS_QUERY], queryFn: () => call(api.GET('/api/v0/api-keys')) });
  return (
    <Page title="API keys">
      <div className="card" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <p className="muted">A key acts as you, with your role, for the API and the `orgctl` command line.</p>
        <CreateKeyForm />
      </div>
      {keys.isPending ? <Loading /> : <ErrorNote error={keys.error} />}
      {keys.data ? <KeyTable keys={keys.data.apiKeys} caption="Keys (owners and managers see the organization's)" holder /> : null}
    </Page>
  );
}
