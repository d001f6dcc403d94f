import { Page } from '../ui/parts.js';

/** The areas of the app's next part: present in the navigation, so the map of the app is whole. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <Page title={title}>
      <p>Coming soon: {what}</p>
      <p className="muted">Until then the API and the `orgctl` command line cover it.</p>
    </Page>
  );
}
