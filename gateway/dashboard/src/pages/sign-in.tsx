import { useRef, useState, type FormEvent } from "react";
import { signIn } from "../api/session";
import { ErrorState } from "../components/states";

/**
 * The admin key, exchanged once for a session cookie. The key lives only in the password field
 * (uncontrolled, so not even React state holds it) and the field is emptied after each try.
 */
export function SignInPage({ message, onSignedIn }: { message?: string; onSignedIn: () => void }) {
  // No name attribute: even a form submitted without this script would carry no key.
  const field = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = field.current;
    if (!input) return;
    const adminKey = input.value;
    input.value = "";
    setError(undefined);
    setBusy(true);
    try {
      await signIn(adminKey);
      onSignedIn();
    } catch (failure) {
      setError(failure);
      setBusy(false);
      input.focus();
    }
  };

  return (
    <main className="sign-in">
      <h1>Bayad dashboard</h1>
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      <form onSubmit={(event) => void submit(event)}>
        <label className="field">
          Admin key
          <input ref={field} type="password" autoComplete="off" spellCheck={false} required autoFocus />
        </label>
        <p className="muted">The ADMIN_API_KEY the gateway was started with (npm start prints it). It is not stored in this browser.</p>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {error ? <ErrorState error={error} /> : null}
    </main>
  );
}
