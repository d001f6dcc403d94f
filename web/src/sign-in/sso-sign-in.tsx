import { useState, type FormEvent } from 'react';
import { Field } from '../ui/parts.js';

/** What each `sso_error` the service sends back to /login means, for the person signing in. */
const REASONS: Record<string, string> = {
  sso_not_configured: 'No organization signs in with single sign-on for this email domain.',
  domain_not_allowed: 'Your identity provider signed you in with an email whose domain this organization does not allow.',
  email_not_verified: 'Your identity provider has not verified your email.',
  no_email: 'Your identity provider sent no email. Ask an owner to check the SSO setup (the email scope).',
  state_mismatch: 'The sign-in could not be matched to this browser. Start again.',
  nonce_mismatch: 'The sign-in could not be matched to this browser. Start again.',
  no_sign_in_under_way: 'The sign-in could not be matched to this browser (or was finished already). Start again.',
  sign_in_expired: 'The sign-in took too long. Start again.',
  code_rejected: 'The identity provider refused the sign-in (it may have taken too long). Start again.',
  id_token_invalid: "The identity provider's answer failed verification. Ask an owner to check the SSO setup.",
  provider_unreachable: 'The identity provider cannot be reached. Try again later, or ask an owner.',
  provider_error: 'The identity provider refused the sign-in.',
};

/** Signing in with SSO: the browser goes to the service, which sends it on to the provider of the email's domain. */
export function SsoSignIn({ email: initial }: { email: string }) {
  const [email, setEmail] = useState(initial);
  const error = new URLSearchParams(window.location.search).get('sso_error');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    window.location.assign(`/api/v0/sso/start?email=${encodeURIComponent(email)}`);
  };
  return (
    <form onSubmit={submit} aria-labelledby="sso-title" className="sso-sign-in">
      <h2 id="sso-title">Single sign-on</h2>
      {/* Not "Email" nor "Sign in": the password form's label and button keep their names to themselves. */}
      <Field label="Work address">
        <input
          type="email"
          name="sso-email"
          placeholder="you@company.com"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      {error ? (
        <p className="error" role="alert" data-testid="sso-error">
          {REASONS[error] ?? 'Single sign-on failed.'}
        </p>
      ) : null}
      <button type="submit" className="secondary">
        Use single sign-on
      </button>
    </form>
  );
}
